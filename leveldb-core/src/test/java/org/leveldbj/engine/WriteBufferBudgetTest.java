package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBOpenException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteBufferBudget;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;

/**
 * Databases sharing a write buffer budget: their memtables, each far below its own write buffer
 * size, are flushed once together they pass the budget, the largest first, and also when the
 * largest takes no writes; the budget's usage comes back under its capacity, and a closed
 * database's memtable no longer counts. Waits are polls with a deadline that only a stall trips.
 */
class WriteBufferBudgetTest {
    private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int BIG_BUFFER = 64 << 20;
    private static final long CAPACITY = 256 << 10;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        return bytes(("value " + i + " ").repeat(10));
    }

    private static long tables(DB db) {
        return Long.parseLong(db.getProperty("leveldbj.num-files"));
    }

    private static long memTableBytes(DB db) {
        return Long.parseLong(db.getProperty("leveldbj.memtable-bytes"));
    }

    /** Polls until the condition holds, failing when the watched value stops moving for a while. */
    private static void await(String what, BooleanSupplier done, LongSupplier progress) throws InterruptedException {
        long last = progress.getAsLong();
        long movedAt = System.nanoTime();
        while (!done.getAsBoolean()) {
            long now = progress.getAsLong();
            if (now != last) {
                last = now;
                movedAt = System.nanoTime();
            } else if (System.nanoTime() - movedAt > STALL_NANOS) {
                fail("no progress for 60 s: " + what);
            }
            Thread.sleep(5); // polling, not waiting for something to happen
        }
    }

    private static Options options(MemEnv env, WriteBufferBudget budget) {
        return new Options().env(env).writeBufferSize(BIG_BUFFER).writeBufferBudget(budget)
                .compressionType(CompressionType.NONE);
    }

    /** Write {@code i} of the pattern: database 0 takes two in four, the others one each. */
    private static void put(DB[] dbs, int i) {
        dbs[database(i)].put(bytes("key" + i), value(i));
    }

    private static int database(int i) {
        return i % 4 < 2 ? 0 : i % 4 - 1;
    }

    @Test
    void theBudgetFlushesTheLargestMemTablesAndComesBackUnderItsCapacity() throws Exception {
        MemEnv env = new MemEnv();
        WriteBufferBudget budget = LevelDbFactory.newWriteBufferBudget(CAPACITY);
        DB[] dbs = new DB[3];
        for (int d = 0; d < dbs.length; d++) {
            dbs[d] = LevelDbFactory.factory.open(new File("/db" + d), options(env, budget));
        }
        try {
            // Database 0 takes two writes in four, the others one each: 2 MB in all. The write
            // that first takes the budget past its capacity asks the largest memtable, database
            // 0's; with no more writes, the others are not asked.
            int writes = 12_000;
            int first = 0;
            while (budget.usage() < CAPACITY) {
                put(dbs, first++);
            }
            await("the first flush", () -> tables(dbs[0]) > 0, () -> memTableBytes(dbs[0]));
            assertEquals(0, tables(dbs[1]), "database 1 is not the largest");
            assertEquals(0, tables(dbs[2]), "database 2 is not the largest");
            // Which database flushes next depends on how fast flushes run: while a flush is
            // slow, the memory it holds still counts, and the others may be the largest.
            for (int i = first; i < writes; i++) {
                put(dbs, i);
            }
            await("the budget's usage back under its capacity", () -> budget.usage() < CAPACITY, budget::usage);
            for (int d = 0; d < dbs.length; d++) {
                assertTrue(tables(dbs[d]) > 0, "database " + d + " flushed far below its write buffer size");
                assertTrue(memTableBytes(dbs[d]) < CAPACITY, "database " + d + ": " + memTableBytes(dbs[d]));
            }
            for (int i = 0; i < writes; i++) {
                assertArrayEquals(value(i), dbs[database(i)].get(bytes("key" + i)));
            }
        } finally {
            for (DB db : dbs) {
                db.close();
            }
        }
        assertEquals(0, budget.usage(), "closed databases hold nothing");
    }

    @Test
    void aDatabaseTakingNoWritesIsFlushedWhenItHoldsTheLargestMemTable() throws Exception {
        MemEnv env = new MemEnv();
        WriteBufferBudget budget = LevelDbFactory.newWriteBufferBudget(CAPACITY);
        try (DB idle = LevelDbFactory.factory.open(new File("/idle"), options(env, budget));
             DB busy = LevelDbFactory.factory.open(new File("/busy"), options(env, budget))) {
            int i = 0;
            while (memTableBytes(idle) < CAPACITY * 3 / 4) {
                idle.put(bytes("idle" + i), value(i));
                i++;
            }
            assertEquals(0, tables(idle), "under the budget: no flush");
            int j = 0;
            while (tables(idle) == 0 && budget.usage() < 4 * CAPACITY) {
                busy.put(bytes("busy" + j), value(j)); // until the budget asks the idle one
                j++;
            }
            await("the idle database's memtable written to a table", () -> tables(idle) > 0, () -> memTableBytes(idle));
            await("the idle database's memtable emptied", () -> memTableBytes(idle) < CAPACITY / 4,
                    () -> memTableBytes(idle));
            for (int k = 0; k < i; k++) {
                assertArrayEquals(value(k), idle.get(bytes("idle" + k)));
            }
        }
    }

    @Test
    void aBudgetNotMadeByTheFactoryIsRefused() {
        WriteBufferBudget foreign = new WriteBufferBudget() {
            @Override
            public long capacity() {
                return 1;
            }

            @Override
            public long usage() {
                return 0;
            }
        };
        DBOpenException e = assertThrows(DBOpenException.class,
                () -> LevelDbFactory.factory.open(new File("/db"), new Options().env(new MemEnv()).writeBufferBudget(foreign)));
        assertTrue(e.getMessage().contains("was not made by LevelDbFactory.newWriteBufferBudget"), e.getMessage());
    }
}
