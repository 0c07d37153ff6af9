package org.leveldbj.kafka.streams;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.JoinWindows;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.StreamJoined;
import org.apache.kafka.streams.kstream.TimeWindows;

/**
 * The application of {@link ClusterFailoverTest}: exactly-once, no record cache, every store
 * leveldbj's by the one line {@code dsl.store.suppliers.class} (and the versioned table's by
 * naming its supplier, as Kafka requires). It counts each key's events (a key-value store),
 * counts them in tumbling windows (a window store) and in sessions (a session store), joins the
 * events with clicks of the same key at most {@link #JOIN_DIFFERENCE} apart (two window stores
 * keeping duplicates), and joins each event with its key's plan as of the event's time (a
 * versioned table). Run as {@code main(bootstrap, stateDir)} it is an instance in a process of
 * its own, which prints {@value #RUNNING} once it runs and then waits to be killed.
 */
final class FailoverApp {
    /** What an instance run as a process prints once it runs. */
    static final String RUNNING = "running";
    static final String EVENTS = "events";
    static final String CLICKS = "clicks";
    static final String COUNTS_OUT = "counts-out";
    static final String WINDOWED_OUT = "windowed-out";
    static final String JOINED_OUT = "joined-out";
    static final String PLANS = "plans";
    static final String SESSIONS_OUT = "sessions-out";
    static final String ENRICHED_OUT = "enriched-out";
    static final Duration SESSION_GAP = Duration.ofMillis(100);
    static final long WINDOW_MS = 500;
    static final int COMMIT_INTERVAL_MS = 100;
    static final Duration JOIN_DIFFERENCE = Duration.ofMillis(50);
    /** Longer than the input spans: no record is late, so every output is fixed by the input. */
    private static final Duration GRACE = Duration.ofHours(1);

    private FailoverApp() {
    }

    static Properties config(String bootstrap, Path stateDir) {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "leveldbj-failover");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        p.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 1);
        p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, COMMIT_INTERVAL_MS);
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, LeveldbDslStoreSuppliers.class);
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
        KStream<String, String> events = builder.stream(EVENTS);
        events.groupByKey()
                .count(Materialized.as("counts"))
                .toStream()
                .to(COUNTS_OUT, Produced.with(Serdes.String(), Serdes.Long()));
        events.groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(WINDOW_MS), GRACE))
                .count(Materialized.as("windowed-counts"))
                .toStream((window, count) -> windowedKey(window.key(), window.window().start()))
                .to(WINDOWED_OUT, Produced.with(Serdes.String(), Serdes.Long()));
        events.join(builder.<String, String>stream(CLICKS), FailoverApp::joined,
                        JoinWindows.ofTimeDifferenceAndGrace(JOIN_DIFFERENCE, GRACE), StreamJoined.as("joins"))
                .to(JOINED_OUT);
        events.groupByKey()
                .windowedBy(SessionWindows.ofInactivityGapAndGrace(SESSION_GAP, GRACE))
                .count(Materialized.as("session-counts"))
                .toStream((session, count) -> sessionKey(session.key(), session.window().start(), session.window().end()))
                .to(SESSIONS_OUT, Produced.with(Serdes.String(), Serdes.Long()));
        KTable<String, String> plans = builder.table(PLANS, Materialized.<String, String>as(
                LeveldbStores.persistentVersionedKeyValueStore("plans", GRACE)));
        events.join(plans, FailoverApp::enriched).to(ENRICHED_OUT);
        return new KafkaStreams(builder.build(), config(bootstrap, stateDir));
    }

    /** The output key of a key's count in the window starting at {@code start}. */
    static String windowedKey(String key, long start) {
        return key + "@" + start;
    }

    /** The output key of a key's count in the session from {@code start} to {@code end}. */
    static String sessionKey(String key, long start, long end) {
        return key + "@" + start + "-" + end;
    }

    /** The output value of an event joined with its key's plan. */
    static String enriched(String event, String plan) {
        return event + "@" + plan;
    }

    /** The output value of an event joined with a click. */
    static String joined(String event, String click) {
        return event + "+" + click;
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
