package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.engine.VersionedEntries.b;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.ListIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/** The database iterator yields exactly what a reader at its snapshot sees, both ways. */
@ExtendWith(SeedExtension.class)
class DbIteratorTest {
    private static String str(ByteBuffer buf) {
        byte[] out = new byte[buf.remaining()];
        buf.get(buf.position(), out);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static DbIterator iterator(VersionedEntries v, long snapshot) {
        return new DbIterator(v.internalIterator(), BytewiseComparator.INSTANCE, snapshot, DbIterator.ReadSampler.NONE);
    }

    private static List<String> forward(DbIterator it) {
        List<String> out = new ArrayList<>();
        for (it.seekToFirst(); it.valid(); it.next()) {
            out.add(str(it.key()) + "=" + str(it.value()));
        }
        return out;
    }

    private static List<String> backward(DbIterator it) {
        List<String> out = new ArrayList<>();
        for (it.seekToLast(); it.valid(); it.prev()) {
            out.add(str(it.key()) + "=" + str(it.value()));
        }
        return out;
    }

    @Test
    void newestVisibleVersionWinsAndDeletionsHide() {
        VersionedEntries v = new VersionedEntries()
                .put("a", "1").put("b", "1").put("a", "2").delete("b").put("c", "1").delete("a").put("b", "3");
        try (DbIterator it = iterator(v, v.lastSequence())) {
            assertEquals(List.of("b=3", "c=1"), forward(it));
            assertEquals(List.of("c=1", "b=3"), backward(it));
        }
        try (DbIterator it = iterator(v, 5)) { // before "delete a" and "put b 3"
            assertEquals(List.of("a=2", "c=1"), forward(it));
            assertEquals(List.of("c=1", "a=2"), backward(it));
        }
        try (DbIterator it = iterator(v, 4)) {
            assertEquals(List.of("a=2"), forward(it));
            assertEquals(List.of("a=2"), backward(it));
        }
        try (DbIterator it = iterator(v, 0)) {
            assertEquals(List.of(), forward(it));
            assertEquals(List.of(), backward(it));
            it.seek(ByteBuffer.wrap(b("a")));
            assertFalse(it.valid());
        }
    }

    @Test
    void turnsBothWays() {
        VersionedEntries v = new VersionedEntries()
                .put("a", "1").put("b", "1").put("b", "2").put("c", "1").delete("d").put("e", "1").put("c", "2");
        try (DbIterator it = iterator(v, v.lastSequence())) {
            it.seek(ByteBuffer.wrap(b("b")));
            assertEquals("b", str(it.key()));
            it.next();
            assertEquals("c=2", str(it.key()) + "=" + str(it.value()));
            it.prev();
            assertEquals("b=2", str(it.key()) + "=" + str(it.value()));
            it.prev();
            assertEquals("a", str(it.key()));
            it.next();
            assertEquals("b", str(it.key()));
            it.next();
            it.next();
            assertEquals("e", str(it.key()));
            it.prev();
            assertEquals("c", str(it.key()));
            it.prev();
            it.prev();
            it.prev();
            assertFalse(it.valid());
            it.seek(ByteBuffer.wrap(b("d")));
            assertEquals("e", str(it.key()));
            it.next();
            assertFalse(it.valid());
        }
    }

    @Test
    void malformedInternalKeysAreCorruption() {
        List<byte[][]> bad = Collections.singletonList(new byte[][] {b("short"), b("v")});
        DbIterator it = new DbIterator(new ListIterator(bad, BytewiseComparator.INSTANCE), BytewiseComparator.INSTANCE,
                10, DbIterator.ReadSampler.NONE);
        CorruptionException e = assertThrows(CorruptionException.class, it::seekToFirst);
        assertTrue(e.getMessage().contains("corrupted internal key"), e.getMessage());
        assertFalse(it.valid());
        byte[] badType = InternalKeys.encode(b("k"), 1, ValueType.VALUE);
        badType[badType.length - 8] = 7;
        it = new DbIterator(new ListIterator(Collections.singletonList(new byte[][] {badType, b("v")}), VersionedEntries.ICMP),
                BytewiseComparator.INSTANCE, 10, DbIterator.ReadSampler.NONE);
        assertThrows(CorruptionException.class, it::seekToLast);
        assertFalse(it.valid());
    }

    @Test
    void samplesAboutOncePerMebibyteRead() {
        VersionedEntries v = new VersionedEntries();
        String big = "x".repeat(64 * 1024);
        for (int i = 0; i < 160; i++) { // 10 MiB of values
            v.put(String.format("k%04d", i), big);
        }
        List<String> sampled = new ArrayList<>();
        DbIterator it = new DbIterator(v.internalIterator(), BytewiseComparator.INSTANCE, v.lastSequence(),
                k -> sampled.add(InternalKeys.toString(k)));
        int n = 0;
        for (it.seekToFirst(); it.valid(); it.next()) {
            n++;
        }
        it.close();
        assertEquals(160, n);
        // Each gap is below 2 MiB, so 10 MiB read gives at least 5 samples.
        assertTrue(sampled.size() >= 5, sampled.toString());
        assertTrue(sampled.get(0).startsWith("'k0"), sampled.toString());
    }

    @Test
    void randomHistoriesMatchTheModelAtRandomSnapshots(@Seed long seed) {
        Random r = new Random(seed);
        for (int round = 0; round < 200; round++) {
            int keySpace = 1 + r.nextInt(r.nextBoolean() ? 5 : 60);
            VersionedEntries v = VersionedEntries.random(r, r.nextInt(r.nextInt(5) == 0 ? 3 : 300), keySpace);
            long snapshot = r.nextInt(5) == 0 ? v.lastSequence() : (long) r.nextInt((int) v.lastSequence() + 2);
            TreeMap<String, String> visible = v.visibleAt(snapshot);
            List<Map.Entry<String, String>> model = new ArrayList<>(visible.entrySet());
            String context = "seed " + seed + " round " + round + " (snapshot " + snapshot + " of "
                    + v.lastSequence() + ", " + model.size() + " visible)";
            try (DbIterator it = new DbIterator(v.internalIterator(r, 1 + r.nextInt(4)), BytewiseComparator.INSTANCE,
                    snapshot, DbIterator.ReadSampler.NONE)) {
                exercise(it, model, r, keySpace, context);
            }
        }
    }

    private static void exercise(DbIterator it, List<Map.Entry<String, String>> model, Random r, int keySpace,
                                 String context) {
        int pos = -1;
        for (int step = 0; step < 300; step++) {
            int op = r.nextInt(10);
            String what;
            if (op == 0) {
                it.seekToFirst();
                pos = model.isEmpty() ? -1 : 0;
                what = "seekToFirst";
            } else if (op == 1) {
                it.seekToLast();
                pos = model.size() - 1;
                what = "seekToLast";
            } else if (op == 2) {
                String target = "k" + r.nextInt(keySpace + 1) + (r.nextBoolean() ? "" : "!");
                it.seek(ByteBuffer.wrap(b(target)));
                pos = -1;
                for (int i = 0; i < model.size(); i++) {
                    if (model.get(i).getKey().compareTo(target) >= 0) {
                        pos = i;
                        break;
                    }
                }
                what = "seek " + target;
            } else if (pos < 0) {
                continue;
            } else if (op < 6) {
                it.next();
                pos = pos + 1 < model.size() ? pos + 1 : -1;
                what = "next";
            } else {
                it.prev();
                pos--;
                what = "prev";
            }
            String where = context + " step " + step + " " + what;
            assertEquals(pos >= 0, it.valid(), where);
            if (pos >= 0) {
                assertEquals(model.get(pos).getKey(), str(it.key()), where);
                assertEquals(model.get(pos).getValue(), str(it.value()), where);
            }
        }
    }
}
