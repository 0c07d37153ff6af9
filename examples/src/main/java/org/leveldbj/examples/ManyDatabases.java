package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.*;

/**
 * Many databases in one process: one pool of background threads
 * ({@code LevelDbFactory.newBackgroundPool}, {@code Options.backgroundPool}), one limit on their
 * memtables' memory ({@code newWriteBufferBudget}, {@code Options.writeBufferBudget}) and one
 * block cache ({@code newCache}, {@code Options.cache}) shared by all of them, so that a hundred
 * databases run two background threads and hold at most a few megabytes of memtables.
 *
 * <p>Run: {@code ManyDatabases [directory]}; without a directory it works in a temporary one.
 */
public final class ManyDatabases {
    private static final int DATABASES = 100;
    private static final int KEYS = 500;

    private ManyDatabases() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, ManyDatabases::run);
    }

    static void run(File dir) throws IOException {
        BackgroundPool pool = newBackgroundPool(2);                 // 2 threads flush and compact for all
        WriteBufferBudget budget = newWriteBufferBudget(4 << 20);   // 4 MiB of memtables in all
        Options options = new Options().backgroundPool(pool).writeBufferBudget(budget)
                .cache(newCache(8 << 20));                          // 8 MiB of blocks in all
        List<DB> dbs = new ArrayList<>();
        try {
            for (int i = 0; i < DATABASES; i++) {
                dbs.add(factory.open(new File(dir, "db" + i), options));
            }
            System.out.println("databases on the pool: " + pool.databases());   // 100
            for (DB db : dbs) {
                for (int k = 0; k < KEYS; k++) {
                    db.put(bytes("key" + k), bytes("value " + k + " of a small database"));
                }
            }
            try {
                pool.close();                                        // too early: they still use it
            } catch (IllegalStateException e) {
                System.out.println("closing the pool first fails");
            }
        } finally {
            for (DB db : dbs) {
                db.close();                                          // the databases first...
            }
            pool.close();                                            // ...then the pool
        }
        System.out.println("memtables held after closing: " + budget.usage());  // 0

        readBack(dir, options);
    }

    private static void readBack(File dir, Options options) throws IOException {
        int found = 0;
        for (int i = 0; i < DATABASES; i++) {
            try (DB db = factory.open(new File(dir, "db" + i), new Options(options).backgroundPool(null))) {
                found += db.get(bytes("key" + (KEYS - 1))) != null ? 1 : 0;
            }
        }
        System.out.println("databases holding their last key: " + found);      // 100
    }
}
