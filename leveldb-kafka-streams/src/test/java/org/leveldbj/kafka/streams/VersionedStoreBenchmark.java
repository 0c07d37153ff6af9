package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.function.LongFunction;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.VersionedBytesStore;

/**
 * Our versioned store against Kafka's RocksDB versioned store, measured in one run, on Kafka's
 * mock context, both with their defaults: N puts over K keys in time order (one version per
 * millisecond, so N/K versions per key, the history retention covering the newest half), N puts
 * out of order (timestamps up to a quarter of the retention late), then N {@code get(key)} of
 * random keys, and N {@code get(key, asOf)} of random keys at random times within the history
 * retention. The rounds alternate the order of the two stores. Prints micros per operation, the
 * median of the rounds, and the ratio ours / RocksDB with its spread over the rounds.
 *
 * <p>Run: {@code bin/kafka-store-bench --suite=versioned
 * [--records=N] [--keys=K] [--rounds=R] [--value-size=B]}.
 */
public final class VersionedStoreBenchmark {
    private static final String[] WORKLOADS = {"put in order", "put out of order", "get latest", "get as of"};

    private VersionedStoreBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchArgs a = BenchArgs.parse(args, "records", 500_000L, "keys", 50_000L, "rounds", 3L, "value-size", 100L);
        int records = a.intValue("records");
        int keys = a.intValue("keys");
        int valueSize = a.intValue("value-size");
        long retention = records / 2;
        Map<String, LongFunction<VersionedBytesStore>> stores = new LinkedHashMap<>();
        stores.put("leveldbj", r -> (VersionedBytesStore) LeveldbStores.persistentVersionedKeyValueStore("bench",
                Duration.ofMillis(r)).get());
        stores.put("rocksdb", r -> (VersionedBytesStore) Stores.persistentVersionedKeyValueStore("bench",
                Duration.ofMillis(r)).get());
        System.out.printf("Kafka Streams versioned stores: %,d puts over %,d keys (16-byte keys, %d-byte values),"
                + " history retention %,d ms, %d rounds%n", records, keys, valueSize, retention, a.intValue("rounds"));
        BenchRounds.run(stores, WORKLOADS, a.intValue("rounds"), (name, maker, round) -> {
            double[] micros = run(maker, records, keys, valueSize, retention, round);
            System.out.printf("round %d %-9s put %.3f  put late %.3f  get %.3f  get as of %.3f micros/op%n",
                    round + 1, name, micros[0], micros[1], micros[2], micros[3]);
            return micros;
        }).printTable("micros/op");
    }

    private static Bytes key(int i) {
        return Bytes.wrap(String.format("%016d", i).getBytes());
    }

    /** One round on one store: micros per operation for each workload. */
    private static double[] run(LongFunction<VersionedBytesStore> maker, int records, int keys, int valueSize,
                                long retention, int round) throws IOException {
        Random r = new Random(round);
        byte[] value = new byte[valueSize];
        r.nextBytes(value);
        double[] micros = new double[WORKLOADS.length];
        Path dir = Files.createTempDirectory("kafka-versioned-bench");
        try {
            MockProcessorContext<Object, Object> context = StoreFixture.context(dir.toFile(), new Properties());
            VersionedBytesStore store = StoreFixture.init(maker.apply(retention), context);
            Bytes[] keyBytes = new Bytes[keys];
            for (int i = 0; i < keys; i++) {
                keyBytes[i] = key(i);
            }
            long t = System.nanoTime();
            for (int i = 0; i < records; i++) {
                store.put(keyBytes[r.nextInt(keys)], value, i);
            }
            store.commit(Map.of());
            micros[0] = (System.nanoTime() - t) / 1e3 / records;
            long streamTime = records - 1;
            t = System.nanoTime();
            long notPut = 0;
            for (int i = 0; i < records; i++) {
                long ts = records + i - r.nextInt((int) Math.max(1, retention / 4));
                if (store.put(keyBytes[r.nextInt(keys)], value, ts) == Long.MIN_VALUE) {
                    notPut++;
                }
            }
            store.commit(Map.of());
            micros[1] = (System.nanoTime() - t) / 1e3 / records;
            streamTime += records;
            t = System.nanoTime();
            long found = 0;
            for (int i = 0; i < records; i++) {
                if (store.get(keyBytes[r.nextInt(keys)]) != null) {
                    found++;
                }
            }
            micros[2] = (System.nanoTime() - t) / 1e3 / records;
            t = System.nanoTime();
            long foundAsOf = 0;
            for (int i = 0; i < records; i++) {
                long asOf = streamTime - r.nextInt((int) Math.max(1, retention));
                if (store.get(keyBytes[r.nextInt(keys)], asOf) != null) {
                    foundAsOf++;
                }
            }
            micros[3] = (System.nanoTime() - t) / 1e3 / records;
            store.close();
            if (notPut != 0 || found == 0 || foundAsOf == 0) {
                throw new IllegalStateException("not put " + notPut + ", found " + found + ", found as of " + foundAsOf);
            }
        } finally {
            ScratchDirectory.delete(dir);
        }
        return micros;
    }
}
