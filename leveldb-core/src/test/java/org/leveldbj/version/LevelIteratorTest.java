package org.leveldbj.version;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.iq80.leveldb.DBException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.ListIterator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * A level's iterator against a model, the flat list of every file's entries: the same entry
 * after every move, in both directions, across empty tables, and each table closed when left.
 */
@ExtendWith(SeedExtension.class)
class LevelIteratorTest {
    private static final InternalKeyComparator ICMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);
    private static final TableReadOptions READ = TableReadOptions.of(true, true);

    /** Table iterators by file number, over in-memory entries; counts opens and closes. */
    private static final class FakeTables implements TableSource {
        final Map<Long, List<byte[][]>> tables = new HashMap<>();
        final List<ListIterator> opened = new ArrayList<>();
        long failing = -1;

        @Override
        public SortedIterator iterator(long fileNumber, long fileSize, TableReadOptions readOptions) {
            if (fileNumber == failing) {
                throw new DBException("cannot open table " + fileNumber);
            }
            ListIterator it = new ListIterator(tables.get(fileNumber), ICMP);
            opened.add(it);
            return it;
        }

        @Override
        public boolean get(long fileNumber, long fileSize, ByteBuffer internalKey, TableReadOptions readOptions,
                           Table.EntryHandler handler) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long approximateOffsetOf(long fileNumber, long fileSize, ByteBuffer internalKey) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void evict(long fileNumber) {
            throw new UnsupportedOperationException();
        }

        int open() {
            int n = 0;
            for (ListIterator it : opened) {
                n += it.closes() == 0 ? 1 : 0;
            }
            return n;
        }
    }

    private static byte[] ikey(int i) {
        return InternalKeys.encode(String.format("k%05d", i).getBytes(StandardCharsets.UTF_8), 100 + i, ValueType.VALUE);
    }

    private static String user(ByteBuffer internalKey) {
        byte[] bytes = new byte[internalKey.remaining() - InternalKeys.TRAILER_SIZE];
        internalKey.get(internalKey.position(), bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    @Test
    void matchesTheConcatenationOfItsTables(@Seed long seed) {
        Random random = new Random(seed);
        for (int round = 0; round < 50; round++) {
            FakeTables tables = new FakeTables();
            List<FileMetaData> files = new ArrayList<>();
            List<byte[][]> model = new ArrayList<>();
            int next = random.nextInt(3);
            int fileCount = random.nextInt(6);
            for (int f = 0; f < fileCount; f++) {
                // Some tables hold nothing (as a table whose entries all failed to read would);
                // the file's key range still covers a span of keys.
                int count = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(5);
                int first = next;
                List<byte[][]> entries = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    byte[][] e = {ikey(next), ("v" + next).getBytes(StandardCharsets.UTF_8)};
                    entries.add(e);
                    model.add(e);
                    next += 1 + random.nextInt(3);
                }
                int last = Math.max(first, next - 1);
                next = last + 1 + random.nextInt(3);
                tables.tables.put((long) f + 1, entries);
                files.add(new FileMetaData(f + 1, 1000, ikey(first), ikey(last)));
            }
            try (LevelIterator it = new LevelIterator(ICMP, files, tables, READ)) {
                int pos = -1; // the model's position; -1 when unpositioned
                for (int step = 0; step < 60; step++) {
                    int op = random.nextInt(5);
                    if (op == 0) {
                        it.seekToFirst();
                        pos = model.isEmpty() ? -1 : 0;
                    } else if (op == 1) {
                        it.seekToLast();
                        pos = model.size() - 1;
                    } else if (op == 2) {
                        byte[] target = ikey(random.nextInt(next + 2));
                        it.seek(ByteBuffer.wrap(target));
                        pos = -1;
                        for (int i = 0; i < model.size(); i++) {
                            if (ICMP.compare(model.get(i)[0], target) >= 0) {
                                pos = i;
                                break;
                            }
                        }
                    } else if (pos >= 0 && op == 3) {
                        it.next();
                        pos = pos + 1 < model.size() ? pos + 1 : -1;
                    } else if (pos >= 0) {
                        it.prev();
                        pos--;
                    }
                    String where = "seed " + seed + " round " + round + " step " + step;
                    assertEquals(pos >= 0, it.valid(), where);
                    if (pos >= 0) {
                        assertEquals(user(ByteBuffer.wrap(model.get(pos)[0])), user(it.key()), where);
                        assertEquals(ByteBuffer.wrap(model.get(pos)[1]), it.value(), where);
                    }
                    assertTrue(tables.open() <= 1, "at most the current table is open: " + where);
                }
            }
            assertEquals(0, tables.open(), "closing the level closes its table");
        }
    }

    @Test
    void aTableThatCannotBeOpenedLeavesItUnpositioned() {
        FakeTables tables = new FakeTables();
        tables.tables.put(1L, List.<byte[][]>of(new byte[][] {ikey(1), new byte[] {1}}));
        tables.tables.put(2L, List.<byte[][]>of(new byte[][] {ikey(5), new byte[] {5}}));
        List<FileMetaData> files = List.of(
                new FileMetaData(1, 1000, ikey(1), ikey(1)),
                new FileMetaData(2, 1000, ikey(5), ikey(5)));
        tables.failing = 2;
        try (LevelIterator it = new LevelIterator(ICMP, files, tables, READ)) {
            it.seekToFirst();
            assertEquals("k00001", user(it.key()));
            DBException e = assertThrows(DBException.class, it::next);
            assertTrue(e.getMessage().contains("cannot open table 2"), e.getMessage());
            assertFalse(it.valid());
            assertEquals(0, tables.open(), "the table left behind is closed");
            tables.failing = -1;
            it.seekToLast();
            assertEquals("k00005", user(it.key()));
        }
    }
}
