package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.engine.DbTestSupport.named;
import static org.leveldbj.engine.DbTestSupport.randomBytes;
import static org.leveldbj.engine.DbTestSupport.read;
import static org.leveldbj.engine.DbTestSupport.utf8;
import static org.leveldbj.engine.DbTestSupport.write;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
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
import org.leveldbj.vlog.SeparatedFormat;

/**
 * What value separation changes and what it must not: large values live in value files and the
 * tables hold references, the MANIFEST keeps other implementations out, reads of every kind see
 * the values, and recovery drops what refers to a value that never reached its file.
 */
@ExtendWith(SeedExtension.class)
class ValueSeparationTest {
    private static final int THRESHOLD = 1000;
    private final MemEnv env = new MemEnv();
    private final File dir = new File("/db");
    private final Path path = dir.toPath();

    private Options options() {
        return new Options().env(env).valueThreshold(THRESHOLD);
    }

    private long bytesNamed(String suffix) throws IOException {
        long total = 0;
        for (String name : named(env, path, suffix)) {
            total += env.getFileSize(path.resolve(name));
        }
        return total;
    }

    private String manifest() throws IOException {
        List<String> manifests = named(env, path, "");
        String latest = manifests.stream().filter(n -> n.startsWith("MANIFEST-")).reduce((a, b) -> b).orElseThrow();
        return new String(read(env, path.resolve(latest)), StandardCharsets.ISO_8859_1);
    }

