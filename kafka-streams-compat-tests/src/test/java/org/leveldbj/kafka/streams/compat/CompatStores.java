package org.leveldbj.kafka.streams.compat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;
import org.leveldbj.kafka.streams.LeveldbStores;

/**
 * The persistent stores of the patched integration suites ({@code IQv2StoreIntegrationTest},
 * {@code PositionRestartIntegrationTest}, {@code VersionedKeyValueStoreIntegrationTest},
 * {@code IQv2VersionedStoreIntegrationTest}): their patches call these methods where Kafka's files
 * call {@code Stores.persistentKeyValueStore}, {@code Stores.persistentTimestampedKeyValueStore},
 * {@code Stores.persistentVersionedKeyValueStore} and (in {@code IQv2StoreIntegrationTest})
 * {@code Stores.persistentWindowStore}, {@code Stores.persistentTimestampedWindowStore} and
 * {@code Stores.persistentSessionStore}. {@code IQv2StoreIntegrationTest} keeps only its persistent
 * cases ({@link #persistentCases}), {@code PositionRestartIntegrationTest} only its
 * {@code *ROCKS_KV} cases ({@link #keyValueCases}): the ones these methods supply. The system property
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
     * @param name the store's name
     * @param retentionPeriod how long a window is kept
     * @param windowSize the windows' size
     * @param retainDuplicates whether every put is kept as a new entry
     * @return ours, or Kafka's RocksDB window store under {@code -Dcompat.stores=rocksdb}
     */
    public static WindowBytesStoreSupplier persistentWindowStore(String name, Duration retentionPeriod,
                                                                 Duration windowSize, boolean retainDuplicates) {
        return rocksdb()
                ? Stores.persistentWindowStore(name, retentionPeriod, windowSize, retainDuplicates)
                : LeveldbStores.persistentWindowStore(name, retentionPeriod, windowSize, retainDuplicates);
    }

    /**
     * @param name the store's name
     * @param retentionPeriod how long a window is kept
     * @param windowSize the windows' size
     * @param retainDuplicates whether every put is kept as a new entry
     * @return ours, or Kafka's timestamped RocksDB window store under {@code -Dcompat.stores=rocksdb}
     */
    public static WindowBytesStoreSupplier persistentTimestampedWindowStore(String name, Duration retentionPeriod,
                                                                            Duration windowSize,
                                                                            boolean retainDuplicates) {
        return rocksdb()
                ? Stores.persistentTimestampedWindowStore(name, retentionPeriod, windowSize, retainDuplicates)
                : LeveldbStores.persistentTimestampedWindowStore(name, retentionPeriod, windowSize, retainDuplicates);
    }

    /**
     * @param name the store's name
     * @param retentionPeriod how long a session is kept
     * @return ours, or Kafka's RocksDB session store under {@code -Dcompat.stores=rocksdb}
     */
    public static SessionBytesStoreSupplier persistentSessionStore(String name, Duration retentionPeriod) {
        return rocksdb()
                ? Stores.persistentSessionStore(name, retentionPeriod)
                : LeveldbStores.persistentSessionStore(name, retentionPeriod);
    }

    /**
     * The cases of {@code IQv2StoreIntegrationTest}'s store enumeration that use the stores above:
     * the persistent ones, named {@code *ROCKS_*} ({@code ROCKS_KV}, {@code TIME_ROCKS_KV},
     * {@code GLOBAL_ROCKS_KV}, {@code GLOBAL_TIME_ROCKS_KV}, {@code ROCKS_WINDOW},
     * {@code TIME_ROCKS_WINDOW}, {@code ROCKS_SESSION}); the in-memory cases test Kafka's stores
     * only and are left to Kafka's own build.
     *
     * @param <E> the enumeration
     * @param all its constants
     * @return the persistent store cases, in order
     */
    public static <E extends Enum<E>> List<E> persistentCases(E[] all) {
        List<E> cases = new ArrayList<>();
        for (E e : all) {
            if (e.name().contains("ROCKS_")) {
                cases.add(e);
            }
        }
        return cases;
    }

    /**
     * The group protocols {@code IQv2StoreIntegrationTest} runs a case with: all of them for the
     * key-value cases ({@code *_KV}), only the first ({@code classic}) for the window and session
     * cases. A store does not see the group protocol (it decides which instance gets which task,
     * not what a task's store holds or answers), and the key-value cases already run under both;
     * under both, the 48 window and session invocations took 147 s and 165 s in two runs on a
     * 2-core machine, twice what the 24 under one take.
     *
     * @param <E> the enumeration
     * @param storeCase the case
     * @param all the suite's group protocols, in order
     * @return the ones to run it with
     */
    public static <E extends Enum<E>> List<String> groupProtocols(E storeCase, List<String> all) {
        return storeCase.name().endsWith("_KV") ? all : all.subList(0, 1);
    }

    /**
     * The cases of a suite's store enumeration that use the key-value stores above: those named
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
