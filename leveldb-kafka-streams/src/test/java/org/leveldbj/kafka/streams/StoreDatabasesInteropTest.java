package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.internals.SessionKeySchema;
import org.apache.kafka.streams.state.internals.WindowKeySchema;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.interop.Peers;
import org.leveldbj.testing.PeerExtension;

/**
 * The Kafka Streams stores' databases are plain LevelDB databases: C++ LevelDB 1.23 and
 * goleveldb read them exactly as our engine does, and a record they add is read back by the
 * store. For each store type (key-value, timestamped key-value, window with and without
 * duplicates, session, versioned):
 * <ol>
 *   <li>a few thousand records go in through Kafka's store API, with deletes, commits now and
 *       then, timestamps advancing far beyond the retention (so the stores' compaction filters
 *       drop expired data while small memtables and tables are flushed and compacted), a forced
 *       compaction of the whole database, a last commit and a clean close;</li>
 *   <li>our engine scans the directory (a copy), raw keys and values, metadata included; the
 *       scan holds the layout's metadata (format, a clean status, the last committed offset),
 *       the data the store's API returns and nothing the compaction filters must have removed;</li>
 *   <li>C++ LevelDB (paranoid checks, checksums) and goleveldb ({@code StrictAll}) each open a
 *       copy and find exactly the entries of that scan, by gets and by forward and backward
 *       scans ({@link Peers#verifyExactly});</li>
 *   <li>then C++ LevelDB, and after it goleveldb, add one raw data record to the closed
 *       database ({@code update}: a put under the data namespace, in the store's layout);
 *       after each, the store reopens the directory, returns that record through Kafka's API
 *       beside everything it held before, and still holds the committed offset.</li>
 * </ol>
 * The peers ignore the tables' {@code leveldbj.stats} meta blocks; the compaction filters leave
 * nothing but ordinary entries and deletion markers.
 */
