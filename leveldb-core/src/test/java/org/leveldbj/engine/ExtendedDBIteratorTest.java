package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.ExtendedDBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.db.LevelDbFactory;

/**
 * The buffer-copying moves of {@link ExtendedDBIterator} against a sorted model: a random walk of
 * seeks and moves in both directions, each step reading the entry under the cursor into buffers
 * too small, exact and large, heap and direct, on a database whose entries lie in the memtable,
 * in tables and (separated) in value files.
 */
class ExtendedDBIteratorTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {0, 200})
    void randomWalkMatchesTheModel(int valueThreshold) throws Exception {
        Random random = new Random(valueThreshold + 17);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        Options options = new Options().createIfMissing(true).valueThreshold(valueThreshold).writeBufferSize(64 << 10);
        try (ExtendedDB db = LevelDbFactory.factory.open(new File(dir.toFile(), "db"), options)) {
            for (int i = 0; i < 1500; i++) {
                byte[] key = String.format("k%05d", random.nextInt(3000)).getBytes();
                if (random.nextInt(10) == 0) {
                    db.delete(key);
                    model.remove(key);
                } else {
                    byte[] value = new byte[random.nextInt(10) == 0 ? 300 + random.nextInt(3000) : random.nextInt(60)];
                    random.nextBytes(value);
                    db.put(key, value);
                    model.put(key, value);
                }
                if (i == 700) {
                    db.compactRange(null, null);
                }
            }
            List<byte[]> keys = new ArrayList<>(model.keySet());
            try (ExtendedDBIterator it = db.iterator(new ReadOptions())) {
                int at = 0; // the model's cursor: an index into keys, keys.size() past the end
                for (int step = 0; step < 4000; step++) {
                    switch (random.nextInt(8)) {
                        case 0 -> {
                            it.seekToFirst();
                            at = 0;
                        }
                        case 1 -> {
                            it.seekToLast();
                            at = keys.isEmpty() ? 0 : keys.size() - 1;
                        }
                        case 2 -> {
                            byte[] target = String.format("k%05d", random.nextInt(3100)).getBytes();
                            it.seek(target);
                            byte[] ceiling = model.ceilingKey(target);
                            at = ceiling == null ? keys.size() : model.headMap(ceiling).size();
                        }
                        case 3, 4 -> {
                            if (at < keys.size()) {
                                it.moveNext();
                                at++;
                            } else {
                                assertThrows(NoSuchElementException.class, it::moveNext);
                            }
                        }
                        case 5, 6 -> {
                            boolean hasPrev = at < keys.size() && at > 0;
                            assertEquals(hasPrev, it.hasPrev(), "hasPrev at " + at);
                            if (hasPrev) {
                                it.movePrev();
                                at--;
                            } else {
                                assertThrows(NoSuchElementException.class, it::movePrev);
                            }
                        }
                        default -> {
                            if (at < keys.size()) {
                                assertArrayEquals(keys.get(at), it.next().getKey());
                                at++;
                            }
                        }
                    }
                    assertEquals(at < keys.size(), it.hasNext(), "hasNext at " + at);
                    if (at < keys.size()) {
                        checkEntry(it, keys.get(at), model.get(keys.get(at)), random);
                    } else {
                        assertThrows(NoSuchElementException.class, () -> it.key(ByteBuffer.allocate(8)));
                        assertThrows(NoSuchElementException.class, () -> it.value(ByteBuffer.allocate(8)));
                    }
                }
            }
        }
    }

    /** Reads the entry into a buffer of a random kind and size, and checks what was copied. */
    private static void checkEntry(ExtendedDBIterator it, byte[] key, byte[] value, Random random) {
        for (byte[][] part : new byte[][][] {{key, null}, {value, null}}) {
            byte[] expected = part[0];
            int capacity = switch (random.nextInt(3)) {
                case 0 -> random.nextInt(expected.length + 1); // too small, or exact
                case 1 -> expected.length;
                default -> expected.length + 1 + random.nextInt(100);
            };
            ByteBuffer dst = random.nextBoolean() ? ByteBuffer.allocate(capacity + 3) : ByteBuffer.allocateDirect(capacity + 3);
            dst.position(3); // a position other than 0: copies start there
            dst.limit(3 + capacity);
            int length = expected == key ? it.key(dst) : it.value(dst);
            assertEquals(expected.length, length);
            int copied = Math.min(capacity, expected.length);
            assertEquals(3 + copied, dst.position());
            byte[] got = new byte[copied];
            dst.get(3, got);
            assertArrayEquals(Arrays.copyOf(expected, copied), got);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 10})
    void misuseIsRefusedWithAClearException(int valueThreshold) throws Exception {
        Options options = new Options().createIfMissing(true).valueThreshold(valueThreshold);
        try (ExtendedDB db = LevelDbFactory.factory.open(new File(dir.toFile(), "db"), options)) {
            db.put("a".getBytes(), "a value of some length".getBytes());
            ExtendedDBIterator it = db.iterator();
            it.seekToFirst();
            assertThrows(ReadOnlyBufferException.class, () -> it.value(ByteBuffer.allocate(64).asReadOnlyBuffer()));
            IllegalArgumentException nullBuffer = assertThrows(IllegalArgumentException.class, () -> it.key(null));
            assertTrue(nullBuffer.getMessage().contains("dst"), nullBuffer.getMessage());
            ByteBuffer value = ByteBuffer.allocate(64);
            assertEquals(22, it.value(value));
            it.close();
            DBException closed = assertThrows(DBException.class, () -> it.value(ByteBuffer.allocate(64)));
            assertEquals(CursorIterator.CLOSED_MESSAGE, closed.getMessage());
            assertThrows(DBException.class, it::moveNext);
        }
    }
}
