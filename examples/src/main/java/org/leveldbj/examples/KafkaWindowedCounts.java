package org.leveldbj.examples;

import java.time.Duration;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.leveldbj.kafka.streams.LeveldbStores;

// The rest runs the topology on Kafka's TopologyTestDriver, without a broker.
import java.io.File;
import java.time.Instant;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.SessionStore;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.apache.kafka.streams.state.WindowStore;

/**
 * Kafka Streams windowed counts whose windows live in leveldbj stores: clicks per user per
 * minute in a window store ({@code LeveldbStores.persistentTimestampedWindowStore}) and per
 * session (30 seconds of inactivity closes one) in a session store
 * ({@code LeveldbStores.persistentSessionStore}), instead of RocksDB, run on
 * {@code TopologyTestDriver} so that no broker is needed.
 *
 * <p>Run: {@code KafkaWindowedCounts [directory]}; the state directory is {@code directory/state}.
 */
public final class KafkaWindowedCounts {
    private KafkaWindowedCounts() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to keep the state directory in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, KafkaWindowedCounts::run);
    }

    static void run(File dir) {
        Duration minute = Duration.ofMinutes(1);
        Duration grace = Duration.ofSeconds(30);
        StreamsBuilder builder = new StreamsBuilder();
        KStream<String, String> clicks = builder.stream("clicks");
        clicks.groupByKey()
              .windowedBy(TimeWindows.ofSizeAndGrace(minute, grace))
              // was: .count(Materialized.as("per-minute")), a RocksDB window store
              .count(Materialized.as(LeveldbStores.persistentTimestampedWindowStore("per-minute",
                      Duration.ofHours(1), minute, false)));
        clicks.groupByKey()
              .windowedBy(SessionWindows.ofInactivityGapAndGrace(Duration.ofSeconds(30), grace))
              // was: .count(Materialized.as("sessions")), a RocksDB session store
              .count(Materialized.as(LeveldbStores.persistentSessionStore("sessions", Duration.ofHours(1))));

        Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "windowed-counts");
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");   // never contacted
        config.put(StreamsConfig.STATE_DIR_CONFIG, new File(dir, "state").toString());
        config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        config.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
        try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config)) {
            TestInputTopic<String, String> in =
                    driver.createInputTopic("clicks", new StringSerializer(), new StringSerializer());
            Instant t0 = Instant.parse("2026-01-01T12:00:00Z");
            in.pipeInput("bob", "click", t0.plusSeconds(5));
            for (int second : new int[] {0, 10, 20, 70, 200, 215}) {
                in.pipeInput("ada", "click", t0.plusSeconds(second));
            }

            WindowStore<String, ValueAndTimestamp<Long>> perMinute = driver.getTimestampedWindowStore("per-minute");
            try (KeyValueIterator<Windowed<String>, ValueAndTimestamp<Long>> it =
                         perMinute.fetchAll(t0, t0.plus(Duration.ofHours(1)))) {
                while (it.hasNext()) {
                    KeyValue<Windowed<String>, ValueAndTimestamp<Long>> w = it.next();
                    System.out.println("minute " + w.key.window().startTime() + " " + w.key.key() + " "
                            + w.value.value());
                }
            }
            SessionStore<String, Long> sessions = driver.getSessionStore("sessions");
            try (KeyValueIterator<Windowed<String>, Long> it = sessions.fetch("ada")) {
                while (it.hasNext()) {
                    KeyValue<Windowed<String>, Long> s = it.next();
                    System.out.println("session " + s.key.window().startTime() + ".." + s.key.window().endTime()
                            + " " + s.key.key() + " " + s.value);
                }
            }
        }
    }
}
