package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;      // factory, bytes(String), asString(byte[])
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.*;

/**
 * The first steps: open a database, put and get, apply a write batch, scan forwards, and the two
 * things that surprise newcomers: {@code createIfMissing} is on by default, and a backward loop
 * written as in RocksJava misses a key. The README's "Usage" example is this code.
 *
 * <p>Run: {@code QuickStart [directory]}; without a directory it works in a temporary one.
 */
public final class QuickStart {
    private QuickStart() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, QuickStart::run);
    }

    static void run(File dir) throws IOException {
        Options options = new Options().createIfMissing(true).filterPolicy(FilterPolicy.bloom(10));
        try (DB db = factory.open(new File(dir, "example-db"), options)) {
            db.put(bytes("hello"), bytes("world"));
            System.out.println(asString(db.get(bytes("hello"))));          // world
            try (WriteBatch batch = db.createWriteBatch()) {
                batch.delete(bytes("hello"));
                batch.put(bytes("a"), bytes("1")).put(bytes("b"), bytes("2")).put(bytes("c"), bytes("3"));
                db.write(batch);                                           // all or nothing
            }
            try (DBIterator it = db.iterator()) {
                for (it.seekToFirst(); it.hasNext(); it.next()) {
                    System.out.println(asString(it.peekNext().getKey()));  // a, b, c
                }
            }

            // Backwards: the cursor sits ON an entry, seekToLast() puts it on the last one, and
            // hasPrev() is false on the first one. So RocksJava's loop, written with these
            // methods, never visits the first key:
            List<String> keys = new ArrayList<>();
            try (DBIterator it = db.iterator()) {
                for (it.seekToLast(); it.hasPrev(); it.prev()) {
                    keys.add(asString(it.peekNext().getKey()));
                }
            }
            System.out.println("RocksJava-style loop: " + keys);           // [c, b]: no a
            // Instead, read the last entry, then step back while there is an entry before:
            keys.clear();
            try (DBIterator it = db.iterator()) {
                it.seekToLast();
                if (it.hasNext()) {
                    keys.add(asString(it.peekNext().getKey()));
                    while (it.hasPrev()) {
                        keys.add(asString(it.prev().getKey()));
                    }
                }
            }
            System.out.println("backwards: " + keys);                      // [c, b, a]
        }

        // createIfMissing defaults to true here, as in iq80's API (C++ LevelDB and RocksDB
        // default to false). To open only a database that exists, turn it off:
        File missing = new File(dir, "no-such-db");
        try (DB db = factory.open(missing, new Options().createIfMissing(false))) {
            System.out.println(asString(db.get(bytes("a"))));
        } catch (DatabaseNotFoundException e) {                           // a DBOpenException
            System.out.println(e.getMessage());    // Invalid argument: DIR: does not exist (...)
            System.out.println("created: " + missing.exists());           // created: false
        }
    }
}
