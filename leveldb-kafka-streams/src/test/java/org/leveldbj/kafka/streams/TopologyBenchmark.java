package org.leveldbj.kafka.streams;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;

/**
 * What a Kafka Streams DSL test costs on each store: one topology (a foreign-key join of two
 * tables, a count per key, a tumbling-window count) run by {@code TopologyTestDriver}, which
 * commits after every record, over N input records, with every DSL store from
 * {@link LeveldbDslStoreSuppliers}, from Kafka's RocksDB suppliers, and (for reference) from its
 * in-memory ones; rounds alternate the order. Prints seconds per run, the medians, and the
 * ratios to RocksDB.
 *
 * <p>Run with {@code bin/kafka-store-bench --suite=topology [--records=N] [--rounds=R]}.
 */
public final class TopologyBenchmark {
    private TopologyBenchmark() {
    }

    private static Topology topology() {
        StreamsBuilder builder = new StreamsBuilder();
        KTable<String, String> customers = builder.table("customers");
        KTable<String, String> orders = builder.table("orders");
        orders.join(customers, order -> order.split(":")[0], (order, customer) -> order + "/" + customer)
                .toStream().to("enriched");
        builder.<String, String>stream("clicks").groupByKey().count().toStream().to("click-counts");
        builder.<String, String>stream("clicks").groupByKey()
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofSeconds(10))).count()
                .toStream((w, v) -> w.key() + "@" + w.window().start()).to("windowed-counts");
        return builder.build();
    }

    private static double run(Class<?> suppliers, int records, Path dir) throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "topology-bench");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, suppliers);
        long start = System.nanoTime();
        try (TopologyTestDriver driver = new TopologyTestDriver(topology(), p)) {
            StringSerializer s = new StringSerializer();
            TestInputTopic<String, String> customers = driver.createInputTopic("customers", s, s);
            TestInputTopic<String, String> orders = driver.createInputTopic("orders", s, s);
            TestInputTopic<String, String> clicks = driver.createInputTopic("clicks", s, s);
            for (int i = 0; i < records; i++) {
                switch (i % 3) {
                    case 0 -> customers.pipeInput("c" + i % 500, "customer" + i);
                    case 1 -> orders.pipeInput("o" + i % 5_000, "c" + i % 500 + ":" + i);
                    default -> clicks.pipeInput("u" + i % 1_000, "click", (long) i * 10);
                }
            }
        }
        return (System.nanoTime() - start) / 1e9;
    }

    public static void main(String[] args) throws Exception {
        BenchArgs a = BenchArgs.parse(args, "records", 20_000L, "rounds", 3L);
        int records = a.intValue("records");
        int rounds = a.intValue("rounds");
        Map<String, Class<?>> suppliers = new LinkedHashMap<>();
        suppliers.put("leveldbj", LeveldbDslStoreSuppliers.class);
        suppliers.put("rocksdb", BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers.class);
        suppliers.put("in-memory", BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        System.out.printf("TopologyTestDriver, %,d records (a commit after each), %d rounds%n", records, rounds);
        Map<String, List<Double>> seconds = new LinkedHashMap<>();
        BenchRounds.run(suppliers, new String[] {"run"}, rounds, (name, supplier, round) -> {
            Path dir = Files.createTempDirectory("topology-bench");
            double s;
            try {
                s = run(supplier, records, dir);
            } finally {
                ScratchDirectory.delete(dir);
            }
            seconds.computeIfAbsent(name, k -> new ArrayList<>()).add(s);
            System.out.printf("round %d %-9s %.2f s%n", round + 1, name, s);
            return new double[] {s};
        });
        double rocks = BenchRounds.median(seconds.get("rocksdb"));
        System.out.println();
        System.out.println("| stores | seconds (median) | runs | ratio to RocksDB |");
        System.out.println("|---|---:|---|---:|");
        for (Map.Entry<String, List<Double>> e : seconds.entrySet()) {
            System.out.printf("| %s | %.2f | %s | %.2f |%n", e.getKey(), BenchRounds.median(e.getValue()), e.getValue(),
                    BenchRounds.median(e.getValue()) / rocks);
        }
    }
}
