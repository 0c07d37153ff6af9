package org.leveldbj.benchmark.rocksdb;

import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.leveldbj.benchmark.PeerDb;
import org.rocksdb.BloomFilter;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/** A RocksDB database behind the {@link DB} interface; see the package description. */
final class RocksDbAdapter extends PeerDb {
    private final RocksDB db;
    private final org.rocksdb.Options options;
    private final LRUCache cache;
    private final BloomFilter filter;
    private final org.rocksdb.WriteOptions asyncWrites = new org.rocksdb.WriteOptions();
    private final org.rocksdb.WriteOptions syncWrites =
            new org.rocksdb.WriteOptions().setSync(true);
    private final org.rocksdb.ReadOptions reads = new org.rocksdb.ReadOptions();

    RocksDbAdapter(RocksDB db, org.rocksdb.Options options, LRUCache cache, BloomFilter filter) {
        super("RocksDB");
        this.db = db;
        this.options = options;
        this.cache = cache;
        this.filter = filter;
    }

    @Override
    public byte[] get(byte[] key) {
        try {
            return db.get(reads, key);
        } catch (RocksDBException e) {
            throw new DBException(e);
        }
    }

    @Override
    public DBIterator iterator() {
        return new RocksDbIterator(db.newIterator(reads));
    }

    @Override
    public WriteBatch createWriteBatch() {
        return new RocksDbWriteBatch();
    }

    @Override
    public Snapshot put(byte[] key, byte[] value, WriteOptions options) {
        try {
            db.put(writeOptions(options), key, value);
            return null;
        } catch (RocksDBException e) {
            throw new DBException(e);
        }
    }

    @Override
    public Snapshot delete(byte[] key, WriteOptions options) {
        try {
            db.delete(writeOptions(options), key);
            return null;
        } catch (RocksDBException e) {
            throw new DBException(e);
        }
    }

    @Override
    public Snapshot write(WriteBatch updates, WriteOptions options) {
        if (!(updates instanceof RocksDbWriteBatch)) {
            throw new IllegalArgumentException("not a batch of this database");
        }
        try {
            db.write(writeOptions(options), ((RocksDbWriteBatch) updates).batch());
            return null;
        } catch (RocksDBException e) {
            throw new DBException(e);
        }
    }

    /** LevelDB property names map to RocksDB's: "leveldb.stats" is "rocksdb.stats". */
    @Override
    public String getProperty(String name) {
        String rocksName = name.startsWith("leveldb.")
                ? "rocksdb." + name.substring("leveldb.".length()) : name;
        try {
            return db.getProperty(rocksName);
        } catch (RocksDBException e) {
            return null;
        }
    }

    @Override
    public void compactRange(byte[] begin, byte[] end) {
        try {
            if (begin == null && end == null) {
                db.compactRange();
            } else {
                db.compactRange(begin, end);
            }
        } catch (RocksDBException e) {
            throw new DBException(e);
        }
    }

    @Override
    public void close() {
        db.close();
        asyncWrites.close();
        syncWrites.close();
        reads.close();
        options.close();
        if (cache != null) {
            cache.close();
        }
        if (filter != null) {
            filter.close();
        }
    }

    private org.rocksdb.WriteOptions writeOptions(WriteOptions options) {
        refuseSnapshot(options);
        return options.sync() ? syncWrites : asyncWrites;
    }

}
