package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.*;

/**
 * Optimistic transactions and a batch that reads its own writes. A transaction reads balances,
 * writes new ones and commits; when another writer changed a key it read or wrote meanwhile,
 * the commit fails with {@link TransactionConflictException} and writes nothing, and the
 * transfer is done again. Four threads move money between three accounts at once: the total
 * never changes, and every conflict is seen and retried.
 *
 * <p>Run: {@code Transactions [directory]}; without a directory it works in a temporary one.
 */
public final class Transactions {
    private static final int THREADS = 4;
    private static final int TRANSFERS_PER_THREAD = 250;

    private Transactions() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, Transactions::run);
    }

    static void run(File dir) throws Exception {
        try (ExtendedDB db = factory.open(new File(dir, "bank-db"), new Options())) {
            db.put(bytes("alice"), bytes("1000"));
            db.put(bytes("bob"), bytes("1000"));
            db.put(bytes("carol"), bytes("1000"));

            // A batch that can be read before it is written.
            try (WriteBatchWithIndex batch = db.createWriteBatchWithIndex()) {
                batch.put(bytes("alice"), bytes("900"));
                batch.delete(bytes("carol"));
                ReadOptions now = new ReadOptions();
                System.out.println("batch reads alice " + asString(batch.get(db, now, bytes("alice")))
                        + ", bob " + asString(batch.get(db, now, bytes("bob")))
                        + ", carol " + batch.get(db, now, bytes("carol")));      // 900, 1000, null
                System.out.println("database still has alice " + asString(db.get(bytes("alice"))));  // 1000
            }                                                                    // not written

            // Two transactions on one key: the second to commit loses.
            try (Transaction first = db.beginTransaction();
                 Transaction second = db.beginTransaction()) {
                first.put(bytes("alice"), bytes("1000"));
                second.put(bytes("alice"), bytes("0"));
                first.commit();
                try {
                    second.commit();
                } catch (TransactionConflictException e) {
                    System.out.println("second commit: " + e.getMessage().replaceAll("[0-9]+", "N"));
                }
            }

            AtomicInteger conflicts = new AtomicInteger();
            ExecutorService executor = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<?>> tellers = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    String from = t % 2 == 0 ? "alice" : "bob";
                    String to = t % 3 == 0 ? "carol" : from.equals("alice") ? "bob" : "alice";
                    tellers.add(executor.submit(() -> {
                        for (int i = 0; i < TRANSFERS_PER_THREAD; i++) {
                            conflicts.addAndGet(transfer(db, from, to, 1));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : tellers) {
                    f.get();
                }
            } finally {
                executor.shutdown();
            }
            // Each thread's transfers all happened, once each, whatever the conflicts were.
            System.out.println("after " + THREADS * TRANSFERS_PER_THREAD + " transfers: alice " + balance(db, "alice")
                    + ", bob " + balance(db, "bob") + ", carol " + balance(db, "carol"));   // 750, 750, 1500
            System.err.println("conflicts retried: " + conflicts.get());   // varies from run to run
        }
    }

    /** Moves {@code amount} between two accounts; returns how many conflicts it retried. */
    static int transfer(ExtendedDB db, String from, String to, int amount) {
        int conflicts = 0;
        while (true) {
            try (Transaction txn = db.beginTransaction()) {
                int a = Integer.parseInt(asString(txn.get(bytes(from))));
                int b = Integer.parseInt(asString(txn.get(bytes(to))));
                txn.put(bytes(from), bytes(Integer.toString(a - amount)));
                txn.put(bytes(to), bytes(Integer.toString(b + amount)));
                txn.commit();
                return conflicts;
            } catch (TransactionConflictException e) {
                conflicts++;                     // someone changed a balance meanwhile: again
            }
        }
    }

    static int balance(DB db, String account) {
        return Integer.parseInt(asString(db.get(bytes(account))));
    }
}
