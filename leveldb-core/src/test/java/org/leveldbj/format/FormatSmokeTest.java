package org.leveldbj.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.compress.Codecs;
import org.leveldbj.engine.WriteBatchImpl;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.log.LogReader;
import org.leveldbj.log.LogWriter;
import org.leveldbj.table.BloomFilterPolicy;
import org.leveldbj.table.FilterKeyExtractor;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableBuilder;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.util.Bytes;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;

/**
 * The format layer end to end on the real file system: lays out a database directory the way
 * the engine does (a write-ahead log of write batches, a level-0 table of internal keys with
 * snappy blocks and a bloom filter, a MANIFEST and CURRENT), then reads every file back.
 */
class FormatSmokeTest {
    private static final int ENTRIES = 20_000;

    private static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(int i) {
        return ("value-" + i + "-" + "x".repeat(i % 50)).getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void writesAndReadsADatabaseDirectory(@TempDir Path dir) throws IOException {
        Env env = FileSystemEnv.getDefault();
        InternalKeyComparator icmp = new InternalKeyComparator(BytewiseComparator.INSTANCE);
        TableOptions tableOptions = TableOptions.DEFAULTS
                .withComparator(icmp)
                .withFilter(new BloomFilterPolicy(10), FilterKeyExtractor.dropSuffix(InternalKeys.TRAILER_SIZE))
                .withVerifyChecksums(true);

        // The write-ahead log: batches of ten puts and a delete, sequence numbers consecutive.
        Path logFile = dir.resolve(FileNames.logFileName(3));
        long sequence = 1;
        try (LogWriter log = new LogWriter(env.newWritableFile(logFile))) {
            for (int i = 0; i < ENTRIES; i += 10) {
                WriteBatchImpl batch = new WriteBatchImpl();
                for (int j = i; j < i + 10; j++) {
                    batch.put(key(j), value(j));
                }
                batch.delete(key(i));
                batch.setSequence(sequence);
                sequence += batch.size();
                log.addRecord(batch.contents());
            }
            log.sync();
        }

        // A level-0 table holding the same entries as internal keys.
        Path tableFile = dir.resolve(FileNames.tableFileName(4));
        byte[] smallest = InternalKeys.encode(key(0), 1, ValueType.VALUE);
        byte[] largest = InternalKeys.encode(key(ENTRIES - 1), sequence - 1, ValueType.VALUE);
        long tableSize;
        try (Env.WritableFile out = env.newWritableFile(tableFile)) {
            TableBuilder builder = new TableBuilder(tableOptions, out);
            for (int i = 0; i < ENTRIES; i++) {
                builder.add(InternalKeys.encode(key(i), i + 1, ValueType.VALUE), value(i));
            }
            builder.finish();
            tableSize = builder.fileSize();
            out.sync();
        }

        // The MANIFEST and CURRENT.
        VersionEdit edit = new VersionEdit()
                .setComparatorName(BytewiseComparator.NAME)
                .setLogNumber(3)
                .setNextFileNumber(5)
                .setLastSequence(sequence - 1)
                .addFile(0, new FileMetaData(4, tableSize, smallest, largest));
        try (LogWriter manifest = new LogWriter(env.newWritableFile(dir.resolve(FileNames.descriptorFileName(2))))) {
            manifest.addRecord(edit.encode());
            manifest.sync();
        }
        FileNames.setCurrentFile(env, dir, 2);

        // Read it all back.
        assertEquals(List.of("000003.log", "000004.ldb", "CURRENT", "MANIFEST-000002"),
                env.getChildren(dir).stream().sorted().toList());
        try (Env.RandomAccessFile current = env.newRandomAccessFile(dir.resolve(FileNames.CURRENT))) {
            assertEquals("MANIFEST-000002\n", StandardCharsets.US_ASCII.decode(current.read(0, 100)).toString());
        }

        List<String> problems = new ArrayList<>();
        try (LogReader manifest = new LogReader(env.newSequentialFile(dir.resolve("MANIFEST-000002")),
                (bytes, reason) -> problems.add(reason))) {
            assertEquals(edit, VersionEdit.decode(manifest.readRecord()));
            assertNull(manifest.readRecord());
        }

        long[] replayed = new long[2];
        try (LogReader log = new LogReader(env.newSequentialFile(logFile), (bytes, reason) -> problems.add(reason))) {
            for (ByteBuffer record = log.readRecord(); record != null; record = log.readRecord()) {
                WriteBatchImpl batch = new WriteBatchImpl();
                batch.setContents(record);
                batch.forEach(new WriteBatchImpl.Handler() {
                    @Override
                    public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
                        replayed[0]++;
                    }

                    @Override
                    public void delete(byte[] data, int keyOffset, int keyLength) {
                        replayed[1]++;
                    }
                });
            }
        }
        assertEquals(ENTRIES, replayed[0]);
        assertEquals(ENTRIES / 10, replayed[1]);
        assertTrue(problems.isEmpty(), problems.toString());

        try (Env.RandomAccessFile file = env.newRandomAccessFile(tableFile)) {
            Table table = Table.open(tableFile.getFileName().toString(), file, file.size(), tableOptions);
            assertTrue(table.hasFilter());
            int count = 0;
            try (SortedIterator it = table.iterator(TableReadOptions.VERIFY)) {
                for (it.seekToFirst(); it.valid(); it.next(), count++) {
                    assertArrayEquals(key(count), InternalKeys.userKey(Bytes.toArray(it.key())));
                    assertEquals(ByteBuffer.wrap(value(count)), it.value());
                }
            }
            assertEquals(ENTRIES, count);
            for (int i = 0; i < ENTRIES; i += 997) {
                byte[][] found = new byte[1][];
                table.get(ByteBuffer.wrap(InternalKeys.encode(key(i), InternalKeys.MAX_SEQUENCE, ValueType.VALUE)),
                        TableReadOptions.DEFAULT, (k, v) -> found[0] = Bytes.toArray(v));
                assertArrayEquals(value(i), found[0]);
            }
            long readsBefore = table.blockReads();
            for (int i = 0; i < 1000; i++) {
                byte[] missing = ("absent" + i).getBytes(StandardCharsets.US_ASCII);
                table.get(ByteBuffer.wrap(InternalKeys.encode(missing, InternalKeys.MAX_SEQUENCE, ValueType.VALUE)),
                        TableReadOptions.DEFAULT, (k, v) -> { });
            }
            assertTrue(table.blockReads() - readsBefore < 50, "the bloom filter should spare most block reads");
            System.out.printf("format smoke run: %d log records, %d-byte table (%s, snappy via %s, mmap %s), "
                    + "MANIFEST and CURRENT written and read back%n", ENTRIES / 10, tableSize,
                    table.hasFilter() ? "bloom filter" : "no filter", Codecs.implementationName(1), file.isMapped());
        }
    }
}
