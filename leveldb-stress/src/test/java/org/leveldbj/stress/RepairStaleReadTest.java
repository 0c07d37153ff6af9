package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/**
 * A regression test for an engine bug the crash test's repair rounds found: after a repair,
 * point lookups returned stale values that the iterator did not.
 *
 * <p>Repair lists every table at level 0. Lookups read level-0 files by file number, highest
 * first, taking a higher number for newer data; but a compaction into a deeper level writes
 * higher-numbered files holding older data than the level-1 files it leaves alone. Once both
 * are at level 0, {@code get} finds the older value first. The iterator merges by sequence
 * number and stays right. The state lasts until compactions rewrite those level-0 files.
 *
 * <p>Before the fix, 126 keys of 1,000 disagreed.
 */
class RepairStaleReadTest {
    @TempDir
    Path dir;

    @Test
    void getAgreesWithTheIteratorAfterRepair() throws Exception {
        File db = dir.toFile();
        Options options = new Options().writeBufferSize(64 << 10).maxFileSize(64 << 10);
        Random random = new Random(1);
        try (DB d = LevelDbFactory.factory.open(db, options)) {
            for (int i = 0; i < 4000; i++) {
                d.put(key(i % 1000), value(random, i));
            }
            d.compactRange(null, null); // everything in the deepest level
            for (int i = 4000; i < 8000; i++) {
                d.put(key(random.nextInt(1000)), value(random, i)); // newer values, in levels 0 and 1
            }
            // Pushes one slice of level 1 down: new, higher-numbered files of mostly older data.
            d.compactRange(key(500), key(510));
        }
        LevelDbFactory.factory.repair(db, options);
        int stale = 0;
        String first = "";
        try (DB d = LevelDbFactory.factory.open(db, new Options().readOnly(true)); DBIterator it = d.iterator()) {
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                byte[] got = d.get(e.getKey());
                if (!Arrays.equals(got, e.getValue()) && stale++ == 0) {
                    first = new String(e.getKey(), StandardCharsets.US_ASCII) + ": get returns write "
                            + ByteBuffer.wrap(got).getLong() + ", the iterator write " + ByteBuffer.wrap(e.getValue()).getLong();
                }
            }
        }
        assertEquals(0, stale, first);
    }

    private static byte[] key(int k) {
        return String.format("k%04d", k).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(Random random, long write) {
        byte[] v = new byte[500];
        random.nextBytes(v);
        ByteBuffer.wrap(v).putLong(write);
        return v;
    }
}
