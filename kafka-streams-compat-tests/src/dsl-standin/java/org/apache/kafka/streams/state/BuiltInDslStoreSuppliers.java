package org.apache.kafka.streams.state;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.leveldbj.kafka.streams.LeveldbDslStoreSuppliers;

/**
 * A stand-in for Kafka Streams' class of this name, for timing Kafka's own DSL tests on leveldbj
 * stores ({@code bin/kafka-dsl-timing}): put ahead of the kafka-streams jar on the class path, it
 * makes Kafka's default DSL store suppliers ({@code dsl.store.suppliers.class} defaults to
 * {@link RocksDBDslStoreSuppliers}, and {@code Materialized.StoreType.ROCKS_DB} is {@link #ROCKS_DB})
 * give leveldbj stores, so tests that build a topology without naming a store run unchanged on
 * ours. Tests that name a store themselves ({@code Stores.persistent*}) keep Kafka's.
 *
 * <p>It has the public members of Kafka 4.3.1's class: {@link #ROCKS_DB}, {@link #IN_MEMORY}, the
 * nested {@link RocksDBDslStoreSuppliers} (here every store from {@link LeveldbDslStoreSuppliers})
 * and {@link InMemoryDslStoreSuppliers} (Kafka's in-memory stores, as in Kafka), plus
 * {@link #leveldbjStoresSupplied()}, which counts the stores it has given out, so a run can prove
 * that the stand-in was the class loaded.
 *
 * <p>Not part of any published artifact: {@code bin/kafka-dsl-timing} compiles it into a directory
 * of its own and only that tool's runs see it.
 *
 * <p>Thread safety: stateless apart from the counter, which is atomic.
 */
public class BuiltInDslStoreSuppliers {
    /** The default DSL suppliers, here leveldbj's. */
    public static final DslStoreSuppliers ROCKS_DB = new RocksDBDslStoreSuppliers();
    /** Kafka's in-memory stores. */
    public static final DslStoreSuppliers IN_MEMORY = new InMemoryDslStoreSuppliers();

    private static final AtomicLong SUPPLIED = new AtomicLong();

    /**
     * The number of stores the stand-in's {@link RocksDBDslStoreSuppliers} has supplied in this
     * JVM.
     *
     * @return the count
     */
    public static long leveldbjStoresSupplied() {
        return SUPPLIED.get();
    }

    /** Kafka's name for its default suppliers; here every store is a leveldbj store. */
    public static class RocksDBDslStoreSuppliers implements DslStoreSuppliers {
        private final LeveldbDslStoreSuppliers leveldbj = new LeveldbDslStoreSuppliers();

        /** Made by Kafka Streams from the class name, or once for {@link #ROCKS_DB}. */
        public RocksDBDslStoreSuppliers() {
        }

        @Override
        public void configure(Map<String, ?> configs) {
            leveldbj.configure(configs);
        }

        @Override
        public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
            SUPPLIED.incrementAndGet();
            return leveldbj.keyValueStore(params);
        }

        @Override
        public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
            SUPPLIED.incrementAndGet();
            return leveldbj.windowStore(params);
        }

        @Override
        public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
            SUPPLIED.incrementAndGet();
            return leveldbj.sessionStore(params);
        }
    }

    /** Kafka's in-memory stores, from Kafka's {@link Stores} factory. */
    public static class InMemoryDslStoreSuppliers implements DslStoreSuppliers {
        /** Made by Kafka Streams from the class name, or once for {@link #IN_MEMORY}. */
        public InMemoryDslStoreSuppliers() {
        }

        @Override
        public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
            return Stores.inMemoryKeyValueStore(params.name());
        }

        @Override
        public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
            return Stores.inMemoryWindowStore(params.name(), params.retentionPeriod(), params.windowSize(),
                    params.retainDuplicates());
        }

        @Override
        public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
            return Stores.inMemorySessionStore(params.name(), params.retentionPeriod());
        }
    }
}
