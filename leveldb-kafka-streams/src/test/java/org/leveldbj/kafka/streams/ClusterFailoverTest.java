package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two instances of one Kafka Streams application ({@link FailoverApp}), exactly-once, every store
 * leveldbj's through {@link LeveldbDslStoreSuppliers}, on a real KRaft broker started in this JVM
 * (Kafka's cluster test kit): a count per key, a count per key and tumbling window, a count per
 * key and session, a stream-stream join, and a join with a versioned table. One instance runs in a process of its own and is killed mid-stream
 * (SIGKILL: nothing is flushed or closed); the survivor takes over its partitions and restores
 * their stores from the changelogs into its own leveldbj stores. Every output is then exact: each
 * count and windowed count appears once per input record, in order, with no gap or repeat, and the
 * join emits each matching pair exactly once (read committed); each session's final count is
 * exact; each event is joined once with its key's plan as of its time; the survivor's stores
 * hold the exact counts. Then both restart on their old state directories: the killed one's stores are
 * rebuilt where they were found open, the one closed cleanly resumes restoration from the offsets
 * its stores committed rather than from the start of the changelog, and no state directory holds
 * a RocksDB file.
 */
class ClusterFailoverTest {
    private static final int PARTITIONS = 4;
    private static final List<String> TOPICS = List.of(FailoverApp.EVENTS, FailoverApp.CLICKS, FailoverApp.PLANS,
            FailoverApp.COUNTS_OUT, FailoverApp.WINDOWED_OUT, FailoverApp.JOINED_OUT, FailoverApp.SESSIONS_OUT,
            FailoverApp.ENRICHED_OUT);

    @TempDir
    Path tmp;

    private static KafkaStreams instance(String bootstrap, Path stateDir) {
        return FailoverApp.instance(bootstrap, stateDir);
    }

    /** How many of the counts changelog's partitions hold committed records. */
    private static int committedChangelogRecords(Admin admin) {
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
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

    /** A store's contents through interactive queries, or null while it cannot be read (rebalancing). */
    private static <K, V> Map<String, Long> contents(Supplier<KeyValueIterator<K, Long>> all, Function<K, String> key) {
        Map<String, Long> seen = new TreeMap<>();
        try (KeyValueIterator<K, Long> it = all.get()) {
            it.forEachRemaining(kv -> seen.put(key.apply(kv.key), kv.value));
        } catch (RuntimeException e) {
            return null;
        }
        return seen;
    }

    private static StateRestoreListener restoreListener(AtomicLong restored, List<Long> starts) {
        return new StateRestoreListener() {
            @Override
            public void onRestoreStart(TopicPartition partition, String store, long startOffset, long endOffset) {
                starts.add(startOffset);
            }

            @Override
            public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
                restored.addAndGet(numRestored);
            }

            @Override
            public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
            }
        };
    }

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    @SuppressWarnings("try") // the cluster's close() may throw InterruptedException: the test fails then
    void theSurvivorRestoresFromTheChangelogsAndEveryOutputIsExact() throws Exception {
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
                admin.createTopics(TOPICS.stream().map(t -> new NewTopic(t, PARTITIONS, (short) 1)).toList()).all().get();
            }
            Properties producerConfig = new Properties();
            producerConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
            producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
            FailoverInput input = new FailoverInput(System.currentTimeMillis() / FailoverApp.WINDOW_MS * FailoverApp.WINDOW_MS);
            assertTrue(input.joins().size() > FailoverInput.CLICKS && input.windowedCounts().size() > input.counts().size(),
                    "the input makes several joins per click and several windows per key");

            KafkaStreams second = instance(bootstrap, tmp.resolve("state-2"));
            AtomicLong restored = new AtomicLong();
            second.setGlobalStateRestoreListener(restoreListener(restored, new CopyOnWriteArrayList<>()));
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(), new StringSerializer())) {
                input.producePlans(producer);
                second.start();
                Process first = killableInstance(bootstrap, tmp.resolve("state-1"));
                await("both instances running, with the tasks shared", 90_000, () -> second.state() == KafkaStreams.State.RUNNING
                        && activeTasks(second) > 0 && activeTasks(second) < PARTITIONS);
                input.produce(producer, 0, 1, 4);
                // Let both instances process (and commit) part of the stream, then kill one while
                // it processes more: its stores are neither flushed nor closed, and its open
                // transaction is aborted.
                try (Admin admin = cluster.admin()) {
                    await("every partition's counts committed to the changelog", 90_000,
                            () -> committedChangelogRecords(admin) == PARTITIONS);
                }
                input.produce(producer, 1, 2, 4);
                Thread.sleep(FailoverApp.COMMIT_INTERVAL_MS * 3 / 2);
                first.destroyForcibly();
                assertTrue(first.waitFor(30, TimeUnit.SECONDS), "the killed instance's process ended");
                input.produce(producer, 2, 4, 4);

                await("the survivor running alone", 90_000, () -> second.state() == KafkaStreams.State.RUNNING);
                ReadOnlyKeyValueStore<String, Long> counts = second.store(
                        StoreQueryParameters.fromNameAndType("counts", QueryableStoreTypes.keyValueStore()));
                ReadOnlyWindowStore<String, Long> windowed = second.store(
                        StoreQueryParameters.fromNameAndType("windowed-counts", QueryableStoreTypes.windowStore()));
                await("every count in the survivor's stores", 90_000,
                        () -> input.counts().equals(contents(counts::all, k -> k))
                                && input.windowedCounts().equals(contents(windowed::all,
                                        w -> FailoverApp.windowedKey(w.key(), w.window().start()))));
            } finally {
                second.close(Duration.ofSeconds(30));
            }
            assertTrue(restored.get() > 0, "the survivor restored the stopped instance's stores from the changelogs");

            // The killed instance comes back on its old state directory (under exactly-once a store
            // found open is rebuilt), and the survivor, closed cleanly, comes back on its own: its
            // restoration resumes from the offsets its stores committed.
            KafkaStreams restarted = instance(bootstrap, tmp.resolve("state-1"));
            KafkaStreams survivor = instance(bootstrap, tmp.resolve("state-2"));
            List<Long> restoreStarts = new CopyOnWriteArrayList<>();
            survivor.setGlobalStateRestoreListener(restoreListener(new AtomicLong(), restoreStarts));
            try {
                survivor.start();
                restarted.start();
                await("the restarted instance running", 90_000, () -> restarted.state() == KafkaStreams.State.RUNNING
                        && survivor.state() == KafkaStreams.State.RUNNING && !restoreStarts.isEmpty());
                assertTrue(restoreStarts.stream().anyMatch(offset -> offset > 0),
                        "restoration resumed from the offsets committed in a reused store: starts " + restoreStarts);
                for (Path stateDir : List.of(tmp.resolve("state-1"), tmp.resolve("state-2"))) {
                    assertEquals(List.of(), StateDirectoryFiles.rocksDbFiles(stateDir), "no RocksDB file in " + stateDir);
                }
            } finally {
                restarted.close(Duration.ofSeconds(30));
                survivor.close(Duration.ofSeconds(30));
            }
            FailoverOutputs outputs = FailoverOutputs.read(bootstrap, input, Duration.ofSeconds(60));
            assertEquals(input.counts(), outputs.counts(), "the final counts in the output topic");
            assertEquals(input.windowedCounts(), outputs.windowedCounts(), "the final windowed counts in the output topic");
            assertEquals(FailoverInput.EVENTS, outputs.countRecords(), "one committed count per event");
            assertEquals(FailoverInput.EVENTS, outputs.windowedCountRecords(), "one committed windowed count per event");
            assertEquals(List.of(), outputs.repeatedJoins(), "join results emitted more than once");
            assertEquals(input.joins(), outputs.joins(), "the join's results");
            assertEquals(input.sessionCounts(), outputs.sessionCounts(), "the final session counts in the output topic");
            assertEquals(List.of(), outputs.repeatedEnriched(), "events joined with their plan more than once");
            assertEquals(input.enriched(), outputs.enriched(), "each event joined with its key's plan as of its time");
        }
    }
}
