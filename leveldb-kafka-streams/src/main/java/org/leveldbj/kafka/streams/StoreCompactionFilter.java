package org.leveldbj.kafka.streams;

import org.iq80.leveldb.CompactionFilter;

/**
 * The compaction filter a store's database runs: the store's own filter (a segmented store's
 * expiry) and the one an application's {@link LeveldbConfigSetter} set, if any. Metadata keys
 * (offsets, position, status, kept values) are always kept, whatever either filter would say;
 * the store's filter is shown them (a versioned store learns its durable stream time so), the
 * application's is not. On data keys the store's filter decides first; what it keeps goes to
 * the application's.
 * The application's filter sees database keys as the store lays them out (the namespace byte,
 * then the store's key: a plain key for key-value stores, a segment id and Kafka's key schema
 * for window and session stores).
 *
 * <p>Thread safety: as safe as the two filters.
 */
final class StoreCompactionFilter implements CompactionFilter {
    private final CompactionFilter store;
    private final CompactionFilter application;

    /**
     * @param store the store's filter, or {@code null}
     * @param application the application's filter, or {@code null}
     */
    private StoreCompactionFilter(CompactionFilter store, CompactionFilter application) {
        this.store = store;
        this.application = application;
    }

    /**
     * The filter for a store's database.
     *
     * @param store the store's filter, or {@code null}
     * @param application the application's filter (a different object), or {@code null}
     * @return the combined filter, or {@code null} when neither is set
     */
    static CompactionFilter of(CompactionFilter store, CompactionFilter application) {
        return store == null && application == null ? null : new StoreCompactionFilter(store, application);
    }

    @Override
    public String name() {
        return "leveldbj.kafka-store(" + (store == null ? "" : store.name()) + ","
                + (application == null ? "" : application.name()) + ")";
    }

    @Override
    public Decision filter(int level, byte[] key, byte[] value) {
        if (key.length == 0 || key[0] != StoreDatabase.DATA) {
            if (store != null) {
                store.filter(level, key, value); // seen, never removed
            }
            return Decision.KEEP;
        }
        if (store != null) {
            Decision d = store.filter(level, key, value);
            if (d != Decision.KEEP || application == null) {
                return d;
            }
        }
        return application.filter(level, key, value);
    }
}
