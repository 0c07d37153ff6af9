package org.leveldbj.kafka.streams;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The input of {@link ClusterFailoverTest} and the outputs {@link FailoverApp} must give for it,
 * computed here from the records alone (no Kafka).
 *
 * <p>Two streams with event times of their own: {@value #EVENTS} events, event {@code i} at
 * {@code base + i} ms with key {@code key(i * 7 % 40)}, and {@value #CLICKS} clicks, click
 * {@code j} at {@code base + 10 j} ms with key {@code key(j * 3 % 40)}; and a table of plans,
 * three versions per key ({@link #PLAN_VERSIONS}), all sent in time order before the application
 * starts. All
 * of it spans four seconds, far inside the application's one-hour grace, so no record is ever
 * late and every output is fixed by the records, whatever order the tasks see them in (the
 * versioned table answers each event with the plan as of the event's time).
 *
 * <p>Thread safety: immutable.
 */
final class FailoverInput {
    static final int EVENTS = 4000;
    static final int CLICKS = EVENTS / 10;
    private static final int KEYS = 40;
    /** How many versions of its plan each key has, the first just before {@code base}. */
    static final int PLAN_VERSIONS = 3;

    private final long base;

    /** @param base the first event's time, a multiple of {@link FailoverApp#WINDOW_MS} */
    FailoverInput(long base) {
        this.base = base;
    }

    private static String eventKey(int i) {
        return "key" + (i * 7 % KEYS);
    }

    private static String clickKey(int j) {
        return "key" + (j * 3 % KEYS);
    }

    private long eventTime(int i) {
        return base + i;
    }

    private long clickTime(int j) {
        return base + 10L * j;
    }

    /**
     * Sends the events {@code [from, to)} of {@link #EVENTS} and the clicks of the same stretch of
     * time, then waits until the broker has them.
     *
     * @param fromPart the part to start at, of {@code parts} equal parts
     */
    void produce(KafkaProducer<String, String> producer, int fromPart, int toPart, int parts) {
        for (int i = EVENTS * fromPart / parts; i < EVENTS * toPart / parts; i++) {
            producer.send(new ProducerRecord<>(FailoverApp.EVENTS, null, eventTime(i), eventKey(i), "e" + i));
        }
        for (int j = CLICKS * fromPart / parts; j < CLICKS * toPart / parts; j++) {
            producer.send(new ProducerRecord<>(FailoverApp.CLICKS, null, clickTime(j), clickKey(j), "c" + j));
        }
        producer.flush();
    }

    /**
     * The time of a plan version: the first just before the first event; the others halfway
     * between two events of the key (its events are 40 ms apart, at offsets {@code 23 key} modulo
     * 40, as 23 is 7's inverse modulo 40), so that no event of the key has the plan's time and
     * the order in which a task takes two records of one time does not matter.
     */
    private long planTime(int key, int version) {
        return version == 0 ? base - 1 : base + 40L * (32 * version + key % 8) + (23 * key + 20) % 40;
    }

    /**
     * Sends every plan version in time order, then waits until the broker has them. A task takes
     * the next record of the partition whose next record is oldest, so each plan version is in
     * the table before the events after it are joined (in another order a version would wait
     * behind a later one and the events before it would find no plan).
     */
    void producePlans(KafkaProducer<String, String> producer) {
        List<int[]> versions = new ArrayList<>(); // key, version
        for (int k = 0; k < KEYS; k++) {
            for (int v = 0; v < PLAN_VERSIONS; v++) {
                versions.add(new int[] {k, v});
            }
        }
        versions.sort(Comparator.comparingLong(kv -> planTime(kv[0], kv[1])));
        for (int[] kv : versions) {
            producer.send(new ProducerRecord<>(FailoverApp.PLANS, null, planTime(kv[0], kv[1]), "key" + kv[0],
                    "plan" + kv[1] + "-" + kv[0]));
        }
        producer.flush();
    }

    /** The final count of each session of each key's events, by {@code key@start-end}. */
    Map<String, Long> sessionCounts() {
        Map<String, Long> counts = new TreeMap<>();
        Map<String, long[]> open = new TreeMap<>(); // key -> start, end, count of its latest session
        for (int i = 0; i < EVENTS; i++) {
            long[] s = open.get(eventKey(i));
            if (s != null && eventTime(i) - s[1] <= FailoverApp.SESSION_GAP.toMillis()) {
                s[1] = eventTime(i);
                s[2]++;
            } else {
                if (s != null) {
                    counts.put(FailoverApp.sessionKey(eventKey(i), s[0], s[1]), s[2]);
                }
                open.put(eventKey(i), new long[] {eventTime(i), eventTime(i), 1});
            }
        }
        open.forEach((key, s) -> counts.put(FailoverApp.sessionKey(key, s[0], s[1]), s[2]));
        return counts;
    }

    /** Each event joined with its key's plan as of the event's time. */
    Set<String> enriched() {
        Set<String> out = new TreeSet<>();
        for (int i = 0; i < EVENTS; i++) {
            int key = i * 7 % KEYS;
            int version = 0;
            for (int v = 0; v < PLAN_VERSIONS; v++) {
                if (planTime(key, v) <= eventTime(i)) {
                    version = v;
                }
            }
            out.add(FailoverApp.enriched("e" + i, "plan" + version + "-" + key));
        }
        return out;
    }

    /** The final count of each key's events. */
    Map<String, Long> counts() {
        Map<String, Long> counts = new TreeMap<>();
        for (int i = 0; i < EVENTS; i++) {
            counts.merge(eventKey(i), 1L, Long::sum);
        }
        return counts;
    }

    /** The final count of each key's events in each tumbling window, by {@code key@windowStart}. */
    Map<String, Long> windowedCounts() {
        Map<String, Long> counts = new TreeMap<>();
        for (int i = 0; i < EVENTS; i++) {
            long start = eventTime(i) - eventTime(i) % FailoverApp.WINDOW_MS;
            counts.merge(FailoverApp.windowedKey(eventKey(i), start), 1L, Long::sum);
        }
        return counts;
    }

    /** Every pair the inner join emits: an event and a click of the same key, at most 50 ms apart. */
    Set<String> joins() {
        Set<String> joins = new TreeSet<>();
        for (int i = 0; i < EVENTS; i++) {
            for (int j = 0; j < CLICKS; j++) {
                if (eventKey(i).equals(clickKey(j))
                        && Math.abs(eventTime(i) - clickTime(j)) <= FailoverApp.JOIN_DIFFERENCE.toMillis()) {
                    joins.add(FailoverApp.joined("e" + i, "c" + j));
                }
            }
        }
        return joins;
    }
}
