package org.leveldbj.kafka.streams;

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
 * {@code j} at {@code base + 10 j} ms with key {@code key(j * 3 % 40)}. All of it spans four
 * seconds, far inside the application's one-hour grace, so no record is ever late and every
 * output is fixed by the records, whatever order the tasks see them in.
 *
 * <p>Thread safety: immutable.
 */
final class FailoverInput {
    static final int EVENTS = 4000;
    static final int CLICKS = EVENTS / 10;
    private static final int KEYS = 40;

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
