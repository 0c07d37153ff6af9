package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.ForwardingWritableFile;
import org.leveldbj.testing.MemEnv;

/**
 * A memtable flush that the database's close interrupts leaves no table behind. The flush is not
 * recorded (its log is replayed at the next open), and a table file outside the MANIFEST whose
 * number the MANIFEST has not yet handed out would be given that number again by the next
 * program to open the directory: goleveldb names its table {@code .ldb} beside our {@code .sst},
 * counts the number twice and refuses to open ("file missing").
 */
class CloseDuringFlushTest {
    private final MemEnv mem = new MemEnv();
    private final File dir = new File("/db");

    /** Holds the first append to a table file until released. */
    private static final class HoldingEnv extends ForwardingEnv {
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final AtomicBoolean held = new AtomicBoolean();

        HoldingEnv(Env target) {
            super(target);
        }

        @Override
        public WritableFile newWritableFile(Path file) throws IOException {
            WritableFile out = super.newWritableFile(file);
            if (!file.getFileName().toString().endsWith(".sst")) {
                return out;
            }
            return new ForwardingWritableFile(file, out) {
                @Override
                public void append(ByteBuffer data) throws IOException {
                    if (held.compareAndSet(false, true)) {
                        holding.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IOException("interrupted", e);
                        }
                    }
                    super.append(data);
                }
            };
        }
    }

    private List<String> tables() throws IOException {
        return DbTestSupport.tables(mem, dir.toPath());
    }

    @Test
    void anInterruptedFlushLeavesNoTable() throws Exception {
        HoldingEnv env = new HoldingEnv(mem);
        DbImpl db = DbImpl.open(dir.toPath(), new Options().env(env).writeBufferSize(10_000));
        // About ten of these fill a memtable: the eleventh starts the flush, and the last two
        // stay far from filling the next one (which would wait for the held flush).
        int written = 13;
        for (int i = 0; i < written; i++) {
            db.put(bytes("key" + i), value(i));
        }
        assertTrue(env.holding.await(10, TimeUnit.SECONDS), "no flush started");
        CompletableFuture<Void> closing = CompletableFuture.runAsync(db::close);
        // close() marks the database closed, then waits for the flush in progress.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!isClosed(db) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        env.release.countDown();
        closing.get(10, TimeUnit.SECONDS);
        assertEquals(List.of(), tables(), "the flush was not recorded: its table is gone");

        try (DB reopened = LevelDbFactory.factory.open(dir, new Options().env(mem))) {
            for (int i = 0; i < written; i++) {
                assertArrayEquals(value(i), reopened.get(bytes("key" + i)), "key" + i);
            }
        }
    }

    private static byte[] value(int i) {
        return bytes(i + "x".repeat(1000));
    }

    private static boolean isClosed(DB db) {
        try {
            db.get(bytes("key0"));
            return false;
        } catch (DBException e) {
            return true;
        }
    }
}
