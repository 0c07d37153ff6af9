package org.leveldbj.engine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.Transaction;
import org.iq80.leveldb.WriteOptions;

/**
 * The engine's {@link Transaction}: an {@link IndexedWriteBatch} for its writes, the set of keys
 * it read, and the snapshot it reads at. {@link #commit(WriteOptions)} hands the batch to the
 * write queue with a {@link ConflictCheck} over the keys read and written, which the queue's
 * leader runs just before numbering the batch; a transaction that wrote nothing commits without
 * a check (it read one consistent snapshot, so it is serializable at its beginning).
 *
 * <p>Thread safety: confined to one thread. Lifetime: holds a snapshot (its own, or the
 * caller's, which the caller keeps open) until it ends; see {@link Transaction}.
 */
public final class OptimisticTransaction implements Transaction {
    /** The message of the exception a finished transaction throws. */
    static final String FINISHED_MESSAGE = "transaction is finished";

    private final DbImpl db;
    private final Snapshot snapshot;
    /** Whether {@link #snapshot} is this transaction's own, closed when it ends. */
    private final boolean ownSnapshot;
    private final long beginSequence;
    private final ReadOptions readOptions;
    private final IndexedWriteBatch writes;
    private final TreeSet<byte[]> reads;
    private final List<DBIterator> iterators = new ArrayList<>();
    private boolean finished;
    private long commitSequence = -1;

    OptimisticTransaction(DbImpl db, Snapshot snapshot, boolean ownSnapshot, long beginSequence) {
        this.db = db;
        this.snapshot = snapshot;
        this.ownSnapshot = ownSnapshot;
        this.beginSequence = beginSequence;
        this.readOptions = new ReadOptions().snapshot(snapshot);
        this.writes = new IndexedWriteBatch(db);
        this.reads = new TreeSet<>(db.userComparator()::compare);
    }

    @Override
    public byte[] get(byte[] key) {
        Arguments.checkNotNull(key, "key");
        checkActive();
        byte[] own = writes.lookup(key);
        if (own != null) {
            return own == IndexedWriteBatch.TOMBSTONE ? null : own.clone();
        }
        reads.add(key.clone());
        return db.get(key, readOptions);
    }

    @Override
    public OptimisticTransaction put(byte[] key, byte[] value) {
        checkActive();
        writes.put(key, value);
        return this;
    }

    @Override
    public OptimisticTransaction delete(byte[] key) {
        checkActive();
        writes.delete(key);
        return this;
    }

    @Override
    public DBIterator iterator() {
        checkActive();
        DBIterator it = db.overlayIterator(readOptions, writes.index(), this::readByIterator);
        iterators.add(it);
        return it;
    }

    /** Notes a key an iterator showed, for the check. */
    private void readByIterator(ByteBuffer key) {
        byte[] k = new byte[key.remaining()];
        key.get(key.position(), k);
        if (writes.lookup(k) == null) {
            reads.add(k);
        }
    }

    @Override
    public long beginSequence() {
        return beginSequence;
    }

    /**
     * The sequence number of the first write of the committed batch.
     *
     * @return the sequence number, or {@code -1} when the transaction did not commit a write
     */
    public long commitSequence() {
        return commitSequence;
    }

    @Override
    public void commit() {
        commit(new WriteOptions());
    }

    @Override
    public void commit(WriteOptions options) {
        Arguments.checkNotNull(options, "options");
        checkActive();
        try {
            if (writes.size() > 0) {
                db.checkSnapshotOpen(snapshot);
                commitSequence = db.writeChecked(writes.batch(), options,
                        new ConflictCheck(reads, writes.keys(), beginSequence));
            }
        } finally {
            end();
        }
    }

    @Override
    public void rollback() {
        checkActive();
        end();
    }

    @Override
    public void close() {
        if (!finished) {
            end();
        }
    }

    private void end() {
        finished = true;
        for (DBIterator it : iterators) {
            try {
                it.close();
            } catch (java.io.IOException | RuntimeException e) {
                // Closing an iterator releases memory only; nothing to report.
            }
        }
        iterators.clear();
        writes.close();
        if (ownSnapshot) {
            try {
                snapshot.close();
            } catch (java.io.IOException e) {
                throw new DBException(e);
            }
        }
    }

    private void checkActive() {
        if (finished) {
            throw new DBException(FINISHED_MESSAGE);
        }
    }

    @Override
    public String toString() {
        return "transaction at sequence " + beginSequence + " of " + db;
    }
}
