package org.leveldbj.ttl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Random;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Random puts (default, own and unbounded lifetimes, alone and in batches), deletes, clock
 * advances, flushes, compactions (whole and partial), reopens and snapshots held across them,
 * checked against a map of values with expiries under a fake clock: gets, forward and reverse
 * iteration and seeks, at the current state and at every live snapshot.
 *
 * <p>The rule checked for snapshots: a snapshot reads the entries the model held when it was
 * taken, minus those expired by the clock's reading now (expiry goes on for snapshots; so a
 * compaction that removed an expired entry a snapshot held changes nothing it reads). And
 * after a compaction of everything with no snapshot live, the files hold no entry expired at
 * that moment. A failure reports its seed; rerun it with {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class TtlModelTest {
    private static final File DIR = new File("/db");
    private static final long DEFAULT_TTL = 100;

    /** A value and its expiry, as the model holds them. */
    private record Entry(byte[] value, long expiry) {
    }

    /** A live snapshot and the model it must read. */
    private record Held(Snapshot snapshot, TreeMap<byte[], Entry> model) {
    }

    private final MemEnv env = new MemEnv();
    private final FakeClock clock = new FakeClock(1_700_000_000_000L);

    private TtlDB open() throws IOException {
        Options options = new Options().env(env).writeBufferSize(4_000).maxFileSize(4_000).blockSize(256);
        return TtlDB.open(DIR, options, Duration.ofMillis(DEFAULT_TTL), clock);
    }

    private static byte[] key(Random r) {
        return String.format("k%03d", r.nextInt(120)).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(Random r) {
        byte[] v = new byte[r.nextInt(40)];
        r.nextBytes(v);
        return v;
    }

    @Test
    void randomOperationsMatchTheModelWithExpiry(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        TreeMap<byte[], Entry> model = new TreeMap<>(Arrays::compareUnsigned);
        List<Held> held = new ArrayList<>();
        TtlDB db = open();
        try {
            for (int step = 0; step < 6_000; step++) {
                String where = "seed " + seed + " step " + step;
                int op = r.nextInt(100);
                long now = clock.millis();
                if (op < 30) {
                    byte[] k = key(r);
                    byte[] v = value(r);
                    int kind = r.nextInt(3);
                    if (kind == 0) {
                        db.put(k, v);
                        model.put(k, new Entry(v, now + DEFAULT_TTL));
                    } else if (kind == 1) {
                        long ttl = 1 + r.nextInt(300);
                        db.put(k, v, Duration.ofMillis(ttl));
                        model.put(k, new Entry(v, now + ttl));
                    } else {
                        db.putUntil(k, v, Instant.MAX, new WriteOptions());
                        model.put(k, new Entry(v, TtlValues.NEVER));
                    }
                } else if (op < 36) {
                    try (TtlWriteBatch batch = db.createWriteBatch()) {
                        for (int i = r.nextInt(5); i >= 0; i--) {
                            byte[] k = key(r);
                            if (r.nextInt(4) == 0) {
                                batch.delete(k);
                                model.remove(k);
                            } else {
                                long ttl = 1 + r.nextInt(200);
                                byte[] v = value(r);
                                batch.put(k, v, Duration.ofMillis(ttl));
                                model.put(k, new Entry(v, now + ttl));
                            }
                        }
                        db.write(batch, new WriteOptions());
                    }
                } else if (op < 44) {
                    byte[] k = key(r);
                    db.delete(k);
                    model.remove(k);
                } else if (op < 54) {
                    clock.advance(r.nextInt(60));
                } else if (op < 57) {
                    db.raw().flushMemTable();
                } else if (op < 59) {
                    if (r.nextBoolean()) {
                        db.compactRange(null, null);
                        if (held.isEmpty()) {
                            assertNoExpiredEntryStored(db, where);
                        }
                    } else {
                        byte[] a = key(r);
                        byte[] b = key(r);
                        if (Arrays.compareUnsigned(a, b) > 0) {
                            byte[] t = a;
                            a = b;
                            b = t;
                        }
                        db.compactRange(a, b);
                    }
                } else if (op < 62) {
                    if (held.size() < 3) {
                        held.add(new Held(db.getSnapshot(), new TreeMap<>(model)));
                    }
                } else if (op < 64) {
                    if (!held.isEmpty()) {
                        held.remove(r.nextInt(held.size())).snapshot().close();
                    }
                } else if (op < 65) {
                    for (Held h : held) {
                        h.snapshot().close();
                    }
                    held.clear();
                    db.close();
                    db = open();
                } else if (op < 90) {
                    byte[] k = key(r);
                    assertArrayEquals(visible(model.get(k), clock.millis()), db.get(k), where + " get " + s(k));
                    if (!held.isEmpty()) {
                        Held h = held.get(r.nextInt(held.size()));
                        assertArrayEquals(visible(h.model().get(k), clock.millis()),
                                db.get(k, new ReadOptions().snapshot(h.snapshot())), where + " snapshot get " + s(k));
                    }
                } else if (op < 95) {
                    checkIteration(db, new ReadOptions(), model, r, where);
                } else {
                    if (!held.isEmpty()) {
                        Held h = held.get(r.nextInt(held.size()));
                        checkIteration(db, new ReadOptions().snapshot(h.snapshot()), h.model(), r, where + " at a snapshot");
                    }
                }
            }
            for (Held h : held) {
                h.snapshot().close();
            }
            held.clear();
            clock.advance(1_000);
            db.compactRange(null, null);
            assertNoExpiredEntryStored(db, "seed " + seed + " at the end");
            checkIteration(db, new ReadOptions(), model, r, "seed " + seed + " at the end");
        } finally {
            for (Held h : held) {
                h.snapshot().close();
            }
            db.close();
        }
    }

    private static byte[] visible(Entry e, long now) {
        return e == null || now >= e.expiry() ? null : e.value();
    }

    private static String s(byte[] k) {
        return new String(k, StandardCharsets.US_ASCII);
    }

    /** The entries of a model visible now, in order. */
    private List<Map.Entry<String, byte[]>> expected(TreeMap<byte[], Entry> model, long now) {
        List<Map.Entry<String, byte[]>> out = new ArrayList<>();
        for (Map.Entry<byte[], Entry> e : model.entrySet()) {
            byte[] v = visible(e.getValue(), now);
            if (v != null) {
                out.add(Map.entry(s(e.getKey()), v));
            }
        }
        return out;
    }

    private void checkIteration(TtlDB db, ReadOptions ro, TreeMap<byte[], Entry> model, Random r, String where)
            throws IOException {
        long now = clock.millis();
        List<Map.Entry<String, byte[]>> expected = expected(model, now);
        try (DBIterator it = db.iterator(ro)) {
            it.seekToFirst();
            List<Map.Entry<byte[], byte[]>> forward = new ArrayList<>();
            while (it.hasNext()) {
                forward.add(it.next());
            }
            assertSameEntries(expected, forward, where + " forward");
            it.seekToLast(); // on the last entry; prev() steps back from it
            List<Map.Entry<byte[], byte[]>> backward = new ArrayList<>();
            if (it.hasNext()) {
                backward.add(0, it.peekNext());
                while (it.hasPrev()) {
                    backward.add(0, it.prev());
                }
            }
            assertSameEntries(expected, backward, where + " reverse");
            // A seek, then steps both ways.
            byte[] target = key(r);
            it.seek(target);
            int index = 0;
            while (index < expected.size() && expected.get(index).getKey().compareTo(s(target)) < 0) {
                index++;
            }
            if (index < expected.size()) {
                assertTrue(it.hasNext(), where + " seek " + s(target));
                assertEquals(expected.get(index).getKey(), s(it.peekNext().getKey()), where + " seek " + s(target));
                it.next();
                if (index + 1 < expected.size()) {
                    assertEquals(expected.get(index + 1).getKey(), s(it.peekNext().getKey()), where + " next after seek");
                    assertEquals(expected.get(index).getKey(), s(it.prev().getKey()), where + " prev after next");
                } else {
                    assertFalse(it.hasPrev(), where + " past the end after the last entry");
                    it.seek(target);
                }
                if (index > 0) {
                    assertEquals(expected.get(index - 1).getKey(), s(it.peekPrev().getKey()), where + " prev of seek");
                    assertEquals(expected.get(index).getKey(), s(it.peekNext().getKey()), where + " peekPrev moves nothing");
                } else {
                    assertFalse(it.hasPrev(), where + " nothing before " + s(target));
                }
            } else {
                assertFalse(it.hasNext(), where + " seek past the end " + s(target));
                assertFalse(it.hasPrev(), where + " past the end: no prev, as the database's iterators");
            }
        }
    }

    private static void assertSameEntries(List<Map.Entry<String, byte[]>> expected, List<Map.Entry<byte[], byte[]>> actual,
            String where) {
        List<String> e = expected.stream().map(x -> x.getKey() + "=" + Arrays.toString(x.getValue())).toList();
        List<String> a = actual.stream().map(x -> s(x.getKey()) + "=" + Arrays.toString(x.getValue())).toList();
        assertEquals(e, a, where);
    }

    /** The files (and memtables) hold no entry expired now: compaction removed them all. */
    private void assertNoExpiredEntryStored(TtlDB db, String where) throws IOException {
        long now = clock.millis();
        try (DBIterator raw = db.raw().iterator()) {
            raw.seekToFirst();
            while (raw.hasNext()) {
                Map.Entry<byte[], byte[]> e = raw.next();
                assertFalse(TtlValues.expired(e.getValue(), now), where + ": " + s(e.getKey()) + " expired at "
                        + TtlValues.expiry(e.getValue()) + " is still stored at " + now);
            }
        }
    }
}
