package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.iq80.leveldb.*;

/**
 * Snapshots and write batches: a batch is applied atomically, and reads through a snapshot see
 * the database as it was when the snapshot was taken, while writes go on. Two accounts move money
 * between them in batches; every snapshot, taken while a writer thread keeps moving it, finds
 * the same total.
 *
 * <p>Run: {@code SnapshotsAndBatches [directory]}; without a directory it works in a temporary one.
 */
public final class SnapshotsAndBatches {
    private static final int TRANSFERS = 1_000;
    private static final int SNAPSHOTS = 200;

    private SnapshotsAndBatches() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, SnapshotsAndBatches::run);
    }

    static void run(File dir) throws Exception {
        try (DB db = factory.open(new File(dir, "accounts-db"), new Options())) {
            db.put(bytes("alice"), bytes("1000"));
            db.put(bytes("bob"), bytes("1000"));

            try (Snapshot before = db.getSnapshot()) {
                transfer(db, "alice", "bob", 300);
                ReadOptions asBefore = new ReadOptions().snapshot(before);
                System.out.println("now: alice " + balance(db, "alice", new ReadOptions())
                        + ", bob " + balance(db, "bob", new ReadOptions()));         // 700, 1300
                System.out.println("in the snapshot: alice " + balance(db, "alice", asBefore)
                        + ", bob " + balance(db, "bob", asBefore));                // 1000, 1000
            }

            // A writer thread moves 1 from bob to alice, again and again, while this thread sums
            // the two balances through a snapshot each time: every sum is 2000.
            ExecutorService executor = Executors.newSingleThreadExecutor();
            try {
                Future<?> writer = executor.submit(() -> {
                    for (int i = 0; i < TRANSFERS; i++) {
                        transfer(db, "bob", "alice", 1);
                    }
                    return null;
                });
                int otherTotals = 0;
                for (int i = 0; i < SNAPSHOTS; i++) {
                    try (Snapshot snapshot = db.getSnapshot()) {
                        ReadOptions at = new ReadOptions().snapshot(snapshot);
                        if (balance(db, "alice", at) + balance(db, "bob", at) != 2000) {
                            otherTotals++;
                        }
                    }
                }
                writer.get();
                System.out.println(SNAPSHOTS + " snapshots during the transfers, totals other than 2000: "
                        + otherTotals);                                              // 0
            } finally {
                executor.shutdown();
            }
            System.out.println("after " + TRANSFERS + " transfers: alice " + balance(db, "alice", new ReadOptions())
                    + ", bob " + balance(db, "bob", new ReadOptions()));             // 1700, 300
        }
    }

    /** Moves {@code amount} from one account to the other: both balances change, or neither. */
    static void transfer(DB db, String from, String to, int amount) throws IOException {
        try (WriteBatch batch = db.createWriteBatch()) {
            batch.put(bytes(from), bytes(Integer.toString(balance(db, from, new ReadOptions()) - amount)));
            batch.put(bytes(to), bytes(Integer.toString(balance(db, to, new ReadOptions()) + amount)));
            db.write(batch);
        }
    }

    static int balance(DB db, String account, ReadOptions options) {
        return Integer.parseInt(asString(db.get(bytes(account), options)));
    }
}
