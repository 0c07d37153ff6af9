package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.MemEnv;

/**
 * Objects used after they (or their database) were closed fail with a {@link DBException},
 * every time, and never answer with data; closing the database never waits forever.
 */
class UseAfterCloseTest {
    private final MemEnv env = new MemEnv();
    private final File dir = new File("/db");

    private DB open() throws IOException {
        return LevelDbFactory.factory.open(dir, new Options().env(env).writeBufferSize(10_000));
    }

    @Test
    void readThroughAClosedSnapshotFailsEvenAfterACompaction() throws IOException {
        try (DB db = open()) {
            db.put(bytes("k"), bytes("old"));
            Snapshot snapshot = db.getSnapshot();
            db.put(bytes("k"), bytes("new"));
            snapshot.close();
            db.compactRange(null, null); // may drop "old", which the closed snapshot would read
            ReadOptions at = new ReadOptions().snapshot(snapshot);
            for (int i = 0; i < 3; i++) {
                DBException e = assertThrows(DBException.class, () -> db.get(bytes("k"), at));
                assertTrue(e.getMessage().startsWith("snapshot is closed"), e.getMessage());
                e = assertThrows(DBException.class, () -> db.iterator(at));
                assertTrue(e.getMessage().startsWith("snapshot is closed"), e.getMessage());
            }
            snapshot.close(); // closing again is harmless
        }
    }

    @Test
    void iteratorOfAClosedDatabaseFailsEveryTime() throws IOException {
        DB db = open();
        for (int i = 0; i < 100; i++) {
            db.put(bytes("k" + i), bytes("v" + i));
        }
        DBIterator it = db.iterator();
        it.seekToFirst();
        it.next();
        db.close();
        for (Consumer<DBIterator> use : java.util.List.<Consumer<DBIterator>>of(
                DBIterator::hasNext, DBIterator::next, DBIterator::peekNext, DBIterator::hasPrev,
                DBIterator::seekToFirst, DBIterator::seekToLast, x -> x.seek(bytes("k5")))) {
            for (int i = 0; i < 2; i++) {
                DBException e = assertThrows(DBException.class, () -> use.accept(it));
                assertEquals("database is closed", e.getMessage());
            }
        }
        it.close();
        DBException e = assertThrows(DBException.class, it::hasNext);
        assertEquals("iterator is closed", e.getMessage());
    }

    @Test
    void writingAClosedBatchFailsAndAppliesNothing() throws IOException {
        try (DB db = open()) {
            WriteBatch batch = db.createWriteBatch();
            batch.put(bytes("a"), bytes("1"));
            batch.close();
            DBException e = assertThrows(DBException.class, () -> db.write(batch));
            assertEquals("write batch is closed", e.getMessage());
            assertNull(db.get(bytes("a")));
            e = assertThrows(DBException.class, () -> batch.put(bytes("b"), bytes("2")));
            assertEquals("write batch is closed", e.getMessage());
            e = assertThrows(DBException.class, () -> batch.delete(bytes("b")));
            assertEquals("write batch is closed", e.getMessage());
        }
    }

    @Test
    void closeWakesAWriterStalledOnLevelZeroWhileCompactionsAreSuspended() throws Exception {
        DB db = open();
        db.suspendCompactions();
        // Memtable flushes go on while compactions are suspended, so level 0 fills up until
        // the writer stops for good.
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            byte[] value = new byte[1_000];
            for (int i = 0; ; i++) {
                db.put(bytes(String.format("key%08d", i % 50)), value); // overlapping: flushes stay in level 0
            }
        });
        assertThrows(TimeoutException.class, () -> writer.get(3, TimeUnit.SECONDS), "the writer never stalled");
        assertTimeoutPreemptively(Duration.ofSeconds(20), db::close, "close() waited for the stalled writer");
        ExecutionException e = assertThrows(ExecutionException.class, () -> writer.get(20, TimeUnit.SECONDS));
        assertEquals("database is closed", e.getCause().getMessage());
    }

    @Test
    void compactRangeWaitingForAFlushFailsWhenTheDatabaseCloses() throws Exception {
        DB db = open();
        db.put(bytes("a"), bytes("1"));
        db.suspendCompactions();
        db.close();
        DBException e = assertThrows(DBException.class, () -> db.compactRange(null, null));
        assertEquals("database is closed", e.getMessage());
        assertArrayEquals(bytes("1"), reopenAndGet("a"));
    }

    private byte[] reopenAndGet(String key) throws IOException {
        try (DB db = open()) {
            return db.get(bytes(key));
        }
    }
}