    @Test
    void largeValuesLiveInValueFilesAndTheTablesHoldReferences(@Seed Random r) throws IOException {
        byte[][] values = new byte[200][];
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            for (int i = 0; i < values.length; i++) {
                values[i] = randomBytes(r, i % 2 == 0 ? 20_000 : 10);
                db.put(utf8("k" + i), values[i]);
            }
            db.compactRange(null, null);
            for (int i = 0; i < values.length; i++) {
                assertArrayEquals(values[i], db.get(utf8("k" + i)));
            }
            assertEquals(String.valueOf(100L), db.getProperty("leveldbj.num-separated-values"));
        }
        assertTrue(bytesNamed(".vlog") >= 100 * 20_000L, "every large value is in a value file");
        assertTrue(bytesNamed(".ldb") < 50_000, "the tables hold references, not values: " + bytesNamed(".ldb"));
        assertTrue(manifest().contains(SeparatedFormat.markedName("leveldb.BytewiseComparator")));
    }

    @Test
    void iteratorsBothWaysSnapshotsAndBatchesSeeTheValues(@Seed Random r) throws IOException {
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            byte[] old = randomBytes(r, 5000);
            db.put(utf8("a"), old);
            Snapshot snapshot = db.getSnapshot();
            byte[] newer = randomBytes(r, 7000);
            byte[] small = randomBytes(r, 5);
            try (WriteBatch batch = db.createWriteBatch()) {
                batch.put(utf8("a"), newer);
                batch.put(utf8("b"), small);
                batch.put(utf8("c"), randomBytes(r, 3000));
                batch.delete(utf8("c"));
                batch.put(utf8("d"), randomBytes(r, 999));
                db.write(batch);
            }
            db.compactRange(null, null);
            assertArrayEquals(old, db.get(utf8("a"), new ReadOptions().snapshot(snapshot)));
            assertArrayEquals(newer, db.get(utf8("a")));
            assertNull(db.get(utf8("c")));
            try (DBIterator it = db.iterator(new ReadOptions().snapshot(snapshot))) {
                it.seekToFirst();
                Map.Entry<byte[], byte[]> e = it.next();
                assertArrayEquals(old, e.getValue());
                assertFalse(it.hasNext());
            }
            snapshot.close();
            try (DBIterator it = db.iterator()) {
                it.seekToLast();
                assertArrayEquals(utf8("d"), it.peekNext().getKey());
                assertEquals(999, it.peekNext().getValue().length);
                assertArrayEquals(small, it.prev().getValue());
                assertArrayEquals(newer, it.prev().getValue());
                assertFalse(it.hasPrev());
                assertArrayEquals(newer, it.next().getValue());
                assertArrayEquals(small, it.next().getValue());
            }
        }
    }

    @Test
    void reopenedWithoutAThresholdItStillReadsItsValuesAndStaysMarked(@Seed Random r) throws IOException {
        byte[] big = randomBytes(r, 50_000);
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            db.put(utf8("big"), big);
        }
        long valueBytes = bytesNamed(".vlog");
        try (DB db = LevelDbFactory.factory.open(dir, new Options().env(env).readOnly(true))) {
            assertArrayEquals(big, db.get(utf8("big")), "a read-only open reads separated values too");
        }
        try (DB db = LevelDbFactory.factory.open(dir, new Options().env(env))) {
            assertArrayEquals(big, db.get(utf8("big")), "replayed from the log: a reference");
            db.put(utf8("later"), big);
            db.compactRange(null, null);
            assertArrayEquals(big, db.get(utf8("big")));
            assertArrayEquals(big, db.get(utf8("later")));
        }
        assertEquals(valueBytes, bytesNamed(".vlog"), "without a threshold, new values stay in the tables");
        assertTrue(manifest().contains(SeparatedFormat.PREFIX), "still marked: it holds references");
    }

    @Test
    void aDatabaseNeverOpenedWithAThresholdIsNotMarked() throws IOException {
        try (DB db = LevelDbFactory.factory.open(dir, new Options().env(env))) {
            db.put(utf8("k"), new byte[5000]);
        }
        try (DB db = LevelDbFactory.factory.open(dir, new Options().env(env))) {
            db.compactRange(null, null);
        }
        assertFalse(manifest().contains(SeparatedFormat.PREFIX));
        assertTrue(named(env, path, ".vlog").isEmpty());
    }

    @Test
    void aBatchReferringToALostValueIsDroppedWholeAtRecovery(@Seed Random r) throws IOException {
        byte[] kept = randomBytes(r, 4000);
        DB db = LevelDbFactory.factory.open(dir, options());
        db.put(utf8("kept"), kept, new WriteOptions().sync(true));
        try (WriteBatch batch = db.createWriteBatch()) {
            batch.put(utf8("lost-small"), utf8("x"));
            batch.put(utf8("lost-big"), randomBytes(r, 4000));
            db.write(batch, new WriteOptions().sync(true));
        }
        // The machine loses the value file's last record but not the log: the log record now
        // names a value its file does not hold.
        String vlog = named(env, path, ".vlog").get(0);
        byte[] content = read(env, path.resolve(vlog));
        db.close();
        write(env, path.resolve(vlog), Arrays.copyOf(content, content.length - 10));
        try (DB reopened = LevelDbFactory.factory.open(dir, options())) {
            assertArrayEquals(kept, reopened.get(utf8("kept")));
            assertNull(reopened.get(utf8("lost-big")));
            assertNull(reopened.get(utf8("lost-small")), "the batch is dropped whole");
        }
    }

    @Test
    void withParanoidChecksADanglingReferenceFailsTheOpen(@Seed Random r) throws IOException {
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            db.put(utf8("big"), randomBytes(r, 4000));
        }
        String vlog = named(env, path, ".vlog").get(0);
        env.deleteFile(path.resolve(vlog));
        CorruptDatabaseException e = assertThrows(CorruptDatabaseException.class,
                () -> LevelDbFactory.factory.open(dir, options().paranoidChecks(true)).close());
        assertTrue(e.getMessage().contains(vlog), e.getMessage());
    }

    @Test
    void aDamagedValueIsACorruptionNamingItsFile(@Seed Random r) throws IOException {
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            db.put(utf8("big"), randomBytes(r, 4000));
            db.put(utf8("other"), randomBytes(r, 4000));
        }
        String vlog = named(env, path, ".vlog").get(0);
        DbTestSupport.flipByte(env, path.resolve(vlog), 100);
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            DBException e = assertThrows(CorruptionException.class, () -> db.get(utf8("big")));
            assertTrue(e.getMessage().contains(vlog), e.getMessage());
            assertEquals(4000, db.get(utf8("other")).length);
        }
    }

    @Test
    void repairKeepsReferencesAndTheMark(@Seed Random r) throws IOException {
        byte[] big = randomBytes(r, 9000);
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            db.put(utf8("big"), big);
            db.put(utf8("small"), utf8("s"));
            db.compactRange(null, null);
            db.put(utf8("in-log"), big);
        }
        LevelDbFactory.factory.repair(dir, new Options().env(env));
        assertTrue(manifest().contains(SeparatedFormat.PREFIX));
        try (DB db = LevelDbFactory.factory.open(dir, new Options().env(env))) {
            assertArrayEquals(big, db.get(utf8("big")));
            assertArrayEquals(big, db.get(utf8("in-log")));
            assertArrayEquals(utf8("s"), db.get(utf8("small")));
        }
    }

    @Test
    void repairDropsEntriesWhoseValueIsDamagedAndKeepsTheRest(@Seed Random r) throws IOException {
        byte[][] values = new byte[20][];
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            for (int i = 0; i < values.length; i++) {
                values[i] = randomBytes(r, 2000);
                db.put(utf8("k" + i), values[i]);
            }
            db.compactRange(null, null);
        }
        // Damage the record of k7: the records follow the puts, each 2000 bytes of value and a
        // few of key and header after the 8-byte file header.
        String vlog = named(env, path, ".vlog").get(0);
        byte[] content = read(env, path.resolve(vlog));
        int recordSize = (content.length - 8) / values.length;
        DbTestSupport.flipByte(env, path.resolve(vlog), 8 + 7 * recordSize + recordSize / 2);
        LevelDbFactory.factory.repair(dir, new Options().env(env));
        try (DB db = LevelDbFactory.factory.open(dir, options())) {
            assertNull(db.get(utf8("k7")), "an entry whose value is damaged is dropped by repair");
            for (int i = 0; i < values.length; i++) {
                if (i != 7) {
                    assertArrayEquals(values[i], db.get(utf8("k" + i)));
                }
            }
        }
    }

    private Options reclaimingOptions() {
        // Small table files make small value files (32 table files each), so that a few hundred
        // kilobytes of values fill several.
        return options().maxFileSize(4096).writeBufferSize(64 << 10);
    }

    @Test
    void overwrittenValuesComeBackAndEveryReaderKeepsItsView(@Seed Random r) throws IOException {
        int keys = 150;
        byte[][] first = new byte[keys][];
        byte[][] last = new byte[keys][];
        DbImpl db = (DbImpl) LevelDbFactory.factory.open(dir, reclaimingOptions());
        try {
            for (int i = 0; i < keys; i++) {
                first[i] = randomBytes(r, 3000 + r.nextInt(2000));
                db.put(utf8("k" + i), first[i]);
            }
            // The files filled by the first values alone (the last one also takes later values).
            List<String> firstRound = named(env, path, ".vlog");
            firstRound = firstRound.subList(0, firstRound.size() - 1);
            assertFalse(firstRound.isEmpty());
            Snapshot snapshot = db.getSnapshot();
            DBIterator old = db.iterator();
            old.seekToFirst();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < keys; i++) {
                    last[i] = randomBytes(r, 3000 + r.nextInt(2000));
                    db.put(utf8("k" + i), last[i]);
                }
            }
            db.compactRange(null, null);
            long live = 0;
            for (byte[] v : last) {
                live += v.length;
            }
            // The snapshot still needs the first values (and, as in LevelDB, keeps every entry
            // written after it): a pass, if one runs, must keep all of them readable.
            db.collectValueGarbageForTesting();
            for (int i = 0; i < keys; i++) {
                assertArrayEquals(first[i], db.get(utf8("k" + i), new ReadOptions().snapshot(snapshot)));
                assertArrayEquals(last[i], db.get(utf8("k" + i)));
            }
            int seen = 0;
            while (old.hasNext()) {
                Map.Entry<byte[], byte[]> e = old.next();
                assertArrayEquals(first[Integer.parseInt(new String(e.getKey(), StandardCharsets.US_ASCII).substring(1))],
                        e.getValue());
                seen++;
            }
            assertEquals(keys, seen);
            old.close();
            snapshot.close();
            // Now only the last values are live.
            db.compactEverything();
            db.collectValueGarbageForTesting();
            List<String> now = named(env, path, ".vlog");
            for (String before : firstRound) {
                assertFalse(now.contains(before), before + " held only overwritten values: " + now);
            }
            long onDisk = bytesNamed(".vlog");
            assertTrue(onDisk <= 1.5 * live, "value files " + onDisk + " bytes for " + live + " bytes of live values");
            for (int i = 0; i < keys; i++) {
                assertArrayEquals(last[i], db.get(utf8("k" + i)));
            }
        } finally {
            db.close();
        }
        try (DB reopened = LevelDbFactory.factory.open(dir, reclaimingOptions())) {
            for (int i = 0; i < keys; i++) {
                assertArrayEquals(last[i], reopened.get(utf8("k" + i)));
            }
        }
    }

    @Test
    void deletedValuesLeaveNoValueFileBehind(@Seed Random r) throws IOException {
        DbImpl db = (DbImpl) LevelDbFactory.factory.open(dir, reclaimingOptions());
        try {
            for (int i = 0; i < 200; i++) {
                db.put(utf8("k" + i), randomBytes(r, 2000));
            }
            for (int i = 0; i < 200; i++) {
                db.delete(utf8("k" + i));
            }
            db.compactEverything();
            db.collectValueGarbageForTesting();
            List<String> left = named(env, path, ".vlog");
            assertTrue(left.size() <= 1, "only the file being written may stay: " + left);
        } finally {
            db.close();
        }
        try (DbImpl reopened = (DbImpl) LevelDbFactory.factory.open(dir, reclaimingOptions())) {
            reopened.collectValueGarbageForTesting();
            assertTrue(named(env, path, ".vlog").isEmpty(), "a reopened database drops files nothing refers to");
            assertNull(reopened.get(utf8("k1")));
        }
    }
}
