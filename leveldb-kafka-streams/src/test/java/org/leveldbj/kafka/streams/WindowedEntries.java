package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * What the window and session store tests read: an iterator's windowed entries, checked as they
 * are read ({@code peekNextKey} agrees with {@code next}), shown one string each
 * ({@code key@start-end=value}) for comparisons that print well.
 *
 * <p>Thread safety: stateless.
 */
final class WindowedEntries {
    private WindowedEntries() {
    }

    /** Reads every entry of {@code it} and closes it. */
    static List<KeyValue<Windowed<Bytes>, byte[]>> drain(KeyValueIterator<Windowed<Bytes>, byte[]> it) {
        List<KeyValue<Windowed<Bytes>, byte[]>> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                Windowed<Bytes> peeked = it.peekNextKey();
                KeyValue<Windowed<Bytes>, byte[]> kv = it.next();
                assertEquals(peeked, kv.key);
                out.add(kv);
            }
        }
        return out;
    }

    /** One string per entry, {@code key@start-end=value}. */
    static List<String> show(List<KeyValue<Windowed<Bytes>, byte[]>> entries) {
        List<String> out = new ArrayList<>();
        for (KeyValue<Windowed<Bytes>, byte[]> kv : entries) {
            out.add(kv.key.key() + "@" + kv.key.window().start() + "-" + kv.key.window().end() + "=" + Bytes.wrap(kv.value));
        }
        return out;
    }

    /** The entries sorted by {@code order}, reversed when not {@code forward}. */
    static List<KeyValue<Windowed<Bytes>, byte[]>> sorted(List<KeyValue<Windowed<Bytes>, byte[]>> entries,
                                                         Comparator<KeyValue<Windowed<Bytes>, byte[]>> order, boolean forward) {
        List<KeyValue<Windowed<Bytes>, byte[]>> sorted = new ArrayList<>(entries);
        sorted.sort(order);
        if (!forward) {
            Collections.reverse(sorted);
        }
        return sorted;
    }
}
