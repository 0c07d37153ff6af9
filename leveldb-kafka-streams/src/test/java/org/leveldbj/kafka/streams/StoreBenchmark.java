package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * Our store against Kafka's RocksDB store, measured in one run: {@code put} of N records in
 * random key order, {@code get} of every key in another random order, a full {@code all()} scan,
 * {@code put} then {@code commit} of its changelog offset for up to 100,000 records (a commit per
 * record, as {@code TopologyTestDriver} makes),
 * and restoration of N changelog records in batches of 1,000 (Kafka's default poll size) into an
 * empty store, once in key order and once in random key order. Both stores are Kafka's byte-level stores with their defaults, initialized on
 * Kafka's mock context; the rounds alternate the order of the two. Prints micros per record,
 * the median of the rounds, and the ratio ours / RocksDB.
 *
 * <p>Run with {@code bin/kafka-store-bench [--records=N] [--rounds=R] [--value-size=B]}.
 */
public final class StoreBenchmark {
    private static final String[] WORKLOADS = {"put", "get", "range scan", "put+commit", "restore", "restore (random order)"};
    /** How many put+commit pairs a round makes: at most this many. */
    private static final int COMMITS = 100_000;

    private StoreBenchmark() {
    }

    private interface StoreMaker {
        KeyValueStore<Bytes, byte[]> make();
    }

    public static void main(String[] args) throws Exception {
        BenchArgs a = BenchArgs.parse(args, "records", 1_000_000L, "rounds", 3L, "value-size", 100L);
        int records = a.intValue("records");
        int valueSize = a.intValue("value-size");
        Map<String, StoreMaker> stores = new LinkedHashMap<>();
        stores.put("leveldbj", () -> new LeveldbKeyValueStore("bench"));
        stores.put("rocksdb", () -> Stores.persistentKeyValueStore("bench").get());
        System.out.printf("Kafka Streams stores: %,d records of 16-byte keys and %d-byte values, %d rounds%n",
                records, valueSize, a.intValue("rounds"));
        BenchRounds.run(stores, WORKLOADS, a.intValue("rounds"), (name, maker, round) -> {
            double[] micros = run(maker, records, valueSize, round);
            System.out.printf("round %d %-9s put %.3f  get %.3f  scan %.3f  put+commit %.3f  restore %.3f"
                    + "  restore (random order) %.3f micros/record%n",
                    round + 1, name, micros[0], micros[1], micros[2], micros[3], micros[4], micros[5]);
            return micros;
        }).printTable("micros/record");
    }

    private static byte[] key(int i) {
        return String.format("%016d", i).getBytes();
    }

    private static int[] permutation(int n, Random r) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    /** One round on one store: micros per record for each workload. */
    private static double[] run(StoreMaker maker, int records, int valueSize, int round) throws IOException {
        Random r = new Random(round);
        byte[] value = new byte[valueSize];
        r.nextBytes(value);
        double[] micros = new double[WORKLOADS.length];
        Path dir = Files.createTempDirectory("kafka-store-bench");
        try {
            MockProcessorContext<Object, Object> context = StoreFixture.context(dir.resolve("a").toFile(), new Properties());
            KeyValueStore<Bytes, byte[]> store = StoreFixture.init(maker.make(), context);
            int[] order = permutation(records, r);
            long t = System.nanoTime();
            for (int i : order) {
                store.put(Bytes.wrap(key(i)), value);
            }
            store.commit(Map.of());
            micros[0] = (System.nanoTime() - t) / 1e3 / records;
            order = permutation(records, r);
            t = System.nanoTime();
            long found = 0;
            for (int i : order) {
                if (store.get(Bytes.wrap(key(i))) != null) {
                    found++;
                }
            }
            micros[1] = (System.nanoTime() - t) / 1e3 / records;
            t = System.nanoTime();
            long scanned = 0;
            try (KeyValueIterator<Bytes, byte[]> it = store.all()) {
                while (it.hasNext()) {
                    it.next();
                    scanned++;
                }
            }
            micros[2] = (System.nanoTime() - t) / 1e3 / records;
            // A commit after every record, as TopologyTestDriver makes: put, then commit its offset.
            int commits = Math.min(records, COMMITS);
            TopicPartition changelog = new TopicPartition("bench-changelog", 0);
            t = System.nanoTime();
            for (int i = 0; i < commits; i++) {
                store.put(Bytes.wrap(key(order[i])), value);
                store.commit(Map.of(changelog, (long) i));
            }
            micros[3] = (System.nanoTime() - t) / 1e3 / commits;
            store.close();
            if (found != records || scanned != records) {
                throw new IllegalStateException("found " + found + " and scanned " + scanned + " of " + records);
            }

            int[] inOrder = new int[records];
            for (int i = 0; i < records; i++) {
                inOrder[i] = i;
            }
            micros[4] = restore(maker, dir.resolve("b"), inOrder, value);
            micros[5] = restore(maker, dir.resolve("c"), permutation(records, r), value);
        } finally {
            ScratchDirectory.delete(dir);
        }
        return micros;
    }

    /**
     * Restores a changelog into an empty store, in batches of 1,000, then commits.
     *
     * @return micros per record
     */
    private static double restore(StoreMaker maker, Path stateDir, int[] keys, byte[] value) {
        // The changelog's batches are made before the clock starts: only the store is timed.
        List<List<ConsumerRecord<byte[], byte[]>>> batches = new ArrayList<>();
        List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>(1000);
        for (int i = 0; i < keys.length; i++) {
            batch.add(new ConsumerRecord<>("bench-changelog", 0, i, key(keys[i]), value));
            if (batch.size() == 1000 || i == keys.length - 1) {
                batches.add(batch);
                batch = new ArrayList<>(1000);
            }
        }
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        StateRestoreCallback[] callback = new StateRestoreCallback[1];
        KeyValueStore<Bytes, byte[]> restored = maker.make();
        restored.init(capturing(context.getStateStoreContext(), callback), restored);
        RecordBatchingStateRestoreCallback restore = (RecordBatchingStateRestoreCallback) callback[0];
        long t = System.nanoTime();
        for (List<ConsumerRecord<byte[], byte[]>> b : batches) {
            restore.restoreBatch(b);
        }
        restored.commit(Map.of(new TopicPartition("bench-changelog", 0), (long) keys.length - 1));
        double micros = (System.nanoTime() - t) / 1e3 / keys.length;
        restored.close();
        return micros;
    }

    /** The context, recording the restore callback a store registers. */
    private static StateStoreContext capturing(StateStoreContext context, StateRestoreCallback[] callback) {
        return (StateStoreContext) Proxy.newProxyInstance(StoreBenchmark.class.getClassLoader(),
                new Class<?>[] {StateStoreContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("register")) {
                        callback[0] = (StateRestoreCallback) args[1];
                    }
                    try {
                        return method.invoke(context, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
