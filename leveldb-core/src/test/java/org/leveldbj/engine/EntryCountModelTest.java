package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.table.BlockHandle;
import org.leveldbj.table.StatsBlocks;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.ByteCursor;

/**
 * {@code ExtendedDB.approximateNumEntries()} against a model of the live keys (a bit per key),
 * for keys counted once however many versions the memtables and tables hold: within a factor of
 * 2 from 10 to 1,000,000 distinct keys, small (1 to 3 bytes) and large (1 KiB) keys, after
 * deleting half of them, and while 20,000 keys are written 50 times each with flushes and
 * compactions in between (every version counted, the estimate would reach several times the live
 * keys). Tables whose stats blocks are of the first layout (written before keys were counted)
 * are estimated as they were, every version counting.
 */
@ExtendWith(SeedExtension.class)
class EntryCountModelTest {
    private static final int LARGE = 1024;

    static Stream<Arguments> sizes() {
        List<Arguments> out = new ArrayList<>();
        for (int n : new int[] {10, 1000, 100_000, 1_000_000}) {
            out.add(Arguments.of(n, false));
        }
        for (int n : new int[] {10, 1000, 10_000}) {
            out.add(Arguments.of(n, true));
        }
        return out.stream();
    }

    /** Key {@code i} of {@code n}: as few bytes as {@code n} needs (1 to 3 here), or 1 KiB. */
    static byte[] key(int i, int n, boolean large) {
        int bytes = large ? LARGE : n <= 256 ? 1 : n <= 65536 ? 2 : n <= (1 << 24) ? 3 : 4;
        byte[] k = new byte[bytes];
        if (large) {
            // Different early bytes, so that comparisons and blocks see keys unlike each other.
            new Random(i).nextBytes(k);
        }
        for (int b = 0; b < 4 && b < bytes; b++) {
            k[bytes - 1 - b] = (byte) (i >>> (8 * b));
        }
        if (large) {
            k[0] = (byte) (i >>> 24);
            k[1] = (byte) (i >>> 16);
            k[2] = (byte) (i >>> 8);
            k[3] = (byte) i;
        }
        return k;
    }

    private static void assertWithinTwice(long live, long estimate, String what) {
        assertTrue(estimate * 2 >= live && estimate <= live * 2, what + ": estimate " + estimate + ", live " + live);
    }

    private static int[] shuffled(int n, Random r) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    @ParameterizedTest(name = "{0} keys, large {1}")
    @MethodSource("sizes")
    void distinctKeysThenHalfDeleted(int n, boolean large, @Seed long seed, @TempDir Path tmp) throws IOException {
        Random r = new Random(seed);
        byte[] value = new byte[4];
        try (ExtendedDB db = LevelDbFactory.factory.open(tmp.resolve("db").toFile(), new Options())) {
            try (Batches batches = new Batches(db)) {
                for (int i : shuffled(n, r)) {
                    batches.batch().put(key(i, n, large), value);
                }
            }
            assertEquals(n, db.approximateNumEntries(), "distinct keys written once");
            db.flushMemTable();
            assertEquals(n, db.approximateNumEntries(), "after a flush");
            int live = n;
            try (Batches batches = new Batches(db)) {
                for (int i = 0; i < n; i += 2) {
                    batches.batch().delete(key(i, n, large));
                    live--;
                }
            }
            long e = db.approximateNumEntries();
            System.out.printf("%d keys, large %b: half deleted, estimate %d, live %d (%.3f)%n", n, large, e, live,
                    (double) e / live);
            assertWithinTwice(live, e, "half deleted");
            db.flushMemTable();
            assertWithinTwice(live, db.approximateNumEntries(), "half deleted, flushed");
            if (n <= 100_000) { // a full compaction of 1,000,000 keys would double the test's time
                db.compactRange(null, null);
                assertEquals(live, db.approximateNumEntries(), "after a full compaction");
            }
        }
    }

    static Stream<Arguments> overwrites() {
        return Stream.of(
                // The default 4 MiB memtable holds every key: each flush writes all of them again.
                Arguments.of(20_000, 50, false, 4 << 20),
                // Small memtables: many level-0 tables, compactions all the time.
                Arguments.of(5_000, 20, false, 64 << 10),
                Arguments.of(1_000, 10, true, 256 << 10));
    }

