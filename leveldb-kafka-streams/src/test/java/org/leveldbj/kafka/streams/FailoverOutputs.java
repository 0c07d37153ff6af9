package org.leveldbj.kafka.streams;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * What {@link FailoverApp} committed to its output topics, read with {@code read_committed}. A
 * count or windowed count that does not follow the previous one of its key by exactly one (a
 * repeat or a gap: not exactly once) fails the read at once, naming the key; a join result seen
 * twice is kept as a repeat; session counts are replayed with their tombstones (a merged
 * session's old key is removed), leaving each session's final count.
 *
 * <p>Thread safety: confined to the reading thread.
 */
final class FailoverOutputs {
    private final Map<String, Long> counts = new TreeMap<>();
    private final Map<String, Long> windowedCounts = new TreeMap<>();
    private final Set<String> joins = new TreeSet<>();
    private final List<String> repeatedJoins = new ArrayList<>();
    private final Map<String, Long> sessionCounts = new TreeMap<>();
    private final Set<String> enriched = new TreeSet<>();
    private final List<String> repeatedEnriched = new ArrayList<>();
    private long countRecords;
    private long windowedCountRecords;

    private FailoverOutputs() {
    }

    /** Reads until every expected output is there, or {@code timeout} has passed. */
    static FailoverOutputs read(String bootstrap, FailoverInput expected, Duration timeout) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "verifier");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        FailoverOutputs outputs = new FailoverOutputs();
        LongDeserializer longs = new LongDeserializer();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            consumer.subscribe(List.of(FailoverApp.COUNTS_OUT, FailoverApp.WINDOWED_OUT, FailoverApp.JOINED_OUT,
                    FailoverApp.SESSIONS_OUT, FailoverApp.ENRICHED_OUT));
            long deadline = System.nanoTime() + TimeUnit.NANOSECONDS.convert(timeout);
            while (!outputs.complete(expected) && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    switch (r.topic()) {
                        case FailoverApp.COUNTS_OUT -> {
                            next(outputs.counts, r.key(), longs.deserialize(r.topic(), r.value()));
                            outputs.countRecords++;
                        }
                        case FailoverApp.WINDOWED_OUT -> {
                            next(outputs.windowedCounts, r.key(), longs.deserialize(r.topic(), r.value()));
                            outputs.windowedCountRecords++;
                        }
                        case FailoverApp.SESSIONS_OUT -> {
                            // a merged session's old key is removed by a tombstone
                            if (r.value() == null) {
                                outputs.sessionCounts.remove(r.key());
                            } else {
                                outputs.sessionCounts.put(r.key(), longs.deserialize(r.topic(), r.value()));
                            }
                        }
                        case FailoverApp.ENRICHED_OUT -> once(outputs.enriched, outputs.repeatedEnriched, r.value());
                        default -> once(outputs.joins, outputs.repeatedJoins, r.value());
                    }
                }
            }
        }
        return outputs;
    }

    private static void once(Set<String> seen, List<String> repeated, byte[] value) {
        String v = new String(value, StandardCharsets.UTF_8);
        if (!seen.add(v)) {
            repeated.add(v);
        }
    }

    private static void next(Map<String, Long> counts, String key, long count) {
        Long previous = counts.put(key, count);
        long wanted = previous == null ? 1 : previous + 1;
        if (count != wanted) {
            throw new AssertionError(key + ": count " + count + " after " + previous + " (exactly once: no gap, no repeat)");
        }
    }

    private boolean complete(FailoverInput expected) {
        return counts.equals(expected.counts()) && windowedCounts.equals(expected.windowedCounts())
                && joins.size() >= expected.joins().size() && sessionCounts.equals(expected.sessionCounts())
                && enriched.size() >= expected.enriched().size();
    }

    Map<String, Long> counts() {
        return counts;
    }

    Map<String, Long> windowedCounts() {
        return windowedCounts;
    }

    Set<String> joins() {
        return joins;
    }

    List<String> repeatedJoins() {
        return repeatedJoins;
    }

    Map<String, Long> sessionCounts() {
        return sessionCounts;
    }

    Set<String> enriched() {
        return enriched;
    }

    List<String> repeatedEnriched() {
        return repeatedEnriched;
    }

    long countRecords() {
        return countRecords;
    }

    long windowedCountRecords() {
        return windowedCountRecords;
    }
}
