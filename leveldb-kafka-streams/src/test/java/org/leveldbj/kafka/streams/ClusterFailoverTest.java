package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of one Kafka Streams application, exactly-once, counting per key in leveldbj
 * stores on a real KRaft broker started in this JVM (Kafka's cluster test kit). One instance
 * stops mid-stream; the survivor takes over its partitions, restores their counts from the
 * changelog into its own leveldbj store, and the final counts are exactly right, in the output
 * topic (read committed) and in the survivor's store. Then the stopped instance restarts on
 * its old state directory: its stores are reused, so restoration starts from its checkpoint
 * rather than from the start of the changelog.
 */
class ClusterFailoverTest {
    private static final int KEYS = 40;
    private static final int RECORDS = 4000;
    private static final int PARTITIONS = 4;

    @TempDir
    Path tmp;

    private static Properties streamsConfig(String bootstrap, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "leveldbj-failover");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        // No record cache: every update reaches the store and the output, so the output must hold
        // each count exactly once.
        p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
        p.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), 10_000);
        p.put(StreamsConfig.consumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "earliest");
        // A restarted instance with local state gets its tasks back at once (no warm-up phase).
        p.put(StreamsConfig.ACCEPTABLE_RECOVERY_LAG_CONFIG, Long.MAX_VALUE);
        return p;
    }

    private static KafkaStreams instance(String bootstrap, Path stateDir) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream("events")
                .groupByKey()
                .count(Materialized.as(LeveldbStores.persistentTimestampedKeyValueStore("counts")))
                .toStream()
                .to("counts-out", Produced.with(Serdes.String(), Serdes.Long()));
        return new KafkaStreams(builder.build(), streamsConfig(bootstrap, stateDir));
    }

    private static void await(String what, long timeoutMillis, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }

    private static void produce(KafkaProducer<String, String> producer, int from, int to, Map<String, Long> expected) {
        for (int i = from; i < to; i++) {
            String key = "key" + (i * 7 % KEYS);
            producer.send(new ProducerRecord<>("events", key, "e" + i));
            expected.merge(key, 1L, Long::sum);
        }
        producer.flush();
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    @SuppressWarnings("try") // the cluster's close() may throw InterruptedException: the test fails then
    void theSurvivorRestoresFromTheChangelogAndTheCountsAreExact() throws Exception {
        TestKitNodes nodes = new TestKitNodes.Builder().setCombined(true).setNumBrokerNodes(1)
                .setNumControllerNodes(1).setBaseDirectory(tmp.resolve("kafka")).build();
        try (KafkaClusterTestKit cluster = new KafkaClusterTestKit.Builder(nodes)
                .setConfigProp("offsets.topic.replication.factor", "1")
                .setConfigProp("transaction.state.log.replication.factor", "1")
                .setConfigProp("transaction.state.log.min.isr", "1")
                .setConfigProp("group.initial.rebalance.delay.ms", "0")
                .build()) {
            cluster.format();
            cluster.startup();
            cluster.waitForReadyBrokers();
            String bootstrap = cluster.bootstrapServers();
            try (Admin admin = cluster.admin()) {
                admin.createTopics(List.of(new NewTopic("events", PARTITIONS, (short) 1),
                        new NewTopic("counts-out", PARTITIONS, (short) 1))).all().get();
            }
            Properties producerConfig = new Properties();
            producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
            Map<String, Long> expected = new TreeMap<>();

            KafkaStreams first = instance(bootstrap, tmp.resolve("state-1"));
            KafkaStreams second = instance(bootstrap, tmp.resolve("state-2"));
            AtomicLong restored = new AtomicLong();
            second.setGlobalStateRestoreListener(new StateRestoreListener() {
                @Override
                public void onRestoreStart(TopicPartition partition, String store, long startOffset, long endOffset) {
                }

                @Override
                public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
                    restored.addAndGet(numRestored);
                }

                @Override
                public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
                }
            });
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer())) {
                first.start();
                second.start();
                await("both instances running", 90_000, () -> first.state() == KafkaStreams.State.RUNNING
                        && second.state() == KafkaStreams.State.RUNNING);
                produce(producer, 0, RECORDS / 2, expected);
                // Let both instances process (and commit) part of the stream, then stop one.
                Thread.sleep(2_000);
                first.close(Duration.ofSeconds(30));
                produce(producer, RECORDS / 2, RECORDS, expected);

                await("the survivor running alone", 90_000, () -> second.state() == KafkaStreams.State.RUNNING);
                ReadOnlyKeyValueStore<String, Long> counts = second.store(
                        StoreQueryParameters.fromNameAndType("counts", QueryableStoreTypes.keyValueStore()));
                await("every count in the survivor's store", 90_000, () -> {
                    Map<String, Long> seen = new TreeMap<>();
                    try (var it = counts.all()) {
                        it.forEachRemaining(kv -> seen.put(kv.key, kv.value));
                    } catch (RuntimeException e) {
                        return false; // rebalancing: ask again
                    }
                    return seen.equals(expected);
                });
            } finally {
                first.close(Duration.ofSeconds(30));
                second.close(Duration.ofSeconds(30));
            }
            assertTrue(restored.get() > 0, "the survivor restored the stopped instance's counts from the changelog");

            // The first instance comes back on its old state directory, and the survivor leaves.
            KafkaStreams restarted = instance(bootstrap, tmp.resolve("state-1"));
            KafkaStreams survivor = instance(bootstrap, tmp.resolve("state-2"));
            List<Long> restoreStarts = new java.util.concurrent.CopyOnWriteArrayList<>();
            restarted.setGlobalStateRestoreListener(new StateRestoreListener() {
                @Override
                public void onRestoreStart(TopicPartition partition, String store, long startOffset, long endOffset) {
                    restoreStarts.add(startOffset);
                }

                @Override
                public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
                }

                @Override
                public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
                }
            });
            try {
                survivor.start();
                restarted.start();
                await("the restarted instance running", 90_000, () -> restarted.state() == KafkaStreams.State.RUNNING
                        && survivor.state() == KafkaStreams.State.RUNNING && !restoreStarts.isEmpty());
                assertTrue(restoreStarts.stream().anyMatch(offset -> offset > 0),
                        "restoration resumed from a checkpoint of a reused store directory: starts " + restoreStarts);
            } finally {
                restarted.close(Duration.ofSeconds(30));
                survivor.close(Duration.ofSeconds(30));
            }

            Properties consumerConfig = new Properties();
            consumerConfig.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "verifier");
            consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            Map<String, Long> last = new TreeMap<>();
            long records = 0;
            try (KafkaConsumer<String, Long> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(), new LongDeserializer())) {
                consumer.subscribe(List.of("counts-out"));
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!last.equals(expected) && System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, Long> r : consumer.poll(Duration.ofMillis(500))) {
                        Long previous = last.put(r.key(), r.value());
                        assertTrue(previous == null || r.value() == previous + 1,
                                r.key() + ": count " + r.value() + " after " + previous + " (exactly once: no gap, no repeat)");
                        records++;
                    }
                }
            }
            assertEquals(expected, last, "the final counts in the output topic");
            assertEquals(RECORDS, records, "one committed output record per input record");
        }
    }
}
