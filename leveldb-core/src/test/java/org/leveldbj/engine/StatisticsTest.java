package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Metric;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.Statistics;
import org.iq80.leveldb.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.testing.MemEnv;

/**
 * Every counter of {@link ExtendedDB#statistics()} moves by what a simple model of the
 * operations says, and the gauges agree with the files on disk.
 */
class StatisticsTest {
    private static final Path DIR = Path.of("/stats-db");

    private final MemEnv mem = new MemEnv();
    private final List<ExtendedDB> open = new ArrayList<>();

    @AfterEach
    void closeAll() {
        open.forEach(ExtendedDB::close);
    }

    private ExtendedDB open(Options options) throws IOException {
        ExtendedDB db = LevelDbFactory.factory.open(DIR.toFile(), options);
        open.add(db);
        return db;
    }

    /** The bytes of every file of a type in the directory. */
    private long bytesOf(FileType type) throws IOException {
        long sum = 0;
        for (String name : mem.getChildren(DIR)) {
            FileNames.Parsed p = FileNames.parse(name);
            if (p != null && p.type() == type) {
                sum += mem.getFileSize(DIR.resolve(name));
            }
        }
        return sum;
    }

    @Test
    void writesReadsAndSeeksAreCountedOneByOne() throws IOException {
        ExtendedDB db = open(new Options().env(mem));
        Statistics zero = db.statistics();
        for (Metric m : Metric.values()) {
            if (m.kind() == Metric.Kind.COUNTER) {
                assertEquals(0, zero.get(m), m.key() + " of a new database");
            }
        }
        int puts = 0;
        int deletes = 0;
        for (int i = 0; i < 100; i++) {
            db.put(bytes("key" + i), bytes("value" + i));
            puts++;
        }
        for (int i = 0; i < 10; i++) {
            db.delete(bytes("key" + i));
            deletes++;
        }
        try (WriteBatch batch = db.createWriteBatch()) {
            batch.put(bytes("a"), bytes("1")).put(bytes("b"), bytes("2")).delete(bytes("key50"));
            db.write(batch);
        }
        puts += 2;
        deletes++;
        int found = 0;
        int gets = 0;
        for (int i = 0; i < 60; i++) {
            if (db.get(bytes("key" + i)) != null) {
                found++;
            }
            gets++;
        }
        assertEquals(49, found, "keys 10-59 but 50");
        try (DBIterator it = db.iterator()) {
            it.seek(bytes("key5"));
            it.seekToFirst();
            it.seekToLast();
        }
        try (DBIterator it = db.iterator()) {
            assertTrue(it.hasNext()); // the first positioning of a new iterator
        }

        Statistics stats = db.statistics();
        assertEquals(puts, stats.get(Metric.KEYS_WRITTEN));
        assertEquals(deletes, stats.get(Metric.KEYS_DELETED));
        assertEquals(gets, stats.get(Metric.GETS));
        assertEquals(found, stats.get(Metric.KEYS_READ));
        assertEquals(4, stats.get(Metric.ITERATOR_SEEKS));
        assertEquals(bytesOf(FileType.LOG), stats.get(Metric.LOG_BYTES_WRITTEN), "the log holds every byte written to it");
        assertTrue(stats.get(Metric.MEMTABLE_BYTES) > 0);
        assertEquals(0, stats.get(Metric.FLUSHES));
        assertEquals(0, stats.get(Metric.BLOCK_CACHE_HITS) + stats.get(Metric.BLOCK_CACHE_MISSES), "no table read");
    }

    @Test
    void aFlushCountsTheBytesOfItsTableAndTheLevelsShowIt() throws IOException {
        ExtendedDB db = open(new Options().env(mem));
        for (int i = 0; i < 1000; i++) {
            db.put(bytes(String.format("key%04d", i)), bytes("value" + i));
        }
        db.flushMemTable();
        Statistics stats = db.statistics();
        long tableBytes = bytesOf(FileType.TABLE);
        assertTrue(tableBytes > 0);
        assertEquals(1, stats.get(Metric.FLUSHES));
        assertEquals(tableBytes, stats.get(Metric.FLUSH_BYTES_WRITTEN));
        assertEquals(1, stats.get(Metric.LEVEL_FILES));
        assertEquals(tableBytes, stats.get(Metric.LEVEL_BYTES));
        assertEquals(0, stats.get(Metric.COMPACTIONS));
        assertEquals(0, stats.get(Metric.PENDING_COMPACTION_BYTES));
    }