    @ParameterizedTest(name = "{0} keys written {1} times, large {2}, {3}-byte memtable")
    @MethodSource("overwrites")
    void overwritesCountOnce(int n, int rounds, boolean large, int writeBuffer, @Seed long seed, @TempDir Path tmp)
            throws IOException {
        Random r = new Random(seed);
        BitSet live = new BitSet(n);
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        try (ExtendedDB db = LevelDbFactory.factory.open(tmp.resolve("db").toFile(),
                new Options().writeBufferSize(writeBuffer))) {
            for (int round = 0; round < rounds; round++) {
                try (Batches batches = new Batches(db)) {
                    for (int i : shuffled(n, r)) {
                        byte[] v = new byte[1 + r.nextInt(8)];
                        r.nextBytes(v);
                        batches.batch().put(key(i, n, large), v);
                        live.set(i);
                        if (r.nextInt(n) < 2) {
                            batches.flush(); // mid-round: some keys still to come
                            assertWithinTwice(live.cardinality(), db.approximateNumEntries(),
                                    "round " + round + ", mid-round");
                        }
                    }
                }
                if (round % 10 == 9) {
                    db.compactRange(null, null);
                }
                long e = db.approximateNumEntries();
                double ratio = (double) e / live.cardinality();
                lowest = Math.min(lowest, ratio);
                highest = Math.max(highest, ratio);
                assertWithinTwice(live.cardinality(), e, "after round " + round);
            }
            System.out.printf("%d keys written %d times, large %b, memtable %d: estimate/live %.3f to %.3f%n",
                    n, rounds, large, writeBuffer, lowest, highest);
            // Half of them deleted, the rest written again.
            try (Batches batches = new Batches(db)) {
                for (int i = 0; i < n; i++) {
                    if (i % 2 == 0) {
                        batches.batch().delete(key(i, n, large));
                        live.clear(i);
                    } else {
                        batches.batch().put(key(i, n, large), new byte[] {1});
                    }
                }
            }
            assertWithinTwice(live.cardinality(), db.approximateNumEntries(), "half deleted");
            db.compactRange(null, null);
            assertEquals(live.cardinality(), db.approximateNumEntries(), "after a full compaction");
        }
    }

    /**
     * A database whose tables carry stats blocks of the first layout (entries, deletions,
     * settled: what this library wrote before it counted keys) is estimated as it was: every
     * version counts, so two versions of every key count twice.
     */
    @Test
    void tablesOfTheFirstLayoutCountEveryVersionAsBefore(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("db");
        int n = 1000;
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), new Options())) {
            for (int version = 0; version < 2; version++) {
                for (int i = 0; i < n; i++) {
                    db.put(key(i, n, false), new byte[] {(byte) version});
                }
                db.flushMemTable(); // two tables, one version of every key in each
            }
            assertEquals(n, db.approximateNumEntries(), "the second table's keys were found in the first");
        }
        int rewritten = 0;
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".ldb") || f.toString().endsWith(".sst"))::iterator) {
                byte[] file = Files.readAllBytes(p);
                BlockHandle h = StatsBlocks.find(file);
                ByteCursor in = new ByteCursor(slice(file, h));
                long entries = in.readVarint64();
                long deletions = in.readVarint64();
                long settled = in.readVarint64();
                StatsBlocks.rewrite(file, firstLayout((int) h.size(), entries, deletions, settled));
                Files.write(p, file);
                rewritten++;
            }
        }
        assertEquals(2, rewritten);
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), new Options())) {
            assertEquals(2L * n, db.approximateNumEntries(), "every version counts, as before");
            db.compactRange(null, null);
            assertEquals(n, db.approximateNumEntries(), "the compaction's output counts keys");
        }
    }

    /**
     * Writes in batches of 1,000 (a write per key would spend the test's time on the write path's
     * lock checks). {@link #flush()} writes what is batched; closing writes the rest.
     */
    private static final class Batches implements AutoCloseable {
        private final ExtendedDB db;
        private Batch current;
        private int size;

        Batches(ExtendedDB db) {
            this.db = db;
        }

        /** The batch to add the next write to; the one before is written when it holds 1,000. */
        Batch batch() {
            if (current == null || size == 1000) {
                flush();
                current = new Batch(db.createWriteBatch());
            }
            size++;
            return current;
        }

        void flush() {
            if (current != null) {
                db.write(current.batch);
                try {
                    current.batch.close();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                current = null;
                size = 0;
            }
        }

        @Override
        public void close() {
            flush();
        }
    }

    /** A write batch being filled. */
    private record Batch(org.iq80.leveldb.WriteBatch batch) {
        void put(byte[] key, byte[] value) {
            batch.put(key, value);
        }

        void delete(byte[] key) {
            batch.delete(key);
        }
    }

    private static java.nio.ByteBuffer slice(byte[] file, BlockHandle h) {
        return java.nio.ByteBuffer.wrap(file, (int) h.offset(), (int) h.size()).slice();
    }

    /** The three counts of the first layout, the last varint padded with redundant bytes to {@code size}. */
    private static byte[] firstLayout(int size, long entries, long deletions, long settled) {
        ByteSink sink = new ByteSink(size);
        sink.putVarint64(entries);
        sink.putVarint64(deletions);
        byte[] head = sink.toByteArray();
        byte[] out = new byte[size];
        System.arraycopy(head, 0, out, 0, head.length);
        // settled (< 128 here) as a varint of size - head.length bytes: 0x80 | low bits, 0x80..., 0x00
        assertTrue(settled < 128 && size - head.length >= 2);
        out[head.length] = (byte) (0x80 | settled);
        for (int i = head.length + 1; i < size - 1; i++) {
            out[i] = (byte) 0x80;
        }
        out[size - 1] = 0;
        return out;
    }
}
