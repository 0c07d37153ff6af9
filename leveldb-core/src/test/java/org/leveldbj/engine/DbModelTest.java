package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Randomized operations against a TreeMap model, with reopens, snapshots and crashes. A failure
 * reports its seed; rerun it with {@code -Dleveldbj.seed=N}.
 */
@ExtendWith(SeedExtension.class)
class DbModelTest {
    private final MemEnv env = new MemEnv();
    private final File dir = new File("/db");

    Options options() {
        return new Options().env(env).writeBufferSize(8_000).maxFileSize(16_000).blockSize(512);
    }

    private static byte[] key(Random r) {
        return String.format("key%04d", r.nextInt(1500)).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(Random r) {
        byte[] v = new byte[r.nextInt(60)];
        r.nextBytes(v);
        return v;
    }

    @Test
    void randomOperationsMatchTheModel(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        DB db = LevelDbFactory.factory.open(dir, options());
        try {
            for (int step = 0; step < 12_000; step++) {
                int op = r.nextInt(100);
                if (op < 55) {
                    byte[] k = key(r);
                    byte[] v = value(r);
                    db.put(k, v);
                    model.put(k, v);
                } else if (op < 70) {
                    byte[] k = key(r);
                    db.delete(k);
                    model.remove(k);
                } else if (op < 80) {
                    try (WriteBatch batch = db.createWriteBatch()) {
                        for (int i = r.nextInt(10); i >= 0; i--) {
                            byte[] k = key(r);
                            if (r.nextBoolean()) {
                                byte[] v = value(r);
                                batch.put(k, v);
                                model.put(k, v);
                            } else {
                                batch.delete(k);
                                model.remove(k);
                            }
                        }
                        db.write(batch);
                    }
                } else if (op < 95) {
                    byte[] k = key(r);
                    assertArrayEquals(model.get(k), db.get(k), "seed " + seed + " step " + step);
                } else if (op < 97) {
                    checkIteration(db, model, r, seed);
                } else if (op < 98) {
                    snapshotCheck(db, model, r, seed);
                } else if (op < 99) {
                    db.close();
                    db = LevelDbFactory.factory.open(dir, options());
                } else {
                    db.compactRange(r.nextBoolean() ? null : key(r), null);
                }
            }
            checkIteration(db, model, r, seed);
        } finally {
            db.close();
        }
    }

    private static void snapshotCheck(DB db, TreeMap<byte[], byte[]> model, Random r, long seed) throws IOException {
        TreeMap<byte[], byte[]> frozen = new TreeMap<>(model);
        Snapshot snapshot = db.getSnapshot();
        for (int i = 0; i < 200; i++) {
            db.put(key(r), value(r));
        }
        db.compactRange(null, null);
        ReadOptions at = new ReadOptions().snapshot(snapshot);
        for (int i = 0; i < 50; i++) {
            byte[] k = key(r);
            assertArrayEquals(frozen.get(k), db.get(k, at), "seed " + seed);
        }
        try (DBIterator it = db.iterator(at)) {
            it.seekToFirst();
            for (Map.Entry<byte[], byte[]> e : frozen.entrySet()) {
                assertTrue(it.hasNext(), "seed " + seed);
                Map.Entry<byte[], byte[]> got = it.next();
                assertArrayEquals(e.getKey(), got.getKey(), "seed " + seed);
                assertArrayEquals(e.getValue(), got.getValue(), "seed " + seed);
            }
            assertFalse(it.hasNext());
        }
        snapshot.close();
        // Bring the model up to date with what the database now holds.
        try (DBIterator it = db.iterator()) {
            model.clear();
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                model.put(e.getKey(), e.getValue());
            }
        }
    }

