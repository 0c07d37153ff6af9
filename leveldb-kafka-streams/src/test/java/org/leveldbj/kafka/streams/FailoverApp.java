package org.leveldbj.kafka.streams;

import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The application of {@link ClusterFailoverTest}: exactly-once, no record cache, counting per key
 * in leveldbj stores. Run as {@code main(bootstrap, stateDir)} it is an instance in a process of
 * its own, which prints {@value #RUNNING} once it runs and then waits to be killed.
 */
final class FailoverApp {
    /** What an instance run as a process prints once it runs. */
    static final String RUNNING = "running";

    private FailoverApp() {
    }

    static Properties config(String bootstrap, Path stateDir) {
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

    static KafkaStreams instance(String bootstrap, Path stateDir) {
        StreamsBuilder builder = new StreamsBuilder();
        builder.<String, String>stream("events")
                .groupByKey()
                .count(Materialized.as(LeveldbStores.persistentTimestampedKeyValueStore("counts")))
                .toStream()
                .to("counts-out", Produced.with(Serdes.String(), Serdes.Long()));
        return new KafkaStreams(builder.build(), config(bootstrap, stateDir));
    }

    /**
     * Runs one instance until the process is killed.
     *
     * @param args the bootstrap servers and the state directory
     */
    public static void main(String[] args) throws InterruptedException {
        KafkaStreams streams = instance(args[0], Path.of(args[1]));
        CountDownLatch running = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                running.countDown();
            }
        });
        streams.start();
        running.await();
        System.out.println(RUNNING);
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
