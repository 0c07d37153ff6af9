package org.leveldbj.kafka.streams.compat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedBytesStoreSupplier;
import org.leveldbj.kafka.streams.LeveldbStores;

/**
 * The persistent key-value stores of the patched integration suites ({@code IQv2StoreIntegrationTest},
 * {@code PositionRestartIntegrationTest}, {@code VersionedKeyValueStoreIntegrationTest},
 * {@code IQv2VersionedStoreIntegrationTest}): their patches call these methods where Kafka's files
 * call {@code Stores.persistentKeyValueStore}, {@code Stores.persistentTimestampedKeyValueStore}
 * and {@code Stores.persistentVersionedKeyValueStore}, and the first two keep only their
 * {@code *ROCKS_KV} cases (the ones these methods supply). The system property
 * {@value #PROPERTY} chooses the stores: {@code leveldbj} (the default) or {@code rocksdb}, so
 * one compiled suite runs on ours and, as the control, on Kafka's RocksDB stores.
 */
public final class CompatStores {
    /** The system property that chooses the stores. */
    public static final String PROPERTY = "compat.stores";

    private CompatStores() {
    }

    private static boolean rocksdb() {
        String stores = System.getProperty(PROPERTY, "leveldbj");
        switch (stores) {
            case "leveldbj":
                return false;
            case "rocksdb":
                return true;
            default:
                throw new IllegalStateException(PROPERTY + " is " + stores + ": leveldbj or rocksdb");
        }
    }

    /**
     * @param name the store's name
     * @return ours, or Kafka's RocksDB store under {@code -Dcompat.stores=rocksdb}
     */
    public static KeyValueBytesStoreSupplier persistentKeyValueStore(String name) {
        return rocksdb() ? Stores.persistentKeyValueStore(name) : LeveldbStores.persistentKeyValueStore(name);
    }

    /**
     * @param name the store's name
     * @return ours, or Kafka's timestamped RocksDB store under {@code -Dcompat.stores=rocksdb}
     */
    public static KeyValueBytesStoreSupplier persistentTimestampedKeyValueStore(String name) {
        return rocksdb()
                ? Stores.persistentTimestampedKeyValueStore(name)
                : LeveldbStores.persistentTimestampedKeyValueStore(name);
    }

    /**
     * @param name the store's name
     * @param historyRetention how long old versions stay readable
     * @return ours, or Kafka's RocksDB versioned store under {@code -Dcompat.stores=rocksdb}
     */
    public static VersionedBytesStoreSupplier persistentVersionedKeyValueStore(String name, Duration historyRetention) {
        return rocksdb()
                ? Stores.persistentVersionedKeyValueStore(name, historyRetention)
                : LeveldbStores.persistentVersionedKeyValueStore(name, historyRetention);
    }

    /**
     * @param name the store's name
     * @param historyRetention how long old versions stay readable
     * @param segmentInterval Kafka's segment interval (ours validates it and has no segments)
     * @return ours, or Kafka's RocksDB versioned store under {@code -Dcompat.stores=rocksdb}
     */
    public static VersionedBytesStoreSupplier persistentVersionedKeyValueStore(String name, Duration historyRetention,
                                                                               Duration segmentInterval) {
        return rocksdb()
                ? Stores.persistentVersionedKeyValueStore(name, historyRetention, segmentInterval)
                : LeveldbStores.persistentVersionedKeyValueStore(name, historyRetention, segmentInterval);
    }

    /**
     * The cases of a suite's store enumeration that use the stores above: those named
     * {@code *ROCKS_KV} ({@code ROCKS_KV}, {@code TIME_ROCKS_KV}, {@code GLOBAL_ROCKS_KV},
     * {@code GLOBAL_TIME_ROCKS_KV}); the in-memory, window and session cases test Kafka's stores
     * only and are left to Kafka's own build.
     *
     * @param <E> the enumeration
     * @param all its constants
     * @return the key-value store cases, in order
     */
    public static <E extends Enum<E>> List<E> keyValueCases(E[] all) {
        List<E> cases = new ArrayList<>();
        for (E e : all) {
            if (e.name().endsWith("ROCKS_KV")) {
                cases.add(e);
            }
        }
        return cases;
    }
}
