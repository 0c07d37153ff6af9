package org.leveldbj.kafka.streams;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.query.PositionBound;
import org.apache.kafka.streams.query.Query;
import org.apache.kafka.streams.query.QueryConfig;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.state.internals.StoreQueryUtils;
import org.iq80.leveldb.Options;

/**
 * What every leveldbj store of Kafka Streams shares: its one {@link StoreDatabase}, opened by
 * {@link #init} and closed by {@link #close()}; the changelog offsets kept in it
 * ({@link #managesOffsets()}: {@link #commit} writes them, with the position, without a flush;
 * {@link #committedOffset} reads them back); registration for restoration (each batch of
 * changelog records goes to {@link #restoreBatch}); the store's metrics; the position for
 * interactive queries; and the rule that every method of a store but {@link #close()},
 * {@link #name()}, {@link #persistent()} and {@link #isOpen()} throws
 * {@link InvalidStateStoreException} while it is not open ({@link #openDatabase()}).
 *
 * <p>A store type adds its engine options ({@link #engineOptions()}), what it reads from the
 * database before it is used ({@link #opened}), and what it releases before the database closes
 * ({@link #closing()}).
 *
 * <p>Thread safety: Kafka Streams initializes, writes, commits and closes a store from its task's
 * stream thread; interactive queries read concurrently, through {@link #openDatabase()} (the
 * database reference is volatile) and the database, which allows it. {@link #close()} holds the
 * store's monitor, as its subclasses' writes do; a store's monitor is taken before any lock of
 * the engine, never inside one.
 */
abstract class DatabaseStore implements StateStore {
    private final String name;
    private volatile StoreDatabase database;
    private StateStoreContext context;
    private StoreMetrics metrics;
    private Position position = Position.emptyPosition();

    DatabaseStore(String name) {
        this.name = Objects.requireNonNull(name, "name");
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final void init(StateStoreContext context, StateStore root) {
        if (database != null) {
            throw new IllegalStateException("store " + name + " is already open");
        }
        this.context = context;
        StoreDatabase d = StoreDatabase.open(name, context, engineOptions());
        try {
            opened(d, context);
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
        database = d;
        position = d.position();
        context.register(root, (RecordBatchingStateRestoreCallback) this::restoreBatch, () -> { });
        metrics = StoreMetrics.register(context, d);
    }

    /** @return what the store type sets in the engine's options; nothing by default */
    Consumer<Options> engineOptions() {
        return options -> { };
    }

    /**
     * Called once the database is open, before the store is used: reads what the store keeps
     * beside its data. A failure closes the database and fails {@link #init}.
     */
    void opened(StoreDatabase d, StateStoreContext context) {
    }

    /** Called by {@link #close()} before the database closes. */
    void closing() {
    }

    /** Writes a batch of changelog records, updating the position from their headers. */
    abstract void restoreBatch(Collection<ConsumerRecord<byte[], byte[]>> records);

    /**
     * @return the database
     * @throws InvalidStateStoreException when the store is not open
     */
    final StoreDatabase openDatabase() {
        StoreDatabase d = database;
        if (d == null) {
            throw new InvalidStateStoreException("store " + name + " is not open");
        }
        return d;
    }

    /** @return the store's database while open, for tests and metrics */
    final StoreDatabase database() {
        return openDatabase();
    }

    /** @return the context the store was initialized with */
    final StateStoreContext context() {
        return context;
    }

    /**
     * Stores the changelog offsets Kafka Streams commits, and the position and whatever the store
     * keeps at commit, in the database; flushes nothing (see {@link StoreDatabase}).
     *
     * @param changelogOffsets the offsets; an empty map removes the stored ones
     */
    @Override
    public final void commit(Map<TopicPartition, Long> changelogOffsets) {
        openDatabase().commit(changelogOffsets);
    }

    @Override
    public final Long committedOffset(TopicPartition partition) {
        return openDatabase().committedOffset(partition);
    }

    @Override
    @SuppressWarnings("deprecation")
    public final boolean managesOffsets() {
        return true;
    }

    @Override
    public final synchronized void close() {
        StoreDatabase d = database;
        if (d == null) {
            return;
        }
        database = null;
        if (metrics != null) {
            metrics.remove();
            metrics = null;
        }
        try {
            closing();
        } finally {
            d.close();
        }
    }

    @Override
    public final boolean persistent() {
        return true;
    }

    @Override
    public final boolean isOpen() {
        return database != null;
    }

    /** Answers Kafka's basic queries for the store's type, with position tracking. */
    @Override
    public <R> QueryResult<R> query(Query<R> query, PositionBound positionBound, QueryConfig config) {
        return StoreQueryUtils.handleBasicQueries(query, positionBound, config, this, getPosition(), context);
    }

    @Override
    public final Position getPosition() {
        return position;
    }
}
