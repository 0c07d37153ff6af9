package org.leveldbj.benchmark.rocksdb;

import java.io.File;
import java.io.IOException;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.Options;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * Opens RocksDB databases with the LevelDB options translated: write buffer size, target file
 * size ({@code maxFileSize}), block size and restart interval, block cache capacity, bloom
 * filter bits, compression (none, snappy, zstd), open files, paranoid checks.
 */
public final class RocksDbFactory implements DBFactory {
    /** The factory the runner looks up by name. */
    public static final RocksDbFactory factory = new RocksDbFactory();

    static {
        RocksDB.loadLibrary();
    }

    private RocksDbFactory() {
    }

    /** The version of the RocksDB library that was loaded. */
    public static String version() {
        return RocksDB.rocksdbVersion().toString();
    }

    @Override
    public DB open(File path, Options options) throws IOException {
        org.rocksdb.Options rocks = new org.rocksdb.Options();
        LRUCache cache = null;
        BloomFilter filter = null;
        try {
            rocks.setCreateIfMissing(options.createIfMissing())
                    .setErrorIfExists(options.errorIfExists())
                    .setParanoidChecks(options.paranoidChecks())
                    .setMaxOpenFiles(options.maxOpenFiles())
                    .setWriteBufferSize(options.writeBufferSize())
                    .setTargetFileSizeBase(options.maxFileSize())
                    .setCompressionType(compression(options.compressionType()));
            BlockBasedTableConfig table = new BlockBasedTableConfig()
                    .setBlockSize(options.blockSize())
                    .setBlockRestartInterval(options.blockRestartInterval());
            if (options.cacheSize() > 0) {
                cache = new LRUCache(options.cacheSize());
                table.setBlockCache(cache);
            }
            if (options.filterPolicy() != null) {
                filter = new BloomFilter(options.filterPolicy().bitsPerKey(), false);
                table.setFilterPolicy(filter);
            }
            rocks.setTableFormatConfig(table);
            RocksDB db = RocksDB.open(rocks, path.getPath());
            return new RocksDbAdapter(db, rocks, cache, filter);
        } catch (RocksDBException | RuntimeException e) {
            rocks.close();
            if (cache != null) {
                cache.close();
            }
            if (filter != null) {
                filter.close();
            }
            throw new IOException("cannot open " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void destroy(File path, Options options) throws IOException {
        try (org.rocksdb.Options rocks = new org.rocksdb.Options()) {
            RocksDB.destroyDB(path.getPath(), rocks);
        } catch (RocksDBException e) {
            throw new IOException("cannot destroy " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void repair(File path, Options options) throws IOException {
        throw new UnsupportedOperationException("repair through the RocksDB adapter");
    }

    private static org.rocksdb.CompressionType compression(CompressionType type) {
        switch (type) {
            case NONE:
                return org.rocksdb.CompressionType.NO_COMPRESSION;
            case ZSTD:
                return org.rocksdb.CompressionType.ZSTD_COMPRESSION;
            default:
                return org.rocksdb.CompressionType.SNAPPY_COMPRESSION;
        }
    }

    @Override
    public String toString() {
        return "RocksDB " + version();
    }
}
