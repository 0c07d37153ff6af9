package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
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
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of one Kafka Streams application ({@link FailoverApp}), exactly-once, counting
 * per key in leveldbj stores on a real KRaft broker started in this JVM (Kafka's cluster test
 * kit). One instance runs in a process of its own and is killed mid-stream (SIGKILL: nothing is
 * flushed or closed); the survivor takes over its partitions, restores their counts from the
 * changelog into its own leveldbj store, and the final counts are exactly right, in the output
 * topic (read committed) and in the survivor's store. Then both restart on their old state
 * directories: the killed one's stores are rebuilt where they were found open, and the one
 * closed cleanly resumes restoration from the offsets its stores committed rather than from the
 * start of the changelog.
 */
class ClusterFailoverTest {
    private static final int KEYS = 40;
    private static final int RECORDS = 4000;
    private static final int PARTITIONS = 4;

    @TempDir
    Path tmp;

    private static KafkaStreams instance(String bootstrap, Path stateDir) {
        return FailoverApp.instance(bootstrap, stateDir);
    }

    /** How many of the counts changelog's partitions hold committed records. */
    private static int committedChangelogRecords(Admin admin) {
        Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
        for (int p = 0; p < PARTITIONS; p++) {
            latest.put(new TopicPartition("leveldbj-failover-counts-changelog", p), OffsetSpec.latest());
        }
        try {
            return (int) admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all().get()
                    .values().stream().filter(info -> info.offset() > 0).count();
        } catch (Exception e) {
            return 0; // the topic is not there yet: ask again
        }
    }

    private static int activeTasks(KafkaStreams streams) {
        return streams.metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
    }

    /** Starts an instance in a process of its own and waits until it runs. */
    private static Process killableInstance(String bootstrap, Path stateDir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process child = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                FailoverApp.class.getName(), bootstrap, stateDir.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.equals(FailoverApp.RUNNING)) {
            // the instance's own output
        }
        if (line == null) {
            throw new AssertionError("the instance process ended before it ran: exit " + child.waitFor());
        }
        return child;
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
                second.start();
                Process first = killableInstance(bootstrap, tmp.resolve("state-1"));
                await("both instances running, with the tasks shared", 90_000, () -> second.state() == KafkaStreams.State.RUNNING
                        && activeTasks(second) > 0 && activeTasks(second) < PARTITIONS);
                produce(producer, 0, RECORDS / 2, expected);
                // Let both instances process (and commit) part of the stream, then kill one: its
                // stores are neither flushed nor closed.
                try (Admin admin = cluster.admin()) {
                    await("every partition's counts committed to the changelog", 90_000,
                            () -> committedChangelogRecords(admin) == PARTITIONS);
                }
                first.destroyForcibly();
                assertTrue(first.waitFor(30, TimeUnit.SECONDS), "the killed instance's process ended");
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
                second.close(Duration.ofSeconds(30));
            }
            assertTrue(restored.get() > 0, "the survivor restored the stopped instance's counts from the changelog");

            // The killed instance comes back on its old state directory (under exactly-once a store
            // found open is rebuilt), and the survivor, closed cleanly, comes back on its own: its
            // restoration resumes from the offsets its stores committed.
            KafkaStreams restarted = instance(bootstrap, tmp.resolve("state-1"));
            KafkaStreams survivor = instance(bootstrap, tmp.resolve("state-2"));
            List<Long> restoreStarts = new java.util.concurrent.CopyOnWriteArrayList<>();
            survivor.setGlobalStateRestoreListener(new StateRestoreListener() {
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
                        "restoration resumed from the offsets committed in a reused store: starts " + restoreStarts);
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
