package org.leveldbj.kafka.streams;

import java.util.Map;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.iq80.leveldb.Options;

/**
 * Sets the {@link Options} of every leveldbj store of a Kafka Streams application, as Kafka's
 * {@code RocksDBConfigSetter} does for RocksDB stores. Name the implementing class (it needs a
 * public no-argument constructor) in the application's configuration under
 * {@value #CONFIG}; it is called once per store, before the store opens its database.
 *
 * <p>Example: a larger write buffer, a bloom filter, zstd, and one block cache shared by every
 * store of the application (without {@code cache(...)}, each store has a cache of its own of
 * {@code cacheSize} bytes):
 * <pre>{@code
 * public class MyLeveldbConfig implements LeveldbConfigSetter {
 *     private static final Cache SHARED = LevelDbFactory.newCache(64 << 20);
 *
 *     public void setConfig(String storeName, Options options, Map<String, Object> configs) {
 *         options.writeBufferSize(16 << 20).filterPolicy(FilterPolicy.bloom(10))
 *                 .compressionType(CompressionType.ZSTD).cache(SHARED);
 *     }
 * }
 * }</pre>
 *
 * <p>Thread safety: Kafka Streams opens stores from its stream threads; an implementation that
 * keeps state must be safe for concurrent calls.
 */
public interface LeveldbConfigSetter {
    /** The configuration key naming the implementing class. */
    String CONFIG = "leveldb.config.setter";

    /**
     * Adjusts a store's options before its database opens.
     *
     * @param storeName the store's name
     * @param options the options, with the store's defaults set; change them in place
     * @param configs the application's configuration
     */
    void setConfig(String storeName, Options options, Map<String, Object> configs);

    /**
     * Releases what {@link #setConfig} made for a store, after its database closed.
     *
     * @param storeName the store's name
     * @param options the options the store was opened with
     */
    default void close(String storeName, Options options) {
    }

    /**
     * The config setter an application's configuration names under {@value #CONFIG}: an
     * instance, a class, or a class name.
     *
     * @param configs the application's configuration
     * @return a new config setter, or {@code null} when none is named
     * @throws ProcessorStateException if the setting names no usable class
     */
    static LeveldbConfigSetter from(Map<String, Object> configs) {
        Object setting = configs.get(CONFIG);
        if (setting == null) {
            return null;
        }
        try {
            if (setting instanceof LeveldbConfigSetter s) {
                return s;
            }
            ClassLoader loader = Thread.currentThread().getContextClassLoader() != null
                    ? Thread.currentThread().getContextClassLoader() : LeveldbConfigSetter.class.getClassLoader();
            Class<?> type = setting instanceof Class<?> c ? c : Class.forName(setting.toString().trim(), true, loader);
            return (LeveldbConfigSetter) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new ProcessorStateException(CONFIG + " = " + setting
                    + ": not a LeveldbConfigSetter with a public no-argument constructor (" + e + ")", e);
        }
    }
}
