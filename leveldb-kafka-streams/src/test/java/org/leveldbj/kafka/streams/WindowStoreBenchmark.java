package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.kstream.internals.SessionWindow;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.internals.InternalProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.WindowStore;
import org.apache.kafka.streams.state.WindowStoreIterator;

/**
 * Our window and session stores against Kafka's segmented RocksDB ones, measured in one run on a
 * rolling-retention workload: records arrive in time order ({@code --step-ms} apart, so the
 * run spans many retention periods and segments expire all along), keys drawn from
 * {@code --keys}. Workloads, each in micros per operation:
 * <ul>
 *   <li>{@code window put}: a put per record into its 1-minute tumbling window (retention 10
 *       minutes, so 5-minute segments), expiry included;</li>
 *   <li>{@code window fetch}: a key's windows of the last 10 minutes, once per 10 records;</li>
 *   <li>{@code window fetchAll}: every window of the last 2 minutes, once per 1,000 records
 *       (micros per window returned);</li>
 *   <li>{@code session merge}: what a session aggregation does per record (gap 5 s,
 *       retention 10 minutes): {@code findSessions} of the key around the record, removal of
 *       what it finds, a put of the merged session.</li>
 * </ul>
 * The stores are Kafka's byte-level stores with their defaults ({@code Stores.persistentWindowStore}
 * and {@code Stores.persistentSessionStore} for RocksDB), on Kafka's mock context (seen by
 * Kafka's segmented stores as the internal context they need); rounds alternate the order. It
 * also prints the bytes each store's directory holds at the end (what retention left on disk).
 *
 * <p>Run with {@code bin/kafka-store-bench --suite=window
 * [--records=N] [--rounds=R] [--keys=K] [--step-ms=S] [--value-size=B]}.
 */
public final class WindowStoreBenchmark {
    private static final String[] WORKLOADS = {"window put", "window fetch", "window fetchAll", "session merge"};
    private static final Duration RETENTION = Duration.ofMinutes(10);
    private static final long WINDOW = 60_000;
    private static final long GAP = 5_000;

    private WindowStoreBenchmark() {
    }

    /** Makes one kind's window and session stores. */
    private interface Kind {
        WindowStore<Bytes, byte[]> window();

        SessionStore<Bytes, byte[]> session();
    }

    public static void main(String[] args) throws Exception {
        BenchArgs a = BenchArgs.parse(args, "records", 1_000_000L, "rounds", 3L, "keys", 10_000L,
                "step-ms", 10L, "value-size", 100L);
        int records = a.intValue("records");
        int rounds = a.intValue("rounds");
        int keys = a.intValue("keys");
        long stepMs = a.longValue("step-ms");
        int valueSize = a.intValue("value-size");
        Map<String, Kind> kinds = new LinkedHashMap<>();
        kinds.put("leveldbj", new Kind() {
            @Override
            public WindowStore<Bytes, byte[]> window() {
                return LeveldbStores.persistentWindowStore("bench-window", RETENTION, Duration.ofMillis(WINDOW), false).get();
            }

            @Override
            public SessionStore<Bytes, byte[]> session() {
                return LeveldbStores.persistentSessionStore("bench-session", RETENTION).get();
            }
        });
        kinds.put("rocksdb", new Kind() {
            @Override
            public WindowStore<Bytes, byte[]> window() {
                return Stores.persistentWindowStore("bench-window", RETENTION, Duration.ofMillis(WINDOW), false).get();
            }

            @Override
            public SessionStore<Bytes, byte[]> session() {
                return Stores.persistentSessionStore("bench-session", RETENTION).get();
            }
        });
        System.out.printf("Kafka Streams window/session stores: %,d records, %,d keys, %d ms apart (%.1f retention periods),"
                + " %d-byte values, %d rounds%n", records, keys, stepMs, (double) records * stepMs / RETENTION.toMillis(),
                valueSize, rounds);
        BenchRounds.run(kinds, WORKLOADS, rounds, (name, kind, round) -> run(kind, records, keys, stepMs, valueSize, round, name))
                .printTable("micros/op");
    }

    private static Bytes key(int i) {
        return Bytes.wrap(String.format("key-%08d", i).getBytes());
    }

