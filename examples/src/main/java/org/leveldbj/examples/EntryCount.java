package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import org.iq80.leveldb.*;

/**
 * About how many entries a database holds, without reading it: {@code
 * ExtendedDB.approximateNumEntries()}, or the property {@code leveldb.approximate-num-entries}
 * on any {@code DB}. Keys minus deletions, as the memtables and the tables counted them: a key
 * counts once however many versions of it wait for a compaction.
 * doc/entry-count.md's example is this code.
 *
 * <p>Run: {@code EntryCount [directory]}; without a directory it works in a temporary one.
 */
public final class EntryCount {
    private EntryCount() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, EntryCount::run);
    }

    static void run(File dir) throws IOException {
        try (ExtendedDB db = factory.open(new File(dir, "example-db"), new Options())) {
            for (int i = 0; i < 1000; i++) {
                db.put(bytes("key" + i), bytes("value" + i));
            }
            System.out.println(db.approximateNumEntries());                          // 1000

            for (int i = 0; i < 1000; i += 2) {
                db.delete(bytes("key" + i));
            }
            System.out.println(db.approximateNumEntries());                          // 500: keys minus deletions
            db.flushMemTable();
            System.out.println(db.getProperty("leveldb.approximate-num-entries"));   // 500, from the table's counts

            for (int round = 0; round < 3; round++) {
                for (int i = 1; i < 1000; i += 2) {
                    db.put(bytes("key" + i), bytes("again" + round));                // more versions of each
                }
            }
            System.out.println(db.approximateNumEntries());                          // 500: each key once
            db.compactRange(null, null);
            System.out.println(db.approximateNumEntries());                          // 500
        }
    }
}