@ExtendWith(PeerExtension.class)
class StoreDatabasesInteropTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);
    private static final int RECORDS = 4_000;
    private static final int COMMIT_EVERY = 250;
    /** Record {@code i}'s timestamp is {@code i * TICK}: 400 s of stream time in all. */
    private static final long TICK = 100;
    private static final long RETENTION = 60_000;
    private static final long SEGMENT = 20_000;
    private static final long WINDOW = 1_000;
    private static final long LAST_TIME = (RECORDS - 1) * TICK;
    /**
     * Where the versioned store's contents are read as of: every 5 s within the history
     * retention up to the last timestamp (gets before it return {@code null} with a warning).
     */
    private static final long AS_OF_STEP = 5_000;
    private static final long AS_OF_FROM = (LAST_TIME - RETENTION) / AS_OF_STEP * AS_OF_STEP + AS_OF_STEP;

    @TempDir
    Path stateDir;

    /** Small memtables and tables: flushes and compactions run while the records go in. */
    static final class SmallTables implements LeveldbConfigSetter {
        @Override
        public void setConfig(String storeName, Options options, Map<String, Object> configs) {
            options.writeBufferSize(32 << 10).maxFileSize(64 << 10);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String hex(byte[] b) {
        return b == null ? "null" : HexFormat.of().formatHex(b);
    }

    private static Bytes key(int k) {
        return Bytes.wrap(bytes("key" + k));
    }

    private static byte[] value(int i) {
        return bytes("value-" + i + "-" + "x".repeat(i % 50));
    }

    private static byte[] concat(byte first, byte[] rest) {
        byte[] out = new byte[1 + rest.length];
        out[0] = first;
        System.arraycopy(rest, 0, out, 1, rest.length);
        return out;
    }

    private static List<String> sorted(KeyValueIterator<?, byte[]> it, java.util.function.Function<Object, String> key) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue<?, byte[]> kv = it.next();
                out.add(key.apply(kv.key) + "=" + hex(kv.value));
            }
        }
        out.sort(null);
        return out;
    }

    private static String windowed(Object key) {
        Windowed<?> w = (Windowed<?>) key;
        return hex(((Bytes) w.key()).get()) + "@" + w.window().start() + ".." + w.window().end();
    }

    /**
     * One store type: how records go in through Kafka's API, what its contents read as, what its
     * compaction filter must have removed, and the record a peer adds in its layout.
     */
    abstract static class StoreType<S extends StateStore> {
        final String name;

        StoreType(String name) {
            this.name = name;
        }

        abstract S create();

        /** Record {@code i} through Kafka's API, at timestamp {@code i * TICK}. */
        abstract void write(S store, int i);

        /** Everything the store returns, one sorted line per entry. */
        abstract List<String> contents(S store);

        abstract StoreDatabase database(S store);

        /**
         * @return which data keys (without the namespace byte) the compaction filter must have
         *     removed by now, or {@code null} if the store has no filter
         */
        Predicate<byte[]> expired(S store) {
            return null;
        }

        /** The data key (without the namespace byte) and value a peer adds. */
        abstract byte[][] peerRecord(String peer);

        /** The lines {@link #contents} gains with {@link #peerRecord}. */
        abstract List<String> peerLines(String peer);

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<StoreType<?>> storeTypes() {
        return Stream.of(keyValue("key-value", false), keyValue("timestamped", true), window("window", false),
                window("window-duplicates", true), session(), versioned());
    }

    private static StoreType<LeveldbKeyValueStore> keyValue(String name, boolean timestamped) {
        return new StoreType<>(name) {
            private byte[] stored(byte[] v, long time) {
                return timestamped ? ByteBuffer.allocate(8 + v.length).putLong(time).put(v).array() : v;
            }

            @Override
            LeveldbKeyValueStore create() {
                return timestamped ? new LeveldbTimestampedKeyValueStore(name) : new LeveldbKeyValueStore(name);
            }

            @Override
            void write(LeveldbKeyValueStore store, int i) {
                store.put(key(i % 1_000), stored(value(i), i * TICK));
                if (i % 7 == 3) {
                    store.delete(key((i * 13) % 1_000));
                }
            }

            @Override
            List<String> contents(LeveldbKeyValueStore store) {
                return sorted(store.all(), k -> hex(((Bytes) k).get()));
            }

            @Override
            StoreDatabase database(LeveldbKeyValueStore store) {
                return store.database();
            }

            @Override
            byte[][] peerRecord(String peer) {
                return new byte[][] {bytes("peer-" + peer), stored(bytes("from " + peer), LAST_TIME)};
            }

            @Override
            List<String> peerLines(String peer) {
                byte[][] r = peerRecord(peer);
                return List.of(hex(r[0]) + "=" + hex(r[1]));
            }
        };
    }

    private static StoreType<LeveldbWindowStore> window(String name, boolean duplicates) {
        return new StoreType<>(name) {
            @Override
            LeveldbWindowStore create() {
                return new LeveldbWindowStore(name, RETENTION, WINDOW, SEGMENT, duplicates);
            }

            @Override
            void write(LeveldbWindowStore store, int i) {
                long start = Math.max(0, (i * TICK / WINDOW - i % 3) * WINDOW);
                store.put(key(i % 200), value(i), start);
                if (i % 5 == 0) { // a second value for the window: replaces the first, or a duplicate
                    store.put(key(i % 200), value(i + 1), start);
                }
                if (i % 11 == 5) { // deletes a window (a no-op with duplicates, as in Kafka's stores)
                    store.put(key((i + 1) % 200), null, start);
                }
            }

            @Override
            List<String> contents(LeveldbWindowStore store) {
                return sorted(store.all(), StoreDatabasesInteropTest::windowed);
            }

            @Override
            StoreDatabase database(LeveldbWindowStore store) {
                return store.database();
            }

            @Override
            Predicate<byte[]> expired(LeveldbWindowStore store) {
                long live = store.segments().segmentId(store.segments().minVisible());
                return k -> SegmentedData.segmentOf(k) < live;
            }

            @Override
            byte[][] peerRecord(String peer) {
                long start = LAST_TIME / WINDOW * WINDOW;
                byte[] schema = WindowKeySchema.toStoreKeyBinary(Bytes.wrap(bytes("peer-" + peer)), start,
                        duplicates ? 0x7000_0000 : 0).get();
                return new byte[][] {SegmentedData.dataKey(start / SEGMENT, schema), bytes("from " + peer)};
            }

            @Override
            List<String> peerLines(String peer) {
                long start = LAST_TIME / WINDOW * WINDOW;
                return List.of(hex(bytes("peer-" + peer)) + "@" + start + ".." + (start + WINDOW) + "="
                        + hex(bytes("from " + peer)));
            }
        };
    }

    private static StoreType<LeveldbSessionStore> session() {
        return new StoreType<>("session") {
            private Windowed<Bytes> session(int i) {
                long end = i * TICK;
                return new Windowed<>(key(i % 200), new SessionWindow(Math.max(0, end - (i % 4) * TICK), end));
            }

            @Override
            LeveldbSessionStore create() {
                return new LeveldbSessionStore(name, RETENTION, SEGMENT);
            }

            @Override
            void write(LeveldbSessionStore store, int i) {
                store.put(session(i), value(i));
                if (i % 9 == 4) {
                    store.remove(session(i - 2));
                }
            }

            @Override
            List<String> contents(LeveldbSessionStore store) {
                return sorted(store.findSessions(0, Long.MAX_VALUE), StoreDatabasesInteropTest::windowed);
            }

            @Override
            StoreDatabase database(LeveldbSessionStore store) {
                return store.database();
            }

            @Override
            Predicate<byte[]> expired(LeveldbSessionStore store) {
                long live = store.segments().segmentId(store.segments().minVisible());
                return k -> SegmentedData.segmentOf(k) < live;
            }

            @Override
            byte[][] peerRecord(String peer) {
                Windowed<Bytes> s = new Windowed<>(Bytes.wrap(bytes("peer-" + peer)),
                        new SessionWindow(LAST_TIME - 500, LAST_TIME));
                return new byte[][] {SegmentedData.dataKey(LAST_TIME / SEGMENT, SessionKeySchema.toBinary(s).get()),
                    bytes("from " + peer)};
            }

            @Override
            List<String> peerLines(String peer) {
                return List.of(hex(bytes("peer-" + peer)) + "@" + (LAST_TIME - 500) + ".." + LAST_TIME + "="
                        + hex(bytes("from " + peer)));
            }
        };
    }

    private static StoreType<LeveldbVersionedKeyValueStore> versioned() {
        return new StoreType<>("versioned") {
            private static final int KEYS = 300;

            @Override
            LeveldbVersionedKeyValueStore create() {
                return new LeveldbVersionedKeyValueStore(name, RETENTION);
            }

            @Override
            void write(LeveldbVersionedKeyValueStore store, int i) {
                long time = Math.max(0, i * TICK - (i % 4) * 1_000); // a little out of order
                if (i % 8 == 6) {
                    store.delete(key(i % KEYS), time);
                } else {
                    store.put(key(i % KEYS), value(i), time);
                }
            }

            /** Each key's latest value and its values as of every {@link #AS_OF_STEP} (when there is one). */
            private List<String> read(LeveldbVersionedKeyValueStore store, Bytes k) {
                List<String> out = new ArrayList<>();
                byte[] latest = store.get(k);
                if (latest != null) {
                    out.add(hex(k.get()) + "@latest=" + hex(latest));
                }
                for (long t = AS_OF_FROM; t <= LAST_TIME; t += AS_OF_STEP) {
                    byte[] v = store.get(k, t);
                    if (v != null) {
                        out.add(hex(k.get()) + "@" + t + "=" + hex(v));
                    }
                }
                return out;
            }

            @Override
            List<String> contents(LeveldbVersionedKeyValueStore store) {
                List<String> out = new ArrayList<>();
                for (int k = 0; k < KEYS; k++) {
                    out.addAll(read(store, key(k)));
                }
                for (String peer : new String[] {"cpp", "go"}) {
                    out.addAll(read(store, Bytes.wrap(bytes("peer-" + peer))));
                }
                out.sort(null);
                return out;
            }

            @Override
            StoreDatabase database(LeveldbVersionedKeyValueStore store) {
                return store.database();
            }

            @Override
            Predicate<byte[]> expired(LeveldbVersionedKeyValueStore store) {
                long horizon = store.observedStreamTime() - RETENTION;
                return k -> k[0] == VersionLayout.HISTORY && VersionLayout.validTo(k) <= horizon;
            }

            @Override
            byte[][] peerRecord(String peer) {
                byte[] group = VersionLayout.group(bytes("peer-" + peer));
                return new byte[][] {VersionLayout.latestKey(group), VersionLayout.entry(bytes("from " + peer),
                        LAST_TIME / AS_OF_STEP * AS_OF_STEP)};
            }

            @Override
            List<String> peerLines(String peer) {
                long validFrom = LAST_TIME / AS_OF_STEP * AS_OF_STEP;
                byte[] value = bytes("from " + peer);
                // The versioned bytes store returns a value with its timestamp before it.
                String k = hex(bytes("peer-" + peer));
                String v = hex(ByteBuffer.allocate(8 + value.length).putLong(validFrom).put(value).array());
                return List.of(k + "@latest=" + v, k + "@" + validFrom + "=" + v);
            }
        };
    }

    private <S extends StateStore> S open(StoreType<S> type) {
        Properties config = new Properties();
        config.put(LeveldbConfigSetter.CONFIG, new SmallTables());
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), config);
        return StoreFixture.init(type.create(), context);
    }

    private static long committedOffset(StateStore store) {
        Long offset = store.committedOffset(CHANGELOG);
        assertTrue(offset != null, "no committed offset");
        return offset;
    }

    /** Every entry our engine reads from a copy of the directory, keys in unsigned byte order. */
    private static SortedMap<byte[], byte[]> scan(Path dir) throws IOException {
        SortedMap<byte[], byte[]> out = new TreeMap<>(Arrays::compareUnsigned);
        Options options = new Options().createIfMissing(false).paranoidChecks(true).verifyChecksums(true);
        try (DB db = LevelDbFactory.factory.open(Peers.copy(dir, "ours").toFile(), options);
             DBIterator it = db.iterator()) {
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("storeTypes")
    <S extends StateStore> void peersReadTheStoreAndTheStoreReadsWhatPeersAdd(StoreType<S> type) throws Exception {
        Peers peers = Peers.get();
        Path dir = stateDir.resolve(StoreDatabase.PARENT_DIR).resolve(type.name);
        S store = open(type);
        for (int i = 0; i < RECORDS; i++) {
            type.write(store, i);
            if (i % COMMIT_EVERY == COMMIT_EVERY - 1) {
                store.commit(Map.of(CHANGELOG, (long) i));
            }
        }
        long lastCommit = RECORDS - 1;
        store.commit(Map.of(CHANGELOG, lastCommit));
        type.database(store).compact();
        List<String> contents = type.contents(store);
        Predicate<byte[]> expired = type.expired(store);
        store.close();

        SortedMap<byte[], byte[]> ours = scan(dir);
        assertEquals(StoreDatabase.FORMAT, new String(ours.get(metaKey("format")), StandardCharsets.US_ASCII));
        assertArrayEquals(new byte[] {0}, ours.get(metaKey("status")), "closed cleanly");
        assertArrayEquals(ByteBuffer.allocate(8).putLong(lastCommit).array(),
                ours.get(metaKey("offset/" + CHANGELOG.topic() + "-" + CHANGELOG.partition())), "the committed offset");
        int data = 0;
        int metadata = 0;
        for (byte[] k : ours.keySet()) {
            if (k[0] == StoreDatabase.DATA) {
                data++;
                if (expired != null) {
                    assertTrue(!expired.test(Arrays.copyOfRange(k, 1, k.length)),
                            "the compaction filter left an expired entry: " + hex(k));
                }
            } else {
                assertEquals(0, k[0], "a key outside the two namespaces: " + hex(k));
                metadata++;
            }
        }
        assertTrue(data > 0 && !contents.isEmpty(), type + ": " + data + " data entries");
        if (expired != null) {
            assertTrue(data < RECORDS, type + ": expiry removed data (" + data + " entries left of " + RECORDS + ")");
        }

        System.out.println("interop: " + type + ": " + data + " data entries, " + metadata + " metadata entries, "
                + contents.size() + " lines of contents\n" + peers.verifyExactly(dir, ours, stateDir.resolve(type.name
                + ".recipe")));

        List<String> expected = new ArrayList<>(contents);
        for (String peer : new String[] {"cpp", "go"}) {
            byte[][] record = type.peerRecord(peer);
            Path recipe = stateDir.resolve(type.name + "-" + peer + ".recipe");
            Files.writeString(recipe, "put " + hex(concat(StoreDatabase.DATA, record[0])) + " " + hex(record[1]) + "\n",
                    StandardCharsets.US_ASCII);
            Peers.Result r = peer.equals("cpp") ? peers.cpp("update", dir.toString(), recipe.toString())
                    : peers.go("update", dir.toString(), recipe.toString());
            System.out.println("interop: " + type + ": " + peer + " " + r.expectOk().stdout().trim());
            expected.addAll(type.peerLines(peer));
            expected.sort(null);
            store = open(type);
            try {
                assertEquals(lastCommit, committedOffset(store), type + ": the committed offset after " + peer);
                assertSameLines(expected, type.contents(store), type + ": the contents after " + peer + " added a record");
            } finally {
                store.close();
            }
        }
    }

    /** Equal sorted lines, or a failure naming the first lines that differ (not thousands of lines). */
    private static void assertSameLines(List<String> expected, List<String> actual, String what) {
        List<String> missing = new ArrayList<>(expected);
        missing.removeAll(actual);
        List<String> extra = new ArrayList<>(actual);
        extra.removeAll(expected);
        assertEquals(expected.size() + " lines, missing []; extra []", actual.size() + " lines, missing "
                + missing.subList(0, Math.min(5, missing.size())) + "; extra " + extra.subList(0, Math.min(5, extra.size())),
                what);
        assertEquals(expected, actual, what);
    }

    private static byte[] metaKey(String name) {
        return concat((byte) 0, name.getBytes(StandardCharsets.US_ASCII));
    }
}
