package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import org.iq80.leveldb.*;

/**
 * Bulk loading: sorted entries written into table files with a {@code TableWriter}
 * ({@code ExtendedDB.newTableWriter}), then added to the live database with one
 * {@code ExtendedDB.ingest}: atomically, newer than every earlier write, unseen by earlier
 * snapshots. A file that overlaps nothing goes in as it is; one that overlaps existing keys is
 * rewritten with a new sequence number.
 *
 * <p>Run: {@code BulkLoad [directory]}; without a directory it works in a temporary one.
 */
public final class BulkLoad {
    private BulkLoad() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, BulkLoad::run);
    }

    static void run(File dir) throws IOException {
        try (ExtendedDB db = factory.open(new File(dir, "db"), new Options())) {
            db.put(bytes("user:00042"), bytes("old"));
            Snapshot before = db.getSnapshot();

            File part1 = new File(dir, "part1.sst");                 // keys in increasing order
            try (TableWriter writer = db.newTableWriter(part1)) {
                for (int i = 0; i < 50_000; i++) {
                    writer.put(bytes(String.format("user:%05d", i)), bytes("profile " + i));
                }
                writer.delete(bytes("user:99999"));                  // deletions too
                TableFileInfo info = writer.finish();
                System.out.println("written: " + info.entries() + " entries");   // 50001
            }
            File part2 = new File(dir, "part2.sst");
            try (TableWriter writer = db.newTableWriter(part2)) {
                writer.put(bytes("zone:1"), bytes("a"));
                try {
                    writer.put(bytes("zone:0"), bytes("b"));         // not after zone:1
                } catch (InvalidArgumentException e) {
                    System.out.println("refused: a key out of order");
                }
                writer.finish();
            }

            db.ingest(part1, part2);                                 // both, or neither
            System.out.println("user:00042 = " + asString(db.get(bytes("user:00042"))));  // profile 42
            System.out.println("before the ingest: "
                    + asString(db.get(bytes("user:00042"), new ReadOptions().snapshot(before))));  // old
            before.close();
        }
    }
}