    /** One round on one kind: micros per operation for each workload. */
    static double[] run(Kind kind, int records, int keys, long stepMs, int valueSize, int round, String name)
            throws IOException {
        Random r = new Random(round);
        byte[] value = new byte[valueSize];
        r.nextBytes(value);
        double[] micros = new double[WORKLOADS.length];
        Path dir = Files.createTempDirectory("kafka-window-bench");
        try {
            MockProcessorContext<Object, Object> context = StoreFixture.context(dir.toFile(), new Properties());
            StateStoreContext internal = internal(context);
            WindowStore<Bytes, byte[]> window = kind.window();
            window.init(internal, window);
            long putNanos = 0;
            long fetchNanos = 0;
            long fetches = 0;
            long fetchAllNanos = 0;
            long fetchedAll = 0;
            for (int i = 0; i < records; i++) {
                long ts = i * stepMs;
                Bytes k = key(r.nextInt(keys));
                long t = System.nanoTime();
                window.put(k, value, ts - ts % WINDOW);
                putNanos += System.nanoTime() - t;
                if (i % 10 == 0) {
                    t = System.nanoTime();
                    try (WindowStoreIterator<byte[]> it = window.fetch(key(r.nextInt(keys)), ts - RETENTION.toMillis(), ts)) {
                        while (it.hasNext()) {
                            it.next();
                        }
                    }
                    fetchNanos += System.nanoTime() - t;
                    fetches++;
                }
                if (i % 1000 == 999) {
                    t = System.nanoTime();
                    try (KeyValueIterator<Windowed<Bytes>, byte[]> it = window.fetchAll(ts - 120_000, ts)) {
                        while (it.hasNext()) {
                            it.next();
                            fetchedAll++;
                        }
                    }
                    fetchAllNanos += System.nanoTime() - t;
                }
            }
            window.commit(Map.of());
            micros[0] = putNanos / 1e3 / records;
            micros[1] = fetchNanos / 1e3 / Math.max(1, fetches);
            micros[2] = fetchAllNanos / 1e3 / Math.max(1, fetchedAll);
            window.close();

            SessionStore<Bytes, byte[]> session = kind.session();
            session.init(internal, session);
            long mergeNanos = 0;
            for (int i = 0; i < records; i++) {
                long ts = i * stepMs;
                Bytes k = key(r.nextInt(keys));
                long t = System.nanoTime();
                long start = ts;
                long end = ts;
                List<Windowed<Bytes>> merged = new ArrayList<>();
                try (KeyValueIterator<Windowed<Bytes>, byte[]> it = session.findSessions(k, ts - GAP, ts + GAP)) {
                    while (it.hasNext()) {
                        Windowed<Bytes> s = it.next().key;
                        merged.add(s);
                        start = Math.min(start, s.window().start());
                        end = Math.max(end, s.window().end());
                    }
                }
                for (Windowed<Bytes> s : merged) {
                    session.remove(s);
                }
                session.put(new Windowed<>(k, new SessionWindow(start, end)), value);
                mergeNanos += System.nanoTime() - t;
            }
            session.commit(Map.of());
            micros[3] = mergeNanos / 1e3 / records;
            session.close();
            System.out.printf("round %d %-9s put %.3f  fetch %.3f  fetchAll %.3f  session merge %.3f micros/op;"
                    + " %,d bytes on disk at the end%n", round + 1, name, micros[0], micros[1], micros[2], micros[3],
                    bytes(dir));
        } finally {
            ScratchDirectory.delete(dir);
        }
        return micros;
    }

    private static long bytes(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }

    /**
     * The mock context's store context, seen as Kafka's internal processor context (which Kafka's
     * segmented RocksDB stores require): the store context's methods go to it, the system time is
     * the clock's, and the other internal methods do nothing.
     */
    static StateStoreContext internal(MockProcessorContext<Object, Object> context) {
        StateStoreContext stores = context.getStateStoreContext();
        return (StateStoreContext) Proxy.newProxyInstance(WindowStoreBenchmark.class.getClassLoader(),
                new Class<?>[] {InternalProcessorContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("currentSystemTimeMs")) {
                        return System.currentTimeMillis();
                    }
                    if (method.getDeclaringClass() == Object.class) {
                        return method.getName().equals("equals") ? proxy == args[0]
                                : method.getName().equals("hashCode") ? System.identityHashCode(proxy) : "internal context";
                    }
                    Method target = find(StateStoreContext.class, method);
                    if (target == null) {
                        target = find(org.apache.kafka.streams.processor.api.ProcessorContext.class, method);
                        if (target != null) {
                            return invoke(target, context, args);
                        }
                        Class<?> type = method.getReturnType();
                        return type == boolean.class ? false : type == long.class ? 0L : type == int.class ? 0 : null;
                    }
                    return invoke(target, stores, args);
                });
    }

    private static Method find(Class<?> type, Method method) {
        try {
            return type.getMethod(method.getName(), method.getParameterTypes());
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Object invoke(Method m, Object target, Object[] args) throws Throwable {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
