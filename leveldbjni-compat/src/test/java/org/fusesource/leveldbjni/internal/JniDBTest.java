package org.fusesource.leveldbjni.internal;

import static org.fusesource.leveldbjni.JniDBFactory.asString;
import static org.fusesource.leveldbjni.JniDBFactory.bytes;
import static org.fusesource.leveldbjni.JniDBFactory.factory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Random;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What code written against leveldbjni 1.8 does with its {@code JniDB} works here: the database
 * {@code JniDBFactory.open} returns is one, casts to it reach leveldbjni's methods, and the
 * iterators, batches and snapshots it hands out are leveldbjni's classes, which it takes back.
 * The {@code close()} methods declare no checked exception, as leveldbjni's: the calls below
 * outside any {@code try} compile only because of that.
 */
class JniDBTest {
    @TempDir
    Path tmp;

    private JniDB open(String name) throws IOException {
        DB db = factory.open(new File(tmp.toFile(), name), new Options().createIfMissing(true));
        assertInstanceOf(JniDB.class, db);
        return (JniDB) db;
    }

    private static void fill(JniDB db, int n) {
        for (int i = 0; i < n; i++) {
            db.put(bytes(String.format("row%05d", i)), bytes("value " + i + " " + "x".repeat(200)));
        }
    }

    /**
     * leveldbjni's own DBTest.testCompactRanges, in its essentials: more than a memtable of rows,
     * all deleted, then a full compaction leaves levels 1 and 2 empty, which C++ LevelDB's
     * {@code leveldb.stats} layout shows as rows of zero files and zero MB.
     */
    @Test
    void castsReachCompactRangeAndProperties() throws Exception {
        JniDB db = open("compact");
        Random random = new Random(0);
        StringBuilder value = new StringBuilder();
        for (int i = 0; i < 1024; i++) {
            value.append('a' + random.nextInt(26)); // numbers: 3 KB of digits, as DBTest writes
        }
        for (int i = 0; i < 5 * 1024; i++) {
            db.put(bytes("row" + i), bytes(value.toString()));
        }
        long[] sizes = db.getApproximateSizes(new Range(bytes("row"), bytes("rox")));
        assertEquals(1, sizes.length);
        for (int i = 0; i < 5 * 1024; i++) {
            db.delete(bytes("row" + i));
        }
        String before = db.getProperty("leveldb.stats");
        assertFalse(before.contains("1        0        0         0"), before);
        assertFalse(before.contains("2        0        0         0"), before);
        db.compactRange(null, null);
        String after = db.getProperty("leveldb.stats");
        // DBTest asserts a time of 0 too, which the speed of the machine decides; this the rows.
        assertTrue(after.matches("(?s).*\n  1        0        0 +\\d+ .*"), after);
        assertTrue(after.matches("(?s).*\n  2        0        0 +\\d+ .*"), after);
        assertEquals("0", db.getProperty("leveldbj.num-files"));
        db.suspendCompactions();
        db.resumeCompactions();
        db.close();
    }

    @Test
    void iteratorsAreJniDBIterators() throws IOException {
        JniDB db = open("iterate");
        fill(db, 3);
        DBIterator it = db.iterator();
        assertInstanceOf(JniDBIterator.class, it);
        it.seekToFirst();
        assertEquals("row00000", asString(it.peekNext().getKey()));
        assertEquals("row00000", asString(it.next().getKey()));
        assertTrue(it.hasPrev());
        assertEquals("row00000", asString(it.peekPrev().getKey()));
        assertEquals("row00000", asString(it.prev().getKey()));
        it.seekToLast();
        assertEquals("row00002", asString(it.peekNext().getKey()));
        it.seek(bytes("row00001"));
        assertEquals("row00001", asString(it.next().getKey()));
        assertThrows(UnsupportedOperationException.class, it::remove);
        ((JniDBIterator) it).close();
        assertThrows(DBException.class, it::hasNext);
        assertEquals("0", db.getProperty("leveldbj.num-iterators"));
        db.close();
    }

    @Test
    void batchesAreJniWriteBatchesAndAreTakenBack() throws IOException {
        JniDB db = open("batch");
        WriteBatch batch = db.createWriteBatch();
        assertInstanceOf(JniWriteBatch.class, batch);
        assertTrue(batch.put(bytes("a"), bytes("1")) == batch, "put returns the batch");
        assertTrue(batch.delete(bytes("b")) == batch, "delete returns the batch");
        assertEquals(2, batch.size());
        assertTrue(batch.approximateSize() > 12);
        db.write(batch);
        assertArrayEquals(bytes("1"), db.get(bytes("a")));
        WriteBatch second = db.createWriteBatch().put(bytes("c"), bytes("3"));
        assertNull(db.write(second, new WriteOptions().sync(true)));
        assertArrayEquals(bytes("3"), db.get(bytes("c")));
        ((JniWriteBatch) batch).close();
        ((JniWriteBatch) second).close();
        assertThrows(DBException.class, () -> db.write(batch), "a closed batch is refused");
        db.close();
    }

    @Test
    void snapshotsAreJniSnapshotsAndAreTakenBack() throws IOException {
        JniDB db = open("snapshot");
        db.put(bytes("k"), bytes("old"));
        Snapshot snapshot = db.getSnapshot();
        assertInstanceOf(JniSnapshot.class, snapshot);
        Snapshot afterWrite = db.put(bytes("k"), bytes("new"), new WriteOptions().snapshot(true));
        assertInstanceOf(JniSnapshot.class, afterWrite);
        ReadOptions atSnapshot = new ReadOptions().snapshot(snapshot).fillCache(false).verifyChecksums(true);
        assertArrayEquals(bytes("old"), db.get(bytes("k"), atSnapshot));
        assertTrue(atSnapshot.snapshot() == snapshot, "the caller's options are left as they were");
        assertArrayEquals(bytes("new"), db.get(bytes("k"), new ReadOptions().snapshot(afterWrite)));
        assertArrayEquals(bytes("new"), db.get(bytes("k")));
        try (DBIterator it = db.iterator(atSnapshot)) {
            assertEquals("old", asString(it.next().getValue()));
        }
        assertNull(db.delete(bytes("k"), new WriteOptions()));
        ((JniSnapshot) snapshot).close();
        ((JniSnapshot) afterWrite).close();
        assertThrows(DBException.class, () -> db.get(bytes("k"), atSnapshot), "a closed snapshot is refused");
        assertEquals("0", db.getProperty("leveldbj.num-snapshots"));
        db.close();
    }

    @Test
    void aClosedDatabaseRefusesEveryCall() throws IOException {
        JniDB db = open("closed");
        db.put(bytes("k"), bytes("v"));
        db.close();
        db.close(); // idempotent, as in leveldbjni
        assertThrows(DBException.class, () -> db.get(bytes("k")));
        assertThrows(DBException.class, () -> db.put(bytes("k"), bytes("v")));
        assertThrows(DBException.class, db::iterator);
        assertThrows(DBException.class, () -> db.compactRange(null, null));
        // And the directory opens again.
        JniDB again = open("closed");
        assertArrayEquals(bytes("v"), again.get(bytes("k")));
        assertFalse(again.toString().isEmpty());
        again.close();
    }
}
