package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.util.Map;
import org.iq80.leveldb.*;

/**
 * Scanning the keys that share a prefix with {@code ExtendedDB.prefixIterator}, and a key range
 * with {@code ReadOptions.iterateLowerBound}/{@code iterateUpperBound}: the iterator stops at the
 * end of the prefix or range in both directions, so no check of each key is needed.
 * doc/prefix.md's example is this code.
 *
 * <p>Run: {@code PrefixScan [directory]}; without a directory it works in a temporary one.
 */
public final class PrefixScan {
    private PrefixScan() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, PrefixScan::run);
    }

    static void run(File dir) throws IOException {
        try (ExtendedDB db = factory.open(new File(dir, "example-db"), new Options())) {
            db.put(bytes("order:1:item:1"), bytes("pen"));
            db.put(bytes("order:1:item:2"), bytes("ink"));
            db.put(bytes("order:2:item:1"), bytes("paper"));
            db.put(bytes("user:1"), bytes("ann"));

            try (DBIterator it = db.prefixIterator(bytes("order:1:"), new ReadOptions())) {
                for (it.seekToFirst(); it.hasNext(); ) {
                    Map.Entry<byte[], byte[]> e = it.next();
                    System.out.println(asString(e.getKey()) + " = " + asString(e.getValue()));   // the two items of order 1
                }
                it.seekToLast();
                System.out.println("last: " + asString(it.peekNext().getKey()));      // order:1:item:2
            }

            ReadOptions range = new ReadOptions()
                    .iterateLowerBound(bytes("order:2"))      // inclusive
                    .iterateUpperBound(bytes("user:2"));      // exclusive
            try (DBIterator it = db.iterator(range)) {
                for (it.seekToLast(); it.hasNext(); it.prev()) {
                    System.out.println("backwards: " + asString(it.peekNext().getKey()));   // user:1, order:2:item:1
                    if (!it.hasPrev()) {
                        break;
                    }
                }
            }
        }
    }
}
