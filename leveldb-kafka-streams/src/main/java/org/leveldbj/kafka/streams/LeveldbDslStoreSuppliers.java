package org.leveldbj.kafka.streams;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.streams.DslStoreFormat;
import org.apache.kafka.streams.kstream.EmitStrategy;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Every store of Kafka Streams' DSL on leveldbj, with one line of configuration (Kafka 3.7's
 * {@code dsl.store.suppliers.class}, KIP-954):
 * <pre>{@code
 * props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, LeveldbDslStoreSuppliers.class);
 * }</pre>
 * Tables (source, global, aggregated, joined), foreign-key and table-table joins,
 * {@code cogroup}, counts, reductions and aggregations, tumbling, hopping and sliding windows,
 * session windows, emit-on-window-close windows and sessions, and stream-stream joins (their
 * window stores with duplicates kept, and the outer join's shared store) then keep their state
 * in leveldbj stores, in the format the DSL asks for ({@code dsl.store.format}: timestamped by
 * default, or with headers).
 *
 * <p>What Kafka Streams 4.3.1 does not build through the suppliers, and so stays as it is:
 * <ul>
 *   <li>versioned tables: name the supplier,
 *       {@code Materialized.as(LeveldbStores.persistentVersionedKeyValueStore(name, history))};</li>
 *   <li>the buffer of {@code suppress()}: always Kafka's in-memory buffer;</li>
 *   <li>the buffer of a stream-table join with a grace period: always a RocksDB store (no
 *       workaround but to join without a grace period).</li>
 * </ul>
 *
 * <p>Emit-on-window-close windows get the same window store as other windows (Kafka's RocksDB
 * suppliers give them a time-ordered store): windows close in the order of their segments
 * ({@link WindowBytesStoreSupplier#segmentIntervalMs()}), key by key within a segment, rather
 * than strictly by time; each key's windows still close in time order. The DSL's default
 * retention is the window size (or inactivity gap) plus the grace period, and a store that expires
 * exactly at its retention would drop a window (or hide a session from the query of closed
 * sessions) at the stream time at which it closes, or soon after, so that its final result would
 * never be emitted. So, as Kafka's time-ordered RocksDB stores for these aggregations do: their
 * window stores keep windows one millisecond longer (a window starting at
 * {@code streamTime - retention} is kept; the supplier's retention period is one millisecond more
 * than asked), and their session stores answer the query of closed sessions
 * ({@code findSessions(earliestSessionEndTime, latestSessionEndTime)}) from every segment not
 * yet removed (see {@link LeveldbSessionStore}).
 *
 * <p>Thread safety: stateless.
 */
public class LeveldbDslStoreSuppliers implements DslStoreSuppliers {
    /** Used by Kafka Streams, which makes one instance from the class name. */
    public LeveldbDslStoreSuppliers() {
    }

    @Override
    public void configure(Map<String, ?> configs) {
        // nothing to configure: the stores read leveldb.config.setter themselves
    }

    @Override
    public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
        DslStoreFormat format = params.dslStoreFormat();
        if (format == DslStoreFormat.HEADERS) {
            return LeveldbStores.persistentTimestampedKeyValueStoreWithHeaders(params.name());
        }
        return format == DslStoreFormat.PLAIN ? LeveldbStores.persistentKeyValueStore(params.name())
                : LeveldbStores.persistentTimestampedKeyValueStore(params.name());
    }

    @Override
    public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
        DslStoreFormat format = params.dslStoreFormat();
        Duration retention = windowRetention(params.retentionPeriod(), params.emitStrategy());
        if (format == DslStoreFormat.HEADERS) {
            return LeveldbStores.persistentTimestampedWindowStoreWithHeaders(params.name(), retention,
                    params.windowSize(), params.retainDuplicates());
        }
        return format == DslStoreFormat.PLAIN
                ? LeveldbStores.persistentWindowStore(params.name(), retention, params.windowSize(),
                        params.retainDuplicates())
                : LeveldbStores.persistentTimestampedWindowStore(params.name(), retention,
                        params.windowSize(), params.retainDuplicates());
    }

    @Override
    public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
        return LeveldbSessionBytesStoreSupplier.create(params.name(), params.retentionPeriod(),
                params.storeFormat() == DslStoreFormat.HEADERS, onWindowClose(params.emitStrategy()));
    }

    private static boolean onWindowClose(EmitStrategy emit) {
        return emit != null && emit.type() == EmitStrategy.StrategyType.ON_WINDOW_CLOSE;
    }

    /**
     * The retention a window store gets: the DSL's, or for emit-on-window-close that plus one
     * millisecond (see the class comment), at most {@code Long.MAX_VALUE} ms.
     */
    static Duration windowRetention(Duration asked, EmitStrategy emit) {
        if (!onWindowClose(emit) || asked.isNegative()) {
            return asked; // a negative one is refused by the store's supplier, with Kafka's message
        }
        long ms;
        try {
            ms = asked.toMillis();
        } catch (ArithmeticException e) {
            return asked; // not representable in milliseconds: refused by the store's supplier
        }
        return Duration.ofMillis(ms == Long.MAX_VALUE ? ms : ms + 1);
    }
}
