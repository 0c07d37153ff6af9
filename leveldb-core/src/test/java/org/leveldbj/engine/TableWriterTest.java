package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DBComparator;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.TableFileInfo;
import org.iq80.leveldb.TableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.table.TableReadOptions;

/**
 * The table writer: refuses keys out of order or repeated (naming the position) and stays
 * usable, leaves no file unless finished, writes internal keys with sequence 0 that read back
 * exactly, and honours the options' comparator and table settings.
 */
class TableWriterTest {
    @TempDir
    Path tmp;

    @Test
    void writesEveryEntryWithSequenceZeroAndReportsWhatItWrote() throws Exception {
        File file = tmp.resolve("t.sst").toFile();
        TableFileInfo info;
        try (TableWriter w = LevelDbFactory.newTableWriter(file, new Options().blockSize(256))) {
            for (int i = 0; i < 1000; i++) {
                if (i % 7 == 3) {
                    w.delete(bytes(String.format("k%05d", i)));
                } else {
                    w.put(bytes(String.format("k%05d", i)), bytes("v" + i));
                }
            }
            info = w.finish();
        }
        assertEquals(1000, info.entries());
        assertEquals(Files.size(file.toPath()), info.fileSize());
        assertArrayEquals(bytes("k00000"), info.smallestKey());
        assertArrayEquals(bytes("k00999"), info.largestKey());
        assertFalse(Files.exists(tmp.resolve("t.sst.tmp")));
        IngestedFile checked = IngestedFile.check(org.leveldbj.env.FileSystemEnv.getDefault(), file.toPath(),
                DbImpl.tableOptions(new Options(), new org.leveldbj.key.InternalKeyComparator(
                        org.leveldbj.comparator.BytewiseComparator.INSTANCE), org.leveldbj.table.BlockCache.NONE));
        assertEquals(1000, checked.entries());
        assertEquals(0, InternalKeys.sequence(InternalKeys.trailer(checked.largest())));
    }

    @Test
    void refusesKeysOutOfOrderOrRepeatedNamingThePositionAndStaysUsable() throws Exception {
        File file = tmp.resolve("t.sst").toFile();
        try (TableWriter w = LevelDbFactory.newTableWriter(file, new Options())) {
            w.put(bytes("b"), bytes("1"));
            w.put(bytes("c"), bytes("2"));
            InvalidArgumentException dup = assertThrows(InvalidArgumentException.class, () -> w.put(bytes("c"), bytes("3")));
            assertTrue(dup.getMessage().contains("position 2") && dup.getMessage().contains("duplicate"), dup.getMessage());
            InvalidArgumentException before = assertThrows(InvalidArgumentException.class, () -> w.delete(bytes("a")));
            assertTrue(before.getMessage().contains("position 2") && before.getMessage().contains("'a'"),
                    before.getMessage());
            w.put(bytes("d"), bytes("4"));
            assertEquals(3, w.finish().entries());
        }
    }

    @Test
    void followsTheOptionsComparator() throws Exception {
        DBComparator reverse = new DBComparator() {
            @Override
            public String name() {
                return "test.Reverse";
            }

            @Override
            public byte[] findShortestSeparator(byte[] start, byte[] limit) {
                return start;
            }

            @Override
            public byte[] findShortSuccessor(byte[] key) {
                return key;
            }

            @Override
            public int compare(byte[] a, byte[] b) {
                return -java.util.Arrays.compareUnsigned(a, b);
            }
        };
        File file = tmp.resolve("r.sst").toFile();
        try (TableWriter w = LevelDbFactory.newTableWriter(file, new Options().comparator(reverse))) {
            w.put(bytes("z"), bytes("1"));
            w.put(bytes("a"), bytes("2"));
            assertThrows(InvalidArgumentException.class, () -> w.put(bytes("b"), bytes("3")));
            w.finish();
        }
    }

    @Test
    void aWriterClosedWithoutFinishLeavesNoFile() throws Exception {
        File file = tmp.resolve("t.sst").toFile();
        try (TableWriter w = LevelDbFactory.newTableWriter(file, new Options())) {
            w.put(bytes("a"), new byte[100_000]);
        }
        try (var files = Files.list(tmp)) {
            assertEquals(List.of(), files.toList());
        }
    }

    @Test
    void refusesAnEmptyTableAnExistingFileAndUseAfterFinish() throws Exception {
        File file = tmp.resolve("t.sst").toFile();
        try (TableWriter w = LevelDbFactory.newTableWriter(file, new Options())) {
            assertThrows(InvalidArgumentException.class, w::finish);
        }
        assertFalse(file.exists());
        Files.write(file.toPath(), new byte[1]);
        assertThrows(InvalidArgumentException.class, () -> LevelDbFactory.newTableWriter(file, new Options()));
        File other = tmp.resolve("u.sst").toFile();
        TableWriter w = LevelDbFactory.newTableWriter(other, new Options());
        w.put(bytes("a"), bytes("b"));
        w.finish();
        assertThrows(IllegalStateException.class, () -> w.put(bytes("c"), bytes("d")));
        w.close();
        assertTrue(other.exists());
    }

    @Test
    void everyCompressionAndFilterSettingReadsBack() throws Exception {
        List<Options> settings = new ArrayList<>();
        settings.add(new Options().compressionType(CompressionType.NONE).blockRestartInterval(1));
        settings.add(new Options().compressionType(CompressionType.SNAPPY).blockSize(64));
        settings.add(new Options().filterPolicy(org.iq80.leveldb.FilterPolicy.bloom(10)).blockRestartInterval(3));
        int n = 0;
        for (Options o : settings) {
            File file = tmp.resolve("t" + (n++) + ".sst").toFile();
            try (TableWriter w = LevelDbFactory.newTableWriter(file, o)) {
                for (int i = 0; i < 500; i++) {
                    w.put(bytes(String.format("%06d", i)), bytes("value" + i));
                }
                w.finish();
            }
            org.leveldbj.table.TableOptions to = DbImpl.tableOptions(o, new org.leveldbj.key.InternalKeyComparator(
                    org.leveldbj.comparator.BytewiseComparator.INSTANCE), org.leveldbj.table.BlockCache.NONE);
            try (var raf = org.leveldbj.env.FileSystemEnv.getDefault().newRandomAccessFile(file.toPath())) {
                var table = org.leveldbj.table.Table.open(file.toString(), raf, file.length(), to);
                int count = 0;
                try (SortedIterator it = table.iterator(TableReadOptions.VERIFY)) {
                    for (it.seekToFirst(); it.valid(); it.next()) {
                        byte[] k = new byte[it.key().remaining()];
                        it.key().get(it.key().position(), k);
                        assertArrayEquals(bytes(String.format("%06d", count)), InternalKeys.userKey(k));
                        count++;
                    }
                }
                assertEquals(500, count);
            }
        }
    }
}
