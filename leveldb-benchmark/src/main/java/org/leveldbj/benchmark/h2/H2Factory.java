package org.leveldbj.benchmark.h2;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.h2.engine.Constants;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.Options;

/** Opens an MVStore with the settings the package documentation states. */
public final class H2Factory implements DBFactory {
    /** The factory the runner looks up by name. */
    public static final H2Factory factory = new H2Factory();

    /** The store's file in the database directory. */
    static final String FILE_NAME = "data.mv.db";
    /** The page cache when the options leave it to the default: LevelDB's 8 MiB. */
    static final int DEFAULT_CACHE_MB = 8;

    private H2Factory() {
    }

    @Override
    public DB open(File path, Options options) throws IOException {
        Path dir = path.toPath();
        Path file = dir.resolve(FILE_NAME);
        if (Files.exists(file)) {
            if (options.errorIfExists()) {
                throw new IOException(file + " exists (error_if_exists is true)");
            }
        } else if (!options.createIfMissing()) {
            throw new IOException(file + " does not exist (create_if_missing is false)");
        }
        Files.createDirectories(dir);
        MVStore.Builder builder = new MVStore.Builder()
                .fileName(file.toString())
                .cacheSize(cacheMegabytes(options.cacheSize()));
        if (options.compressionType() != CompressionType.NONE) {
            builder.compress();
        }
        try {
            MVStore store = builder.open();
            MVMap<byte[], byte[]> map = store.openMap("leveldb", new MVMap.Builder<byte[], byte[]>()
                    .keyType(BytewiseKeyType.INSTANCE).valueType(BytewiseKeyType.INSTANCE));
            return new H2Adapter(store, map, file);
        } catch (RuntimeException e) {
            throw new IOException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    static int cacheMegabytes(long cacheSize) {
        if (cacheSize <= 0) {
            return DEFAULT_CACHE_MB;
        }
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (cacheSize + (1 << 20) - 1) >> 20));
    }

    @Override
    public void destroy(File path, Options options) throws IOException {
        Files.deleteIfExists(path.toPath().resolve(FILE_NAME));
    }

    @Override
    public void repair(File path, Options options) {
        throw new UnsupportedOperationException("repair through the H2 adapter");
    }

    /** The version of the H2 library that was loaded. */
    public static String version() {
        return Constants.FULL_VERSION;
    }

    @Override
    public String toString() {
        return "H2 MVStore " + version();
    }
}
