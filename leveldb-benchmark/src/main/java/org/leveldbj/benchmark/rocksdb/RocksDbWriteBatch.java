package org.leveldbj.benchmark.rocksdb;

import org.iq80.leveldb.DBException;
import org.iq80.leveldb.WriteBatch;
import org.rocksdb.RocksDBException;

/** A RocksDB write batch behind the {@link WriteBatch} interface. */
final class RocksDbWriteBatch implements WriteBatch {
    private final org.rocksdb.WriteBatch batch = new org.rocksdb.WriteBatch();

    org.rocksdb.WriteBatch batch() {
        return batch;
    }

    @Override
    public WriteBatch put(byte[] key, byte[] value) {
        try {
            batch.put(key, value);
        } catch (RocksDBException e) {
            throw new DBException(e);
        }
        return this;
    }

    @Override
    public WriteBatch delete(byte[] key) {
        try {
            batch.delete(key);
        } catch (RocksDBException e) {
            throw new DBException(e);
        }
        return this;
    }

    @Override
    public int size() {
        return batch.count();
    }

    @Override
    public void close() {
        batch.close();
    }
}
