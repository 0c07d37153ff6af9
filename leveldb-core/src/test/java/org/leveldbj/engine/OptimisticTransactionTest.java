package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.Transaction;
import org.iq80.leveldb.TransactionConflictException;
import org.iq80.leveldb.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;

/** What an optimistic transaction reads, writes, and when its commit conflicts. */
class OptimisticTransactionTest {
    private final MemEnv env = new MemEnv();
    private ExtendedDB db;

    @BeforeEach
    void open() throws IOException {
        db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env).writeBufferSize(10_000));
    }

    @AfterEach
    void close() {
        db.close();
    }

    @Test
    void readsItsOwnWritesOverItsSnapshotAndCommitsAtomically() {
        db.put(b("a"), b("1"));
        db.put(b("b"), b("2"));
        try (Transaction txn = db.beginTransaction()) {
            txn.put(b("a"), b("10")).delete(b("b")).put(b("c"), b("3"));
            assertArrayEquals(b("10"), txn.get(b("a")));
            assertNull(txn.get(b("b")));
            assertArrayEquals(b("3"), txn.get(b("c")));
            assertArrayEquals(b("1"), db.get(b("a")), "nothing is visible before the commit");
            assertNull(db.get(b("c")));
            assertEquals(List.of("a=10", "c=3"), scan(txn));
            txn.commit();
        }
        assertArrayEquals(b("10"), db.get(b("a")));
        assertNull(db.get(b("b")));
        assertArrayEquals(b("3"), db.get(b("c")));
    }

    @Test
    void aKeyReadAndChangedByAPlainPutConflicts() {
        db.put(b("a"), b("1"));
        Transaction txn = db.beginTransaction();
        assertArrayEquals(b("1"), txn.get(b("a")));
        txn.put(b("x"), b("y"));
        db.put(b("a"), b("1")); // the same value: still a change
        TransactionConflictException e = assertThrows(TransactionConflictException.class, txn::commit);
        assertArrayEquals(b("a"), e.key());
        assertTrue(e.getMessage().contains("key 'a'"), e.getMessage());
        assertNull(db.get(b("x")), "nothing of a conflicting transaction is written");
        assertThrows(DBException.class, () -> txn.get(b("a")), "the transaction is finished");
        txn.close();
    }

    @Test
    void aKeyWrittenAndDeletedByOthersConflicts() throws IOException {
        db.put(b("a"), b("1"));
        Transaction txn = db.beginTransaction();
        txn.put(b("a"), b("2"));
        try (WriteBatch batch = db.createWriteBatch()) {
            batch.delete(b("a"));
            db.write(batch);
        }
        assertThrows(TransactionConflictException.class, txn::commit);
        assertNull(db.get(b("a")));
    }

    @Test
    void changesSeenInTablesAndAfterCompactionStillConflict() {
        db.put(b("a"), b("1"));
        Transaction txn = db.beginTransaction();
        assertArrayEquals(b("1"), txn.get(b("a")));
        txn.put(b("b"), b("x"));
        db.delete(b("a"));
        db.flushMemTable();
        db.compactRange(null, null);
        TransactionConflictException e = assertThrows(TransactionConflictException.class, txn::commit);
        assertArrayEquals(b("a"), e.key());
    }

    @Test
    void aChangeToAnotherKeyDoesNotConflict() {
        db.put(b("a"), b("1"));
        try (Transaction txn = db.beginTransaction()) {
            txn.get(b("a"));
            txn.put(b("b"), b("2"));
            db.put(b("c"), b("3"));
            db.flushMemTable();
            txn.commit();
        }
        assertArrayEquals(b("2"), db.get(b("b")));
    }

    @Test
    void theSecondOfTwoTransactionsOnOneKeyLoses() {
        Transaction first = db.beginTransaction();
        Transaction second = db.beginTransaction();
        first.put(b("k"), b("first"));
        second.put(b("k"), b("second"));
        first.commit();
        assertThrows(TransactionConflictException.class, second::commit);
        assertArrayEquals(b("first"), db.get(b("k")));
    }

    @Test
    void keysAnIteratorReturnedAreChecked() throws IOException {
        db.put(b("a"), b("1"));
        db.put(b("b"), b("2"));
        Transaction txn = db.beginTransaction();
        try (DBIterator it = txn.iterator()) {
            it.seekToFirst();
            it.next(); // a
        }
        txn.put(b("z"), b("26"));
        db.put(b("a"), b("changed"));
        assertThrows(TransactionConflictException.class, txn::commit);
    }

    @Test
    void beginningAtASnapshotChecksFromTheSnapshot() throws IOException {
        db.put(b("a"), b("1"));
        Snapshot snapshot = db.getSnapshot();
        db.put(b("a"), b("2"));
        Transaction txn = db.beginTransaction(snapshot);
        assertArrayEquals(b("1"), txn.get(b("a")), "reads at the snapshot");
        txn.put(b("a"), b("3"));
        assertThrows(TransactionConflictException.class, txn::commit, "changed after the snapshot");
        snapshot.close();

        Snapshot closing = db.getSnapshot();
        Transaction late = db.beginTransaction(closing);
        late.put(b("q"), b("1"));
        closing.close();
        DBException e = assertThrows(DBException.class, late::commit);
        assertTrue(e.getMessage().contains("snapshot is closed"), e.getMessage());
        assertNull(db.get(b("q")));
    }

    @Test
    void rollbackDiscardsAndEnds() {
        Transaction txn = db.beginTransaction();
        txn.put(b("a"), b("1"));
        txn.rollback();
        assertNull(db.get(b("a")));
        assertThrows(DBException.class, txn::commit);
        assertThrows(DBException.class, txn::rollback);
        txn.close();
        txn.close();
    }

    @Test
    void aReadOnlyTransactionCommitsWithoutACheck() {
        db.put(b("a"), b("1"));
        try (Transaction txn = db.beginTransaction()) {
            assertArrayEquals(b("1"), txn.get(b("a")));
            db.put(b("a"), b("2"));
            txn.commit(); // serializable at its beginning: it wrote nothing
        }
    }

    @Test
    void aConflictDoesNotFailOtherWritersOrLaterWrites() throws Exception {
        Transaction txn = db.beginTransaction();
        txn.get(b("a"));
        txn.put(b("a"), b("t"));
        db.put(b("a"), b("plain"));
        assertThrows(TransactionConflictException.class, txn::commit);
        db.put(b("b"), b("2")); // not a sticky error
        assertArrayEquals(b("2"), db.get(b("b")));
    }

    @Test
    void aTransactionOfAClosedDatabaseFailsClearlyAndStillCloses() throws IOException {
        Transaction txn = db.beginTransaction();
        txn.put(b("a"), b("1"));
        db.close();
        DBException e = assertThrows(DBException.class, () -> txn.get(b("b")));
        assertTrue(e.getMessage().contains("database is closed"), e.getMessage());
        assertThrows(DBException.class, txn::commit);
        txn.close();
        assertThrows(DBException.class, db::beginTransaction);
        db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env));
        assertNull(db.get(b("a")));
    }

    @Test
    void aReadOnlyDatabaseRefusesTransactions() throws IOException {
        db.put(b("a"), b("1"));
        db.close();
        db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env).readOnly(true));
        assertThrows(org.iq80.leveldb.InvalidArgumentException.class, db::beginTransaction);
    }

    /**
     * Many threads commit transactions on one key at once: writers queue up behind a checked
     * leader; exactly the commits that saw the value before them succeed.
     */
    @Test
    void concurrentIncrementsLoseNoUpdate() throws Exception {
        db.put(b("n"), b("0"));
        int threads = 4;
        int each = 300;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<int[]>> results = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            results.add(pool.submit(() -> {
                start.await();
                int committed = 0;
                int conflicts = 0;
                for (int i = 0; i < each; i++) {
                    try (Transaction txn = db.beginTransaction()) {
                        int n = Integer.parseInt(new String(txn.get(b("n")), StandardCharsets.UTF_8));
                        txn.put(b("n"), b(Integer.toString(n + 1)));
                        db.put(b("noise"), b(Integer.toString(i))); // plain writes in the same queue
                        txn.commit();
                        committed++;
                    } catch (TransactionConflictException e) {
                        conflicts++;
                    }
                }
                return new int[] {committed, conflicts};
            }));
        }
        start.countDown();
        int committed = 0;
        int conflicts = 0;
        for (Future<int[]> f : results) {
            int[] r = f.get();
            committed += r[0];
            conflicts += r[1];
        }
        pool.shutdown();
        assertEquals(threads * each, committed + conflicts);
        assertEquals(committed, Integer.parseInt(new String(db.get(b("n")), StandardCharsets.UTF_8)));
    }

    private static List<String> scan(Transaction txn) {
        List<String> out = new ArrayList<>();
        try (DBIterator it = txn.iterator()) {
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                out.add(new String(e.getKey(), StandardCharsets.UTF_8) + "=" + new String(e.getValue(), StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return out;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
