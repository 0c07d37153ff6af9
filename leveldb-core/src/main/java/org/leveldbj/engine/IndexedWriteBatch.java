package org.leveldbj.engine;

import java.util.Collection;
import java.util.TreeMap;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatchWithIndex;

/**
 * The engine's {@link WriteBatchWithIndex}: a {@link WriteBatchImpl} (what {@code DB.write}
 * writes) and, beside it, an ordered index from each key written to its newest value, or to
 * {@link #TOMBSTONE} for a deletion. The index is ordered by the database's user comparator, so
 * that it merges with the database's iterators ({@link org.leveldbj.iterator.OverlayIterator}).
 *
 * <p>Memory: the encoding plus one copy of each distinct key and its newest value (a
 * {@link TreeMap} node each).
 *
 * <p>Thread safety: confined to one thread, as every batch. Lifetime: {@link #close()} closes
 * the encoding too; reads and writes of a closed batch throw {@link DBException}.
 */
public final class IndexedWriteBatch implements WriteBatchWithIndex {
    /** The index's value for a deleted key; compared by identity. */
    static final byte[] TOMBSTONE = new byte[0];

    private final DbImpl db;
    private final WriteBatchImpl batch = new WriteBatchImpl();
    private final TreeMap<byte[], byte[]> index;
    private boolean closed;

    IndexedWriteBatch(DbImpl db) {
        this.db = db;
        this.index = new TreeMap<>(db.userComparator()::compare);
    }

    @Override
    public IndexedWriteBatch put(byte[] key, byte[] value) {
        batch.put(key, value);
        index.put(key.clone(), value.clone());
        return this;
    }

    @Override
    public IndexedWriteBatch delete(byte[] key) {
        batch.delete(key);
        index.put(key.clone(), TOMBSTONE);
        return this;
    }

    @Override
    public byte[] get(DB db, ReadOptions options, byte[] key) {
        Arguments.checkNotNull(options, "options");
        Arguments.checkNotNull(key, "key");
        checkReadable(db);
        byte[] v = index.get(key);
        if (v != null) {
            return v == TOMBSTONE ? null : v.clone();
        }
        return this.db.get(key, options);
    }

    @Override
    public DBIterator iterator(DB db, ReadOptions options) {
        Arguments.checkNotNull(options, "options");
        checkReadable(db);
        return this.db.overlayIterator(options, index, null);
    }

    /**
     * The newest write of a key in this batch, without reading the database.
     *
     * @param key the key
     * @return the value, {@link #TOMBSTONE} (by identity) for a deletion, or {@code null} when
     *     the batch did not write the key; not a copy
     */
    byte[] lookup(byte[] key) {
        return index.get(key);
    }

    /** The index: each key written and its newest value or {@link #TOMBSTONE}. Not a copy. */
    TreeMap<byte[], byte[]> index() {
        return index;
    }

    /** The distinct keys written, in key order. Not a copy. */
    Collection<byte[]> keys() {
        return index.keySet();
    }

    /** The encoding {@code DB.write} writes. */
    WriteBatchImpl batch() {
        return batch;
    }

    @Override
    public int size() {
        return batch.size();
    }

    @Override
    public long approximateSize() {
        return batch.approximateSize();
    }

    @Override
    public void close() {
        closed = true;
        batch.close();
    }

    private void checkReadable(DB db) {
        Arguments.checkNotNull(db, "db");
        if (db != this.db) {
            throw new InvalidArgumentException("Invalid argument: the batch was created by " + this.db
                    + ", not by " + db);
        }
        if (closed) {
            throw new DBException("write batch is closed");
        }
    }
}
