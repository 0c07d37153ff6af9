package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedBytesStore;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.internals.SessionKeySchema;
import org.apache.kafka.streams.state.internals.WindowKeySchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.SeedExtension;

/**
 * Commits that flush nothing, checked against power losses at random points, for every store
 * type (key-value, window, session, versioned). The store processes a changelog (each record a
 * put or a delete of one of a few keys, at a stream time that moves on past the retention, so
 * expiry and the compaction filters take part) and commits its offset now and then; small
 * memtables reach tables often, on the engine's background threads. A crash comes after a random
 * number of records, sometimes right after a commit: every operation of the environment fails
 * from then on (so nothing the abandoned database does later reaches the files, wherever its
 * flushes and compactions were), and then the files lose what was never synced. The store is
 * reopened and restored as Kafka Streams would, and its contents are compared with the model's:
 * Kafka's own store of the same type (in-memory key-value, window and session stores; the RocksDB
 * versioned store) given the same records through the same API. Some rounds end with a clean
 * close instead: the commit before it is acknowledged.
 * <ul>
 *   <li>At-least-once: the committed offset the database holds is one that was committed, at or
 *       after the last acknowledged one; restoring the changelog after it gives exactly the
 *       model's state at the crash.</li>
 *   <li>Exactly-once: a database that reached a table after it opened is reported corrupt (and
 *       is then wiped and rebuilt from the changelog); otherwise its offset and contents are
 *       exactly those of one commit at or after the last acknowledged one, and restoring the
 *       changelog from there gives exactly the model's state at the last commit (what the
 *       uncommitted records wrote never happened: the changelog ends at that commit).</li>
 * </ul>
 * Each test draws its records, crash points and clean closes from its seed; a run is small (six
 * rounds of a few thousand records at most).
 */