    private static void checkIteration(DB db, TreeMap<byte[], byte[]> model, Random r, long seed) throws IOException {
        try (DBIterator it = db.iterator()) {
            it.seekToFirst();
            for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                assertTrue(it.hasNext(), "seed " + seed);
                Map.Entry<byte[], byte[]> got = it.next();
                assertArrayEquals(e.getKey(), got.getKey(), "seed " + seed);
                assertArrayEquals(e.getValue(), got.getValue(), "seed " + seed);
            }
            assertFalse(it.hasNext(), "seed " + seed);
            byte[] start = key(r);
            it.seek(start);
            Map.Entry<byte[], byte[]> expected = model.ceilingEntry(start);
            assertEquals(expected != null, it.hasNext(), "seed " + seed);
            if (expected != null) {
                assertArrayEquals(expected.getKey(), it.peekNext().getKey(), "seed " + seed);
            }
            // Reverse from the last entry.
            it.seekToLast();
            for (Map.Entry<byte[], byte[]> e : model.descendingMap().entrySet()) {
                assertTrue(it.hasNext(), "seed " + seed);
                assertArrayEquals(e.getKey(), it.peekNext().getKey(), "seed " + seed);
                if (!it.hasPrev()) {
                    break;
                }
                it.prev();
            }
        }
    }

    @Test
    void syncedWritesSurviveACrash(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        TreeMap<byte[], byte[]> synced = new TreeMap<>(Arrays::compareUnsigned);
        for (int round = 0; round < 4; round++) {
            DB db = LevelDbFactory.factory.open(dir, options());
            for (int i = 0; i < 500; i++) {
                byte[] k = key(r);
                byte[] v = value(r);
                boolean sync = i % 10 == 9;
                db.put(k, v, new WriteOptions().sync(sync));
                synced.put(k, v);
            }
            db.put("last".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) round}, new WriteOptions().sync(true));
            // Unsynced writes after it, enough to fill memtables that go to tables before the
            // crash: each may be lost, but never half (a table naming a value that is gone).
            TreeMap<byte[], List<byte[]>> unsynced = new TreeMap<>(Arrays::compareUnsigned);
            for (int i = 0; i < 300; i++) {
                byte[] k = key(r);
                byte[] v = value(r);
                db.put(k, v);
                unsynced.computeIfAbsent(k, x -> new ArrayList<>()).add(v);
            }
            // Crash: nothing after the last sync need survive, and the database is not closed.
            env.dropUnsyncedData();
            db.close();
            try (DB reopened = LevelDbFactory.factory.open(dir, options())) {
                assertArrayEquals(new byte[] {(byte) round}, reopened.get("last".getBytes(StandardCharsets.US_ASCII)),
                        "seed " + seed);
                for (Map.Entry<byte[], byte[]> e : synced.entrySet()) {
                    if (!unsynced.containsKey(e.getKey())) {
                        assertArrayEquals(e.getValue(), reopened.get(e.getKey()), "seed " + seed);
                    }
                }
                for (Map.Entry<byte[], List<byte[]>> e : unsynced.entrySet()) {
                    byte[] got = reopened.get(e.getKey());
                    boolean allowed = Arrays.equals(got, synced.get(e.getKey()))
                            || e.getValue().stream().anyMatch(v -> Arrays.equals(v, got));
                    assertTrue(allowed, "seed " + seed + ": " + new String(e.getKey(), StandardCharsets.US_ASCII)
                            + " is neither its synced value nor one written after the sync");
                    if (got == null) {
                        synced.remove(e.getKey());
                    } else {
                        synced.put(e.getKey(), got);
                    }
                }
            }
        }
    }

    @Test
    void paranoidChecksFailOnACorruptLogRecord() throws IOException {
        DB db = LevelDbFactory.factory.open(dir, new Options().env(env));
        for (int i = 0; i < 100; i++) {
            db.put(("k" + i).getBytes(StandardCharsets.US_ASCII), new byte[100]);
        }
        db.close();
        Path log = null;
        for (String name : env.getChildren(dir.toPath())) {
            if (name.endsWith(".log") && env.getFileSize(dir.toPath().resolve(name)) > 0) {
                log = dir.toPath().resolve(name);
            }
        }
        byte[] bytes = new byte[(int) env.getFileSize(log)];
        try (Env.SequentialFile in = env.newSequentialFile(log)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining() && in.read(buf) > 0) {
                // keep reading
            }
        }
        bytes[200] ^= 1;
        try (Env.WritableFile out = env.newWritableFile(log)) {
            out.append(ByteBuffer.wrap(bytes));
        }
        Path corrupt = log;
        CorruptDatabaseException e = assertThrows(CorruptDatabaseException.class,
                () -> LevelDbFactory.factory.open(dir, new Options().env(env).paranoidChecks(true)));
        assertTrue(e.file().endsWith(corrupt.getFileName().toString()), e.file());
        assertTrue(e.getMessage().contains(corrupt.getFileName().toString()), e.getMessage());
        // Without paranoid checks the damaged block's remainder is dropped and the rest is kept.
        try (DB lenient = LevelDbFactory.factory.open(dir, new Options().env(env))) {
            assertArrayEquals(new byte[100], lenient.get("k0".getBytes(StandardCharsets.US_ASCII)));
            assertEquals(null, lenient.get("k99".getBytes(StandardCharsets.US_ASCII)));
        }
    }
}
