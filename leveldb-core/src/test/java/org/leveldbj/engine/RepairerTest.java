package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.TableFileSuffix;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leveldbj.cache.TableCache;
import org.leveldbj.compaction.TableFileWriter;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ParsedInternalKey;
import org.leveldbj.key.ValueType;
import org.leveldbj.log.LogReader;
import org.leveldbj.log.LogWriter;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.util.Bytes;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;

class RepairerTest {
    private static final InternalKeyComparator ICMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);
    private static final TableOptions TABLE_OPTIONS = TableOptions.DEFAULTS.withComparator(ICMP).withBlockSize(256);

    private final MemEnv env = new MemEnv();
    private final Path dir = Path.of("/db");
    private final List<String> reports = new ArrayList<>();

    @BeforeEach
    void createDir() throws IOException {
        env.createDir(dir);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private void repair() throws IOException {
        TableCache cache = new TableCache(env, dir, 10, TABLE_OPTIONS);
        try {
            new Repairer(env, dir, ICMP, TABLE_OPTIONS, new TableCacheSource(cache), 2 << 20, TableFileSuffix.AUTO,
                    reports::add).run();
        } finally {
            cache.close();
        }
    }

    /** Writes a table of {@code key<from..to)} = {@code v<i>} with sequence {@code seqBase + i}. */
    private void writeTable(long number, int from, int to, long seqBase) throws IOException {
        MemTable mem = new MemTable(BytewiseComparator.INSTANCE);
        for (int i = from; i < to; i++) {
            byte[] k = b(String.format("key%05d", i));
            byte[] v = b("v" + i);
            mem.add(seqBase + i, ValueType.VALUE, k, 0, k.length, v, 0, v.length);
        }
        TableCache cache = new TableCache(env, dir, 10, TABLE_OPTIONS);
        try (SortedIterator it = mem.iterator()) {
            TableFileWriter.writeAll(env, dir, number, false, TABLE_OPTIONS, new TableCacheSource(cache), it);
        } finally {
            cache.close();
        }
        mem.unref();
    }

    /** The MANIFEST CURRENT names, decoded (repair writes one edit). */
    private VersionEdit currentEdit() throws IOException {
        String name;
        try (Env.RandomAccessFile current = env.newRandomAccessFile(dir.resolve("CURRENT"))) {
            name = new String(Bytes.toArray(current.read(0, 100)), StandardCharsets.US_ASCII).trim();
        }
        try (LogReader reader = new LogReader(env.newSequentialFile(dir.resolve(name)), (n, r) -> reports.add(r))) {
            return VersionEdit.decode(reader.readRecord());
        }
    }

    /** Newest visible value per user key across every table of the edit. */
    private Map<String, String> contents(VersionEdit edit) throws IOException {
        TreeMap<String, long[]> seqs = new TreeMap<>();
        TreeMap<String, String> values = new TreeMap<>();
        byte[] previousLargest = null;
        for (VersionEdit.NewFile f : edit.newFiles()) {
            assertEquals(1, f.level(), "small merged tables go to level 1");
            if (previousLargest != null) {
                assertTrue(ICMP.compare(previousLargest, f.file().smallest()) < 0, "merged tables do not overlap");
            }
            previousLargest = f.file().largest();
            Path file = dir.resolve(FileNames.sstTableFileName(f.file().number()));
            if (!env.fileExists(file)) {
                file = dir.resolve(FileNames.tableFileName(f.file().number()));
            }
            assertEquals(env.getFileSize(file), f.file().fileSize());
            try (Env.RandomAccessFile in = env.newRandomAccessFile(file);
                 SortedIterator it = Table.open(file.toString(), in, in.size(), TABLE_OPTIONS)
                         .iterator(TableReadOptions.VERIFY)) {
                for (it.seekToFirst(); it.valid(); it.next()) {
                    ParsedInternalKey k = InternalKeys.parse(Bytes.toArray(it.key()));
                    String user = new String(k.userKey(), StandardCharsets.US_ASCII);
                    long[] seen = seqs.get(user);
                    if (seen == null || seen[0] < k.sequence()) {
                        seqs.put(user, new long[] {k.sequence()});
                        values.put(user, k.type() == ValueType.DELETION ? null
                                : new String(Bytes.toArray(it.value()), StandardCharsets.US_ASCII));
                    }
                }
            }
        }
        values.values().removeIf(v -> v == null);
        return values;
    }

    @Test
    void logsBecomeTablesAndEverythingIsListedInANewManifest() throws IOException {
        writeTable(5, 0, 100, 0);
        try (LogWriter log = new LogWriter(env.newWritableFile(dir.resolve(FileNames.logFileName(7))))) {
            WriteBatchImpl batch = new WriteBatchImpl().put(b("key00003"), b("newer")).delete(b("key00004"))
                    .put(b("zzz"), b("last"));
            batch.setSequence(1000);
            log.addRecord(batch.contents());
        }
        try (Env.WritableFile stale = env.newWritableFile(dir.resolve("MANIFEST-000003"))) {
            stale.append(ByteBuffer.wrap(b("garbage")));
        }

        repair();

        VersionEdit edit = currentEdit();
        assertEquals(BytewiseComparator.NAME, edit.comparatorName());
        assertEquals(1002L, edit.lastSequence());
        assertEquals(1, edit.newFiles().size(), "one merged table");
        assertTrue(edit.nextFileNumber() > 8);
        Map<String, String> data = contents(edit);
        assertEquals(100, data.size());
        assertEquals("newer", data.get("key00003"));
        assertEquals(null, data.get("key00004"));
        assertEquals("last", data.get("zzz"));
        assertEquals("v99", data.get("key00099"));
        List<String> lost = env.getChildren(dir.resolve(Repairer.LOST_DIR)).stream().sorted().toList();
        assertEquals(List.of("000007.log", "MANIFEST-000003"), lost);
        assertFalse(env.fileExists(dir.resolve(FileNames.tableFileName(5))), "merged, then deleted");
    }

    @Test
    void damagedTableKeepsItsReadablePrefix() throws IOException {
        writeTable(9, 0, 2000, 0);
        Path file = dir.resolve("000009.ldb");
        byte[] bytes;
        try (Env.RandomAccessFile in = env.newRandomAccessFile(file)) {
            bytes = Bytes.toArray(in.read(0, (int) in.size()));
        }
        bytes[bytes.length / 2] ^= 0x55;  // somewhere in the data blocks
        try (Env.WritableFile out = env.newWritableFile(file)) {
            out.append(ByteBuffer.wrap(bytes));
        }

        repair();

        VersionEdit edit = currentEdit();
        assertEquals(1, edit.newFiles().size());
        FileMetaData salvaged = edit.newFiles().get(0).file();
        assertTrue(salvaged.number() > 9);
        Map<String, String> data = contents(edit);
        assertTrue(data.size() > 500 && data.size() < 2000, "salvaged " + data.size());
        assertEquals("v0", data.get("key00000"));
        assertTrue(env.getChildren(dir.resolve(Repairer.LOST_DIR)).contains("000009.ldb"));
        assertTrue(reports.stream().anyMatch(r -> r.contains("block checksum mismatch")), reports.toString());
    }

    @Test
    void damagedLogRecordsAreSkipped() throws IOException {
        Path logFile = dir.resolve(FileNames.logFileName(3));
        try (LogWriter log = new LogWriter(env.newWritableFile(logFile))) {
            for (int i = 0; i < 3; i++) {
                WriteBatchImpl batch = new WriteBatchImpl().put(b("k" + i), b("v" + i));
                batch.setSequence(10 + i);
                log.addRecord(batch.contents());
            }
        }
        byte[] bytes;
        try (Env.RandomAccessFile in = env.newRandomAccessFile(logFile)) {
            bytes = Bytes.toArray(in.read(0, (int) in.size()));
        }
        // Each record is 26 bytes (7 header + 19 payload); damage the third one's payload. A
        // checksum mismatch drops the rest of its 32 KiB block, as in C++.
        bytes[2 * 26 + 7 + 13] ^= 1;
        try (Env.WritableFile out = env.newWritableFile(logFile)) {
            out.append(ByteBuffer.wrap(bytes));
        }

        repair();

        Map<String, String> data = contents(currentEdit());
        assertEquals(Map.of("k0", "v0", "k1", "v1"), data);
        assertTrue(reports.stream().anyMatch(r -> r.contains("checksum mismatch")), reports.toString());
    }

    @Test
    void emptyDirectoryIsAnError() {
        DBException e = assertThrows(DBException.class, this::repair);
        assertTrue(e.getMessage().endsWith("repair found no files"), e.getMessage());
    }

    private Options dbOptions() {
        return new Options().env(env).writeBufferSize(64 << 10).maxFileSize(64 << 10);
    }

    @Test
    void aCompactionsLeftoverInputDoesNotBringADeletedKeyBack() throws IOException {
        File db = new File(dir.toString());
        Map<String, byte[]> aside = new TreeMap<>();
        try (DB d = LevelDbFactory.factory.open(db, dbOptions())) {
            d.put(b("k"), b("old"));
            d.put(b("z"), b("kept"));
            d.compactRange(null, null);
            for (String name : DbTestSupport.tables(env, dir)) {
                aside.put(name, DbTestSupport.read(env, dir.resolve(name)));
            }
            d.delete(b("k"));
            d.compactRange(null, null); // drops the marker and the old value, then deletes the old table
        }
        // As a kill before the old table was deleted would have left it.
        for (Map.Entry<String, byte[]> e : aside.entrySet()) {
            if (!env.fileExists(dir.resolve(e.getKey()))) {
                DbTestSupport.write(env, dir.resolve(e.getKey()), e.getValue());
            }
        }
        LevelDbFactory.factory.repair(db, dbOptions());
        try (DB d = LevelDbFactory.factory.open(db, dbOptions())) {
            assertNull(d.get(b("k")));
            assertArrayEquals(b("kept"), d.get(b("z")));
        }
        assertTrue(env.getChildren(dir.resolve(Repairer.LOST_DIR)).containsAll(aside.keySet()),
                "the leftover is moved aside");
    }

    @Test
    void afterRepairLookupsFindTheNewestValueAsIteratorsDo() throws IOException {
        File db = new File(dir.toString());
        Random random = new Random(1);
        TreeMap<byte[], byte[]> model = DbTestSupport.newModel();
        try (DB d = LevelDbFactory.factory.open(db, dbOptions())) {
            for (int i = 0; i < 8000; i++) {
                byte[] key = b(String.format("k%04d", i < 4000 ? i % 1000 : random.nextInt(1000)));
                byte[] value = new byte[500];
                random.nextBytes(value);
                d.put(key, value);
                model.put(key, value);
                if (i == 3999) {
                    d.compactRange(null, null); // everything in the deepest level
                }
            }
            // Pushes one slice of level 1 down: new, higher-numbered tables of mostly older data.
            d.compactRange(b("k0500"), b("k0510"));
        }
        LevelDbFactory.factory.repair(db, dbOptions());
        try (DB d = LevelDbFactory.factory.open(db, dbOptions())) {
            assertTrue(DbTestSupport.sameEntries(model, DbTestSupport.contents(d)), "the iterator sees the newest values");
            for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                assertArrayEquals(e.getValue(), d.get(e.getKey()), () -> "get of " + new String(e.getKey()));
            }
        }
    }
}