    @Test
    void aCompactionCountsWhatItReadAndWroteAtItsOutputLevel() throws IOException {
        ExtendedDB db = open(new Options().env(mem));
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 1000; i++) {
                db.put(bytes(String.format("key%04d", i)), bytes("value" + round + "-" + i));
            }
            db.flushMemTable(); // the second overlaps the first, so it lands a level above it
        }
        Statistics before = db.statistics();
        assertEquals(2, before.get(Metric.LEVEL_FILES));
        int outputLevel = deepestLevelWithFiles(before);
        db.compactRange(null, null);
        Statistics after = db.statistics();
        assertEquals(1, after.get(Metric.COMPACTIONS, outputLevel));
        assertEquals(1, after.get(Metric.COMPACTIONS));
        assertEquals(before.get(Metric.LEVEL_BYTES), after.get(Metric.COMPACTION_BYTES_READ, outputLevel),
                "both tables were its inputs");
        assertEquals(after.get(Metric.LEVEL_BYTES, outputLevel), after.get(Metric.COMPACTION_BYTES_WRITTEN, outputLevel));
        assertEquals(bytesOf(FileType.TABLE), after.get(Metric.LEVEL_BYTES), "the inputs were deleted");
        assertEquals(1, after.get(Metric.LEVEL_FILES));

        long lookups = after.get(Metric.BLOCK_CACHE_HITS) + after.get(Metric.BLOCK_CACHE_MISSES);
        long tableUses = after.get(Metric.TABLE_CACHE_HITS) + after.get(Metric.TABLE_CACHE_MISSES);
        for (int i = 0; i < 3; i++) {
            assertEquals("value1-7", new String(db.get(bytes("key0007")), java.nio.charset.StandardCharsets.UTF_8));
        }
        Statistics read = db.statistics();
        assertEquals(lookups + 3, read.get(Metric.BLOCK_CACHE_HITS) + read.get(Metric.BLOCK_CACHE_MISSES),
                "one block per lookup");
        assertTrue(read.get(Metric.BLOCK_CACHE_HITS) >= 1, "the block is admitted on its second miss");
        assertEquals(tableUses + 3, read.get(Metric.TABLE_CACHE_HITS) + read.get(Metric.TABLE_CACHE_MISSES),
                "one table per lookup");
        assertEquals(1, read.get(Metric.OPEN_TABLES));
    }

    private static int deepestLevelWithFiles(Statistics stats) {
        int deepest = -1;
        for (int level = 0; level < Statistics.LEVELS; level++) {
            if (stats.get(Metric.LEVEL_FILES, level) > 0) {
                deepest = level;
            }
        }
        return deepest;
    }

    @Test
    void aWriteWaitingForAFlushIsOneMemtableStall() throws Exception {
        GatedEnv gated = new GatedEnv(mem);
        CountDownLatch stalled = new CountDownLatch(1);
        ExtendedDB db = open(new Options().env(gated).writeBufferSize(4096).logger(message -> {
            if (message.contains("memtable full")) {
                stalled.countDown();
            }
        }));
        byte[] big = new byte[5000];
        db.put(bytes("a"), big); // fills the memtable
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            db.put(bytes("b"), big); // switches memtables: the flush waits at the gate
            db.put(bytes("c"), big); // waits for that flush
        });
        gated.awaitBlocked();
        assertTrue(stalled.await(2, TimeUnit.MINUTES), "the third write never waited");
        gated.open();
        writer.get(2, TimeUnit.MINUTES);
        Statistics stats = db.statistics();
        assertEquals(1, stats.get(Metric.STALL_MEMTABLE_COUNT));
        assertTrue(stats.get(Metric.STALL_MEMTABLE_TIME) > 0);
        assertEquals(0, stats.get(Metric.STALL_LEVEL0_STOP_COUNT));
    }

    @Test
    void writesIntoAFullLevelZeroAreSlowedDown() throws Exception {
        ExtendedDB db = open(new Options().env(mem).writeBufferSize(4096));
        db.suspendCompactions(); // flushes go on, into level 0
        byte[] value = new byte[1000];
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        Statistics stats = db.statistics();
        // Progress, not time: every write adds to the memtable; stop at the first slowed one,
        // long before level 0 holds the 12 tables that would stop writes for good.
        for (int i = 0; stats.get(Metric.STALL_LEVEL0_SLOWDOWN_COUNT) == 0; i++) {
            assertTrue(System.nanoTime() < deadline, "no write was slowed down; level 0 holds "
                    + stats.get(Metric.LEVEL_FILES, 0) + " tables");
            db.put(bytes(String.format("key%03d", i % 50)), value); // overlapping: every flush stays in level 0
            stats = db.statistics();
        }
        assertTrue(stats.get(Metric.LEVEL_FILES, 0) >= 8, "slowed down at 8 tables in level 0");
        assertTrue(stats.get(Metric.STALL_LEVEL0_SLOWDOWN_TIME) >= TimeUnit.MILLISECONDS.toNanos(1),
                "each slowed write waits 1 ms");
        assertTrue(stats.get(Metric.PENDING_COMPACTION_BYTES) >= stats.get(Metric.LEVEL_BYTES, 0),
                "level 0 is owed a compaction");
        db.resumeCompactions();
    }

    @Test
    void iteratorsSnapshotsAndValueFilesAreGauges() throws IOException {
        ExtendedDB db = open(new Options().env(mem).valueThreshold(100));
        db.put(bytes("small"), bytes("v"));
        db.put(bytes("large"), new byte[1000]);
        Statistics stats = db.statistics();
        assertEquals(1, stats.get(Metric.VALUE_FILES));
        assertEquals(bytesOf(FileType.VALUE), stats.get(Metric.VALUE_FILE_BYTES));
        assertTrue(stats.get(Metric.VALUE_BYTES_WRITTEN) > 1000, "the large value's record");
        DBIterator first = db.iterator();
        DBIterator second = db.iterator();
        Snapshot snapshot = db.getSnapshot();
        stats = db.statistics();
        assertEquals(2, stats.get(Metric.OPEN_ITERATORS));
        assertEquals(1, stats.get(Metric.OPEN_SNAPSHOTS));
        first.close();
        second.close();
        snapshot.close();
        stats = db.statistics();
        assertEquals(0, stats.get(Metric.OPEN_ITERATORS));
        assertEquals(0, stats.get(Metric.OPEN_SNAPSHOTS));
    }

    @Test
    void recoveryFlushesAreFlushesAndAClosedDatabaseHasNoStatistics() throws IOException {
        ExtendedDB db = open(new Options().env(mem));
        // A flush first: with more than one edit in its MANIFEST, the reopen writes the log to a
        // table (a reopen of a database whose MANIFEST is a snapshot and one edit keeps its small
        // log instead: OpenSyncsTest).
        db.put(bytes("seed"), bytes("0"));
        db.flushMemTable();
        db.put(bytes("a"), bytes("1"));
        db.close();
        assertThrows(DBException.class, db::statistics);
        long tablesBefore = bytesOf(FileType.TABLE);
        ExtendedDB reopened = open(new Options().env(mem));
        Statistics stats = reopened.statistics();
        assertEquals(1, stats.get(Metric.FLUSHES), "the replayed log went to a table");
        assertEquals(bytesOf(FileType.TABLE) - tablesBefore, stats.get(Metric.FLUSH_BYTES_WRITTEN));
        assertEquals(0, stats.get(Metric.KEYS_WRITTEN), "replayed writes are not writes");
    }

    @Test
    void aSharedBlockCacheIsCountedPerDatabase() throws IOException {
        org.iq80.leveldb.Cache cache = LevelDbFactory.newCache(8 << 20);
        ExtendedDB a = open(new Options().env(mem).cache(cache));
        ExtendedDB b = LevelDbFactory.factory.open(Path.of("/other-db").toFile(), new Options().env(mem).cache(cache));
        open.add(b);
        for (ExtendedDB db : List.of(a, b)) {
            db.put(bytes("k"), bytes("v"));
            db.compactRange(null, null);
        }
        Statistics beforeB = b.statistics();
        for (int i = 0; i < 5; i++) {
            a.get(bytes("k"));
        }
        Statistics afterB = b.statistics();
        assertEquals(beforeB.get(Metric.BLOCK_CACHE_HITS) + beforeB.get(Metric.BLOCK_CACHE_MISSES),
                afterB.get(Metric.BLOCK_CACHE_HITS) + afterB.get(Metric.BLOCK_CACHE_MISSES), "b read nothing");
        Statistics statsA = a.statistics();
        assertTrue(statsA.get(Metric.BLOCK_CACHE_HITS) + statsA.get(Metric.BLOCK_CACHE_MISSES) >= 5);
    }
}
