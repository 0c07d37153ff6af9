package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatchWithIndex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.ReverseBytewiseComparator;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * The batch with an index against a model: the database's contents in a TreeMap with the
 * batch's writes laid over it (a put replaces, a delete removes). Gets, and iterators moved at
 * random (next, prev, seeks, turns), must agree with the model. A failure reports its seed;
 * rerun it with {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class IndexedWriteBatchTest {
    private final MemEnv env = new MemEnv();

    private static byte[] key(Random r) {
        return String.format("k%03d", r.nextInt(120)).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(Random r) {
        byte[] v = new byte[1 + r.nextInt(20)];
        r.nextBytes(v);
        return v;
    }

    @Test
    void readsMatchTheOverlayModel(@Seed long seed) throws IOException {
        check(seed, new Options().env(env).writeBufferSize(4_000), Arrays::compareUnsigned);
    }

    @Test
    void readsMatchTheOverlayModelUnderAReverseComparator(@Seed long seed) throws IOException {
        ReverseBytewiseComparator reverse = ReverseBytewiseComparator.INSTANCE;
        check(seed, new Options().env(env).writeBufferSize(4_000).comparator(reverse), reverse::compare);
    }

    private void check(long seed, Options options, java.util.Comparator<byte[]> order) throws IOException {
        Random r = new Random(seed);
        try (ExtendedDB db = LevelDbFactory.factory.open(new File("/db"), options)) {
            TreeMap<byte[], byte[]> dbModel = new TreeMap<>(order);
            for (int round = 0; round < 30; round++) {
                // The database: a few hundred writes, some of them flushed into tables.
                for (int i = r.nextInt(200); i > 0; i--) {
                    byte[] k = key(r);
                    if (r.nextInt(4) == 0) {
                        db.delete(k);
                        dbModel.remove(k);
                    } else {
                        byte[] v = value(r);
                        db.put(k, v);
                        dbModel.put(k, v);
                    }
                }
                if (r.nextInt(5) == 0) {
                    db.flushMemTable();
                }
                Snapshot snapshot = r.nextBoolean() ? db.getSnapshot() : null;
                try (WriteBatchWithIndex batch = db.createWriteBatchWithIndex()) {
                    TreeMap<byte[], byte[]> model = new TreeMap<>(dbModel);
                    TreeMap<byte[], byte[]> ops = new TreeMap<>(order); // a deletion maps to DELETED
                    for (int i = r.nextInt(60); i > 0; i--) {
                        byte[] k = key(r);
                        if (r.nextInt(3) == 0) {
                            batch.delete(k);
                            model.remove(k);
                            ops.put(k, DELETED);
                        } else {
                            byte[] v = value(r);
                            batch.put(k, v);
                            model.put(k, v);
                            ops.put(k, v);
                        }
                    }
                    ReadOptions ro = new ReadOptions().snapshot(snapshot);
                    if (snapshot != null) {
                        // Writes after the snapshot are invisible to the batch's reads.
                        for (int i = 0; i < 5; i++) {
                            byte[] k = key(r);
                            byte[] v = value(r);
                            db.put(k, v);
                            dbModel.put(k, v);
                        }
                    }
                    for (int i = 0; i < 200; i++) {
                        byte[] k = key(r);
                        assertArrayEquals(model.get(k), batch.get(db, ro, k), "get " + new String(k));
                    }
                    try (DBIterator it = batch.iterator(db, ro)) {
                        walk(r, it, model);
                    }
                    db.write(batch);
                    for (Map.Entry<byte[], byte[]> e : ops.entrySet()) {
                        if (e.getValue() == DELETED) {
                            dbModel.remove(e.getKey());
                        } else {
                            dbModel.put(e.getKey(), e.getValue());
                        }
                    }
                    assertContents(db, dbModel);
                } finally {
                    if (snapshot != null) {
                        snapshot.close();
                    }
                }
            }
        }
    }

    private static final byte[] DELETED = new byte[0];

    private static void assertContents(ExtendedDB db, TreeMap<byte[], byte[]> expected) throws IOException {
        List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>(expected.entrySet());
        int i = 0;
        try (DBIterator it = db.iterator()) {
            for (it.seekToFirst(); it.hasNext(); i++) {
                Map.Entry<byte[], byte[]> e = it.next();
                assertTrue(i < entries.size(), "more entries than the model's " + entries.size());
                assertEntry(entries.get(i), e);
            }
        }
        assertEquals(entries.size(), i, "entries");
    }

    /**
     * Moves the iterator at random and compares each entry with the model's, by the cursor
     * semantics of DBIterator: the cursor is an index into the model's entries.
     */
    private static void walk(Random r, DBIterator it, TreeMap<byte[], byte[]> model) {
        List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>(model.entrySet());
        int cursor = 0;
        for (int step = 0; step < 300; step++) {
            int op = r.nextInt(10);
            if (op < 4) {
                assertEquals(cursor < entries.size(), it.hasNext(), "hasNext at " + cursor);
                if (cursor < entries.size()) {
                    Map.Entry<byte[], byte[]> e = it.next();
                    assertEntry(entries.get(cursor), e);
                    cursor++;
                }
            } else if (op < 7) {
                boolean expected = cursor > 0 && cursor < entries.size();
                assertEquals(expected, it.hasPrev(), "hasPrev at " + cursor);
                if (expected) {
                    Map.Entry<byte[], byte[]> e = it.prev();
                    cursor--;
                    assertEntry(entries.get(cursor), e);
                }
            } else if (op < 8) {
                byte[] target = key(r);
                it.seek(target);
                byte[] ceiling = model.ceilingKey(target);
                cursor = ceiling == null ? entries.size() : model.headMap(ceiling).size();
                assertEquals(ceiling != null, it.hasNext(), "hasNext after seek");
                if (ceiling != null) {
                    assertEntry(entries.get(cursor), it.peekNext());
                }
            } else if (op < 9) {
                it.seekToFirst();
                cursor = 0;
            } else {
                it.seekToLast();
                cursor = Math.max(0, entries.size() - 1);
                assertEquals(!entries.isEmpty(), it.hasNext(), "hasNext after seekToLast");
                if (!entries.isEmpty()) {
                    assertEntry(entries.get(cursor), it.peekNext());
                }
            }
        }
    }

    private static void assertEntry(Map.Entry<byte[], byte[]> expected, Map.Entry<byte[], byte[]> actual) {
        assertEquals(new String(expected.getKey(), StandardCharsets.ISO_8859_1),
                new String(actual.getKey(), StandardCharsets.ISO_8859_1));
        assertArrayEquals(expected.getValue(), actual.getValue(), "value of " + new String(expected.getKey()));
    }

    @Test
    void aFullScanEitherWayShowsTheOverlay() throws IOException {
        try (ExtendedDB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env))) {
            db.put(b("a"), b("1"));
            db.put(b("b"), b("2"));
            db.put(b("d"), b("4"));
            try (WriteBatchWithIndex batch = db.createWriteBatchWithIndex()) {
                batch.delete(b("a")).put(b("c"), b("3")).put(b("d"), b("44")).put(b("e"), b("5")).delete(b("z"));
                List<String> forward = new ArrayList<>();
                try (DBIterator it = batch.iterator(db, new ReadOptions())) {
                    for (it.seekToFirst(); it.hasNext(); ) {
                        Map.Entry<byte[], byte[]> e = it.next();
                        forward.add(s(e.getKey()) + "=" + s(e.getValue()));
                    }
                    List<String> backward = new ArrayList<>();
                    it.seekToLast();
                    backward.add(s(it.peekNext().getKey()));
                    while (it.hasPrev()) {
                        backward.add(s(it.prev().getKey()));
                    }
                    assertEquals(List.of("e", "d", "c", "b"), backward);
                }
                assertEquals(List.of("b=2", "c=3", "d=44", "e=5"), forward);
                assertNull(batch.get(db, new ReadOptions(), b("a")));
                assertArrayEquals(b("2"), batch.get(db, new ReadOptions(), b("b")));
                assertEquals(5, batch.size());
                db.write(batch);
                assertNull(db.get(b("a")));
                assertArrayEquals(b("44"), db.get(b("d")));
            }
        }
    }

    @Test
    void boundsHoldForTheBatchsWritesToo() throws IOException {
        try (ExtendedDB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env))) {
            db.put(b("b"), b("2"));
            db.put(b("e"), b("5"));
            try (WriteBatchWithIndex batch = db.createWriteBatchWithIndex()) {
                batch.put(b("a"), b("1")).put(b("c"), b("3")).delete(b("b")).put(b("d"), b("4")).put(b("f"), b("6"));
                ReadOptions bounded = new ReadOptions().iterateLowerBound(b("b")).iterateUpperBound(b("e"));
                List<String> forward = new ArrayList<>();
                List<String> backward = new ArrayList<>();
                try (DBIterator it = batch.iterator(db, bounded)) {
                    for (it.seekToFirst(); it.hasNext(); ) {
                        forward.add(s(it.next().getKey()));
                    }
                    it.seekToLast(); // the cursor rules of DBIterator: on the last entry, which prev() passes
                    backward.add(s(it.peekNext().getKey()));
                    while (it.hasPrev()) {
                        backward.add(s(it.prev().getKey()));
                    }
                }
                assertEquals(List.of("c", "d"), forward, "a and f are the batch's, outside the bounds");
                assertEquals(List.of("d", "c"), backward);
            }
        }
    }

    @Test
    void misuseFailsWithTypedExceptions() throws IOException {
        try (ExtendedDB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env));
             ExtendedDB other = LevelDbFactory.factory.open(new File("/other"), new Options().env(env))) {
            WriteBatchWithIndex batch = db.createWriteBatchWithIndex();
            batch.put(b("a"), b("1"));
            assertThrows(InvalidArgumentException.class, () -> batch.get(other, new ReadOptions(), b("a")));
            assertThrows(InvalidArgumentException.class, () -> batch.iterator(other, new ReadOptions()));
            assertThrows(IllegalArgumentException.class, () -> batch.put(null, b("1")));
            batch.close();
            assertThrows(DBException.class, () -> batch.get(db, new ReadOptions(), b("a")));
            assertThrows(DBException.class, () -> batch.put(b("a"), b("2")));
            assertThrows(DBException.class, () -> db.write(batch));
            try (DBIterator it = db.iterator()) {
                assertFalse(it.hasNext(), "nothing was written");
            }
        }
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
