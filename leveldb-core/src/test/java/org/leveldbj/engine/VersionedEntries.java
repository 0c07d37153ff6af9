package org.leveldbj.engine;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.ListIterator;
import org.leveldbj.iterator.MergingIterator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;

/**
 * In-test database contents: versioned entries (puts and deletions with sequence numbers), the
 * internal iterators over them, and the user-visible map at a snapshot.
 */
final class VersionedEntries {
    static final InternalKeyComparator ICMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);

    /** One write: a value, or a deletion when {@code value} is {@code null}. */
    record Write(byte[] userKey, long sequence, byte[] value) {
        byte[] internalKey() {
            return InternalKeys.encode(userKey, sequence, value == null ? ValueType.DELETION : ValueType.VALUE);
        }
    }

    private final List<Write> writes = new ArrayList<>();
    private long lastSequence;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    VersionedEntries put(String key, String value) {
        writes.add(new Write(b(key), ++lastSequence, b(value)));
        return this;
    }

    VersionedEntries delete(String key) {
        writes.add(new Write(b(key), ++lastSequence, null));
        return this;
    }

    long lastSequence() {
        return lastSequence;
    }

    /** The internal entries, sorted, in one iterator. */
    SortedIterator internalIterator() {
        return new ListIterator(sorted(writes), ICMP);
    }

    /** The internal entries spread at random over {@code n} merged children. */
    SortedIterator internalIterator(Random r, int n) {
        List<List<Write>> parts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            parts.add(new ArrayList<>());
        }
        for (Write w : writes) {
            parts.get(r.nextInt(n)).add(w);
        }
        List<SortedIterator> children = new ArrayList<>();
        for (List<Write> part : parts) {
            children.add(new ListIterator(sorted(part), ICMP));
        }
        return MergingIterator.of(ICMP, children);
    }

    private static List<byte[][]> sorted(List<Write> writes) {
        List<byte[][]> entries = new ArrayList<>();
        for (Write w : writes) {
            entries.add(new byte[][] {w.internalKey(), w.value() == null ? new byte[0] : w.value()});
        }
        entries.sort((x, y) -> ICMP.compare(x[0], y[0]));
        return entries;
    }

    /** What a reader at {@code snapshot} sees: user key to value, in key order. */
    TreeMap<String, String> visibleAt(long snapshot) {
        TreeMap<String, Write> newest = new TreeMap<>();
        for (Write w : writes) {
            if (w.sequence() <= snapshot) {
                newest.merge(s(w.userKey()), w, (a, c) -> a.sequence() > c.sequence() ? a : c);
            }
        }
        TreeMap<String, String> out = new TreeMap<>();
        for (Map.Entry<String, Write> e : newest.entrySet()) {
            if (e.getValue().value() != null) {
                out.put(e.getKey(), s(e.getValue().value()));
            }
        }
        return out;
    }

    /** Random writes over a small key space so that keys get many versions. */
    static VersionedEntries random(Random r, int writes, int keySpace) {
        VersionedEntries v = new VersionedEntries();
        for (int i = 0; i < writes; i++) {
            String key = "k" + r.nextInt(keySpace);
            if (r.nextInt(4) == 0) {
                v.delete(key);
            } else {
                byte[] value = new byte[r.nextInt(r.nextInt(10) == 0 ? 3000 : 20)];
                Arrays.fill(value, (byte) ('a' + r.nextInt(26)));
                v.put(key, s(value) + i);
            }
        }
        return v;
    }
}
