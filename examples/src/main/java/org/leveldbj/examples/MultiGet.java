package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.iq80.leveldb.*;

/**
 * Reading many keys at once with {@code ExtendedDB.multiGet}: one call, one consistent state of
 * the database, the values in the order of the keys ({@code null} for a key it does not hold),
 * at a snapshot too. doc/multiget.md's example is this code.
 *
 * <p>Run: {@code MultiGet [directory]}; without a directory it works in a temporary one.
 */
public final class MultiGet {
    private MultiGet() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, MultiGet::run);
    }

    static void run(File dir) throws IOException {
        try (ExtendedDB db = factory.open(new File(dir, "example-db"), new Options())) {
            db.put(bytes("apple"), bytes("red"));
            db.put(bytes("banana"), bytes("yellow"));
            db.put(bytes("cherry"), bytes("dark red"));

            List<byte[]> values = db.multiGet(List.of(bytes("cherry"), bytes("kiwi"), bytes("apple")));
            for (byte[] value : values) {
                System.out.println(value == null ? "(none)" : asString(value));   // dark red, (none), red
            }

            try (Snapshot snapshot = db.getSnapshot()) {
                db.delete(bytes("apple"));
                ReadOptions atSnapshot = new ReadOptions().snapshot(snapshot);
                List<byte[]> then = db.multiGet(List.of(bytes("apple"), bytes("banana")), atSnapshot);
                System.out.println(asString(then.get(0)) + ", " + asString(then.get(1)));   // red, yellow
            }
            System.out.println(db.multiGet(List.of(bytes("apple"))).get(0));      // null
        }
    }
}