@ExtendWith(SeedExtension.class)
class CommitCrashTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);
    private static final int KEYS = 100;
    private static final int ROUNDS = 6;
    /** The window, session and versioned stores' retention, ms; records are 0-20 ms apart. */
    private static final long RETENTION = 5_000;
    private static final long SEGMENT = 1_000;
    private static final long WINDOW = 100;

    @TempDir
    Path stateDir;
    private int models;

    /** Stores on one in-memory, fault-injecting file system, with small memtables. */
    private static final class Env implements LeveldbConfigSetter {
        final FaultInjectionEnv files = new FaultInjectionEnv(new MemEnv());

        @Override
        public void setConfig(String storeName, org.iq80.leveldb.Options options, Map<String, Object> configs) {
            options.env(files).writeBufferSize(16 << 10);
        }

        void freeze() {
            for (FaultInjectionEnv.Op op : FaultInjectionEnv.Op.values()) {
                files.failAlways(op);
            }
        }
    }

    /**
     * A store type: its store and its model, driven through the same Kafka interface {@code S}.
     * {@link #next} draws the API call of a changelog record; {@link #apply} makes it;
     * {@link #restore} hands our store changelog records as Kafka Streams' restoration does.
     */
    abstract static class StoreType<S extends StateStore> {
        final String name;

        StoreType(String name) {
            this.name = name;
        }

        abstract S ours();

        abstract S model(String modelName);

        /**
         * What record {@code offset} does, at stream time {@code time}, as a changelog record;
         * {@code previous} is the record before it, {@code null} for the first.
         */
        abstract ConsumerRecord<byte[], byte[]> next(Random random, long offset, long time,
                                                     ConsumerRecord<byte[], byte[]> previous);

        /** Makes the API call the changelog record stands for. */
        abstract void apply(S store, ConsumerRecord<byte[], byte[]> record);

        abstract void restore(S ours, List<ConsumerRecord<byte[], byte[]>> records);

        /** Everything the store returns, one sorted line per entry; {@code time} is the stream time. */
        abstract List<String> contents(S store, long time);

        @Override
        public String toString() {
            return name;
        }
    }

    private static String hex(byte[] b) {
        return b == null ? "null" : HexFormat.of().formatHex(b);
    }

    private static byte[] key(Random random) {
        return ("key" + random.nextInt(KEYS)).getBytes(StandardCharsets.UTF_8);
    }

    /** A value, or a tombstone one time in seven. */
    private static byte[] value(Random random, long offset) {
        return random.nextInt(7) == 0 ? null : ("value-" + offset + "-" + "x".repeat(random.nextInt(60)))
                .getBytes(StandardCharsets.UTF_8);
    }

    private static ConsumerRecord<byte[], byte[]> record(long offset, byte[] key, byte[] value, long timestamp) {
        return new ConsumerRecord<>(CHANGELOG.topic(), CHANGELOG.partition(), offset, timestamp,
                TimestampType.CREATE_TIME, ConsumerRecord.NULL_SIZE, ConsumerRecord.NULL_SIZE, key, value,
                new RecordHeaders(), Optional.empty());
    }

    private static <K> List<String> lines(KeyValueIterator<K, byte[]> it, Function<K, String> key) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue<K, byte[]> kv = it.next();
                out.add(key.apply(kv.key) + "=" + hex(kv.value));
            }
        }
        out.sort(null);
        return out;
    }

    private static String windowed(Windowed<Bytes> w) {
        return hex(w.key().get()) + "@" + w.window().start() + ".." + w.window().end();
    }

    static Stream<StoreType<?>> storeTypes() {
        return Stream.of(keyValue(), window(false), window(true), session(), versioned());
    }

    private static StoreType<KeyValueStore<Bytes, byte[]>> keyValue() {
        return new StoreType<>("key-value") {
            @Override
            KeyValueStore<Bytes, byte[]> ours() {
                return new LeveldbKeyValueStore("store");
            }

            @Override
            KeyValueStore<Bytes, byte[]> model(String modelName) {
                return Stores.inMemoryKeyValueStore(modelName).get();
            }

            @Override
            ConsumerRecord<byte[], byte[]> next(Random random, long offset, long time,
                                                ConsumerRecord<byte[], byte[]> previous) {
                return record(offset, key(random), value(random, offset), time);
            }

            @Override
            void apply(KeyValueStore<Bytes, byte[]> store, ConsumerRecord<byte[], byte[]> r) {
                store.put(Bytes.wrap(r.key()), r.value());
            }

            @Override
            void restore(KeyValueStore<Bytes, byte[]> ours, List<ConsumerRecord<byte[], byte[]>> records) {
                ((LeveldbKeyValueStore) ours).restoreBatch(records);
            }

            @Override
            List<String> contents(KeyValueStore<Bytes, byte[]> store, long time) {
                return lines(store.all(), k -> hex(k.get()));
            }
        };
    }

    /**
     * Window stores. With duplicates, every put is a new entry under the next sequence number,
     * which the store keeps with its commits and takes from the records it restores: the
     * changelog's records carry the numbers the store gave (no tombstones, which are no-ops).
     */
    private static StoreType<WindowStore<Bytes, byte[]>> window(boolean duplicates) {
        return new StoreType<>(duplicates ? "window-duplicates" : "window") {
            @Override
            WindowStore<Bytes, byte[]> ours() {
                return new LeveldbWindowStore("store", RETENTION, WINDOW, SEGMENT, duplicates);
            }

            @Override
            WindowStore<Bytes, byte[]> model(String modelName) {
                return Stores.inMemoryWindowStore(modelName, Duration.ofMillis(RETENTION), Duration.ofMillis(WINDOW),
                        duplicates).get();
            }

            @Override
            ConsumerRecord<byte[], byte[]> next(Random random, long offset, long time,
                                                ConsumerRecord<byte[], byte[]> previous) {
                long start = Math.max(0, (time - random.nextInt(300)) / WINDOW * WINDOW);
                int sequence = 0;
                byte[] value = value(random, offset);
                if (duplicates) {
                    int last = previous == null ? 0 : ByteBuffer.wrap(previous.key()).getInt(previous.key().length - 4);
                    sequence = (last + 1) & 0x7FFFFFFF;
                    value = value != null ? value : ("value-" + offset).getBytes(StandardCharsets.UTF_8);
                }
                byte[] schemaKey = WindowKeySchema.toStoreKeyBinary(Bytes.wrap(key(random)), start, sequence).get();
                return record(offset, schemaKey, value, time);
            }

            @Override
            void apply(WindowStore<Bytes, byte[]> store, ConsumerRecord<byte[], byte[]> r) {
                store.put(WindowKeySchema.fromStoreBytesKey(r.key(), WINDOW).key(), r.value(),
                        LeveldbWindowStore.windowStart(r.key()));
            }

            @Override
            void restore(WindowStore<Bytes, byte[]> ours, List<ConsumerRecord<byte[], byte[]>> records) {
                ((LeveldbWindowStore) ours).restoreBatch(records);
            }

            @Override
            List<String> contents(WindowStore<Bytes, byte[]> store, long time) {
                return lines(store.all(), CommitCrashTest::windowed);
            }
        };
    }

    private static StoreType<SessionStore<Bytes, byte[]>> session() {
        return new StoreType<>("session") {
            @Override
            SessionStore<Bytes, byte[]> ours() {
                return new LeveldbSessionStore("store", RETENTION, SEGMENT);
            }

            @Override
            SessionStore<Bytes, byte[]> model(String modelName) {
                return Stores.inMemorySessionStore(modelName, Duration.ofMillis(RETENTION)).get();
            }

            @Override
            ConsumerRecord<byte[], byte[]> next(Random random, long offset, long time,
                                                ConsumerRecord<byte[], byte[]> previous) {
                long end = Math.max(0, time - random.nextInt(300));
                Windowed<Bytes> session = new Windowed<>(Bytes.wrap(key(random)),
                        new SessionWindow(Math.max(0, end - random.nextInt(3) * 50), end));
                return record(offset, SessionKeySchema.toBinary(session).get(), value(random, offset), time);
            }

            /**
             * A tombstone is a put of {@code null}, as restoration applies it: unlike
             * {@code remove}, it advances the stream time to the session's end (in Kafka's
             * in-memory store as in ours), so a store restored from a changelog with removals
             * can expire more than the store that wrote it.
             */
            @Override
            void apply(SessionStore<Bytes, byte[]> store, ConsumerRecord<byte[], byte[]> r) {
                store.put(SessionKeySchema.from(Bytes.wrap(r.key())), r.value());
            }

            @Override
            void restore(SessionStore<Bytes, byte[]> ours, List<ConsumerRecord<byte[], byte[]>> records) {
                ((LeveldbSessionStore) ours).restoreBatch(records);
            }

            @Override
            List<String> contents(SessionStore<Bytes, byte[]> store, long time) {
                return lines(store.findSessions(0, Long.MAX_VALUE), CommitCrashTest::windowed);
            }
        };
    }

    private static StoreType<VersionedBytesStore> versioned() {
        return new StoreType<>("versioned") {
            @Override
            VersionedBytesStore ours() {
                return new LeveldbVersionedKeyValueStore("store", RETENTION);
            }

            @Override
            VersionedBytesStore model(String modelName) {
                return (VersionedBytesStore) Stores.persistentVersionedKeyValueStore(modelName,
                        Duration.ofMillis(RETENTION)).get();
            }

            @Override
            ConsumerRecord<byte[], byte[]> next(Random random, long offset, long time,
                                                ConsumerRecord<byte[], byte[]> previous) {
                return record(offset, key(random), value(random, offset), Math.max(0, time - random.nextInt(300)));
            }

            @Override
            void apply(VersionedBytesStore store, ConsumerRecord<byte[], byte[]> r) {
                if (r.value() == null) {
                    store.delete(Bytes.wrap(r.key()), r.timestamp());
                } else {
                    store.put(Bytes.wrap(r.key()), r.value(), r.timestamp());
                }
            }

            @Override
            void restore(VersionedBytesStore ours, List<ConsumerRecord<byte[], byte[]>> records) {
                ((LeveldbVersionedKeyValueStore) ours).restoreBatch(records);
            }

            /** Each key's latest value and its values as of five times within the history retention. */
            @Override
            List<String> contents(VersionedBytesStore store, long time) {
                List<String> out = new ArrayList<>();
                for (int k = 0; k < KEYS; k++) {
                    Bytes key = Bytes.wrap(("key" + k).getBytes(StandardCharsets.UTF_8));
                    out.add(hex(key.get()) + "@latest=" + hex(store.get(key)));
                    for (long asOf = Math.max(0, time - RETENTION + 1); asOf <= time; asOf += RETENTION / 5) {
                        out.add(hex(key.get()) + "@" + asOf + "=" + hex(store.get(key, asOf)));
                    }
                }
                return out;
            }
        };
    }

    /** The changelog so far: the records, and the stream time after each. */
    private static final class Changelog {
        final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        final List<Long> times = new ArrayList<>();
        long time;

        <S extends StateStore> void append(StoreType<S> type, S store, Random random) {
            time += random.nextInt(21);
            ConsumerRecord<byte[], byte[]> r = type.next(random, records.size(), time,
                    records.isEmpty() ? null : records.get(records.size() - 1));
            records.add(r);
            times.add(time);
            type.apply(store, r);
        }

        /** @return the offset of the last record, -1 when there is none */
        long last() {
            return records.size() - 1;
        }

        /** Forgets the records after {@code offset}: a transaction that was never committed. */
        void truncate(long offset) {
            records.subList((int) offset + 1, records.size()).clear();
            times.subList((int) offset + 1, times.size()).clear();
            time = offset < 0 ? 0 : times.get((int) offset);
        }

        long timeAt(long offset) {
            return offset < 0 ? 0 : times.get((int) offset);
        }
    }

    private <S extends StateStore> S open(StoreType<S> type, Env env, boolean exactlyOnce) {
        Properties config = new Properties();
        config.put(LeveldbConfigSetter.CONFIG, env);
        if (exactlyOnce) {
            config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        }
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), config);
        return StoreFixture.init(type.ours(), context);
    }

    /**
     * The model: Kafka's store, given the changelog's records through the API up to the offset
     * asked for. It moves forward as asked; asked for an earlier offset, it starts again.
     */
    private final class Model<S extends StateStore> implements AutoCloseable {
        private final StoreType<S> type;
        private final Changelog changelog;
        private S store;
        private long applied = -1;

        Model(StoreType<S> type, Changelog changelog) {
            this.type = type;
            this.changelog = changelog;
        }

        /** The model's contents after the changelog's records up to {@code last}, inclusive. */
        List<String> contents(long last) {
            if (store == null || last < applied) {
                close();
                MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.resolve("models").toFile(),
                        new Properties());
                store = StoreFixture.init(type.model("model" + models++), context);
                applied = -1;
            }
            for (; applied < last; applied++) {
                type.apply(store, changelog.records.get((int) applied + 1));
            }
            return type.contents(store, changelog.timeAt(last));
        }

        @Override
        public void close() {
            if (store != null) {
                store.close();
                store = null;
            }
        }
    }

    private static <S extends StateStore> void restore(StoreType<S> type, S store, Changelog changelog, long from,
                                                       long to) {
        if (from <= to) {
            type.restore(store, changelog.records.subList((int) from, (int) to + 1));
        }
    }

    private static void assertSameContents(List<String> expected, List<String> actual, String what) {
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(actual);
        List<String> extra = new ArrayList<>(actual);
        extra.removeAll(expected);
        assertEquals(expected.size() + " entries, missing []; extra []", actual.size() + " entries, missing "
                + missing.subList(0, Math.min(5, missing.size())) + "; extra " + extra.subList(0, Math.min(5, extra.size())),
                what);
        assertEquals(expected, actual, what);
    }

    /**
     * A power loss: freezes the files, abandons the store (its memtable is lost; its background
     * work fails), drops what was never synced, and lets the files work again.
     */
    private static void crash(Env env, StateStore store) {
        env.freeze();
        try {
            store.close();
        } catch (ProcessorStateException expected) {
            // the memtable could not reach a table: lost, as in a crash
        }
        try {
            env.files.crash();
        } catch (IOException e) {
            throw new AssertionError("simulating the power loss", e);
        }
        env.files.clearFaults();
    }

    /** Writes a round's records, committing now and then; returns the commits' offsets. */
    private static <S extends StateStore> List<Long> writeRound(StoreType<S> type, S store, Changelog changelog,
                                                                Random random, int records) {
        List<Long> commits = new ArrayList<>();
        for (int r = 0; r < records; r++) {
            changelog.append(type, store, random);
            if (random.nextInt(100) == 0 || r == records - 1 && random.nextInt(4) == 0) {
                store.commit(Map.of(CHANGELOG, changelog.last()));
                commits.add(changelog.last());
            }
        }
        return commits;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("storeTypes")
    <S extends StateStore> void atLeastOnceRestoresExactlyTheStateAtTheCrash(StoreType<S> type, Random random) {
        Env env = new Env();
        Changelog changelog = new Changelog();
        Model<S> model = new Model<>(type, changelog);
        List<Long> committed = new ArrayList<>();
        long acknowledged = -1;
        int crashes = 0;
        long replayed = 0;
        S store = open(type, env, false);
        for (int round = 0; round < ROUNDS; round++) {
            committed.addAll(writeRound(type, store, changelog, random, 200 + random.nextInt(1_500)));
            long last = changelog.last();
            if (random.nextInt(4) == 0) {
                // A clean close acknowledges the last commit: the reopened store starts from it.
                store = commitCloseAndReopen(type, env, false, store, model, changelog, last, round);
                committed.add(last);
                acknowledged = last;
                continue;
            }
            crash(env, store);
            store = open(type, env, false);
            Long offset = store.committedOffset(CHANGELOG);
            assertTrue(offset == null ? acknowledged < 0 : committed.contains(offset) && offset >= acknowledged,
                    type + ": offset " + offset + " after crash " + round + " (acknowledged " + acknowledged + ")");
            restore(type, store, changelog, offset == null ? 0 : offset + 1, last);
            assertSameContents(model.contents(last), type.contents(store, changelog.time),
                    type + ": after crash " + round + " and restoring from " + offset);
            crashes++;
            replayed += last - (offset == null ? -1 : offset);
        }
        store.close();
        model.close();
        System.out.printf("%s, at-least-once: %d crashes, %d records replayed after them; %d records%n", type,
                crashes, replayed, changelog.records.size());
    }

    /**
     * Commits {@code offset}, closes the store cleanly and opens it again: it must hold exactly
     * that commit's state.
     *
     * @return the reopened store
     */
    private <S extends StateStore> S commitCloseAndReopen(StoreType<S> type, Env env, boolean exactlyOnce, S store,
                                                                 Model<S> model, Changelog changelog, long offset, int round) {
        store.commit(Map.of(CHANGELOG, offset));
        store.close();
        S reopened = open(type, env, exactlyOnce);
        assertEquals(offset, reopened.committedOffset(CHANGELOG));
        assertSameContents(model.contents(offset), type.contents(reopened, changelog.time),
                type + ": after a clean close in round " + round);
        return reopened;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("storeTypes")
    <S extends StateStore> void exactlyOnceReportsAnUncleanDatabaseOrHoldsACommittedState(StoreType<S> type,
                                                                                          Random random) {
        Env env = new Env();
        Changelog changelog = new Changelog();
        Model<S> model = new Model<>(type, changelog);
        List<Long> committed = new ArrayList<>();
        long acknowledged = -1;
        int held = 0;
        int corrupt = 0;
        S store = open(type, env, true);
        for (int round = 0; round < ROUNDS; round++) {
            // Small runs leave everything in the memtable, long ones reach tables.
            int records = random.nextBoolean() ? 1 + random.nextInt(20) : 400 + random.nextInt(1_200);
            committed.addAll(writeRound(type, store, changelog, random, records));
            long lastCommit = committed.isEmpty() ? -1 : committed.get(committed.size() - 1);
            if (random.nextBoolean()) {
                // A commit and a clean close, then a reopening: the state of that commit.
                lastCommit = changelog.last();
                store = commitCloseAndReopen(type, env, true, store, model, changelog, lastCommit, round);
                committed.add(lastCommit);
                acknowledged = lastCommit;
                continue;
            }
            crash(env, store);
            // What the uncommitted records wrote never happened: the changelog ends at the last commit.
            changelog.truncate(lastCommit);
            Long offset;
            try {
                store = open(type, env, true);
                offset = store.committedOffset(CHANGELOG);
                long at = offset == null ? -1 : offset;
                assertTrue(at >= acknowledged && (offset == null || committed.contains(offset)), type + ": offset "
                        + offset + " after crash " + round + " (acknowledged " + acknowledged + ")");
                assertSameContents(model.contents(at), type.contents(store, changelog.timeAt(at)),
                        type + ": the state of the commit at " + offset + " after crash " + round);
                held++;
            } catch (TaskCorruptedException e) {
                corrupt++;
                wipe(env);
                acknowledged = -1; // the wiped database kept nothing: no commit of it is acknowledged yet
                store = open(type, env, true);
                offset = store.committedOffset(CHANGELOG);
                assertNull(offset);
            }
            restore(type, store, changelog, offset == null ? 0 : offset + 1, lastCommit);
            assertSameContents(model.contents(lastCommit), type.contents(store, changelog.time),
                    type + ": after crash " + round + " and restoring from " + offset);
        }
        store.close();
        model.close();
        System.out.printf("%s, exactly-once: %d crashes found a committed state, %d a corrupt database; %d records%n",
                type, held, corrupt, changelog.records.size());
    }

    /** Deletes the store's database, as Kafka Streams wipes a corrupt task's state. */
    private void wipe(Env env) {
        Path dir = stateDir.resolve(StoreDatabase.PARENT_DIR).resolve("store");
        try {
            for (String name : env.files.getChildren(dir)) {
                env.files.deleteFile(dir.resolve(name));
            }
            env.files.deleteDir(dir);
        } catch (IOException e) {
            throw new AssertionError("wiping " + dir, e);
        }
    }

    @Test
    void aDatabaseWithoutTheLayoutIsCorruptSoThatItIsRestored() throws Exception {
        Env env = new Env();
        Path dir = stateDir.resolve(StoreDatabase.PARENT_DIR).resolve("store");
        env.files.createDir(dir);
        try (var db = org.leveldbj.db.LevelDbFactory.factory.open(dir.toFile(),
                new org.iq80.leveldb.Options().env(env.files).createIfMissing(true))) {
            db.put("old".getBytes(StandardCharsets.UTF_8), "layout".getBytes(StandardCharsets.UTF_8));
        }
        TaskCorruptedException e = assertThrows(TaskCorruptedException.class, () -> open(keyValue(), env, false));
        assertTrue(e.getCause().getMessage().contains("not written by this store's layout"), e.getCause().getMessage());
    }
}
