package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.PeerExtension;

/**
 * The H2 MVStore peer against a sorted model: LevelDB's unsigned byte order (bytes above 0x7f
 * after the others, a prefix before its extensions), puts, deletes and batches, cursors in both
 * directions with leveldbjni's semantics, and the contents after a reopen.
 */
@ExtendWith(PeerExtension.class)
class H2AdapterTest {
    @TempDir
    Path temp;

    private static final java.util.Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    @Test
    void matchesASortedModelInBothDirectionsAndAfterReopening() throws IOException {
        Impl h2 = Peers.loadOrSkip("h2");
        TreeMap<byte[], byte[]> model = new TreeMap<>(ORDER);
        Random r = new Random(20261124);
        Options options = new Options().createIfMissing(true);
        try (DB db = h2.factory().open(temp.toFile(), options)) {
            for (int i = 0; i < 3000; i++) {
                byte[] key = randomKey(r);
                int op = r.nextInt(10);
                if (op < 6) {
                    byte[] value = ("v" + i).getBytes();
                    db.put(key, value);
                    model.put(key, value);
                } else if (op < 8) {
                    db.delete(key);
                    model.remove(key);
                } else {
                    try (WriteBatch batch = db.createWriteBatch()) {
                        byte[] other = randomKey(r);
                        batch.put(key, ("b" + i).getBytes()).delete(other).put(other, ("c" + i).getBytes());
                        db.write(batch, new WriteOptions().sync(op == 9));
                        // In order: the batch's put after its delete wins.
                        model.put(key, ("b" + i).getBytes());
                        model.remove(other);
                        model.put(other, ("c" + i).getBytes());
                    }
                }
            }
            checkAgainst(db, model, r);
            db.compactRange(null, null);
            checkAgainst(db, model, r);
        }
        try (DB db = h2.factory().open(temp.toFile(), new Options())) {
            checkAgainst(db, model, r);
        }
    }

    private static void checkAgainst(DB db, TreeMap<byte[], byte[]> model, Random r) throws IOException {
        try (DBIterator it = db.iterator()) {
            it.seekToFirst();
            List<byte[]> forward = new ArrayList<>();
            while (it.hasNext()) {
                Map.Entry<byte[], byte[]> e = it.next();
                assertArrayEquals(model.get(e.getKey()), e.getValue());
                forward.add(e.getKey());
            }
            assertEquals(new ArrayList<>(model.keySet()).size(), forward.size());
            int i = 0;
            for (byte[] k : model.keySet()) {
                assertArrayEquals(k, forward.get(i++));
            }
            // Backwards as the runner reads: the last entry, then prev() while hasPrev().
            it.seekToLast();
            List<byte[]> backward = new ArrayList<>();
            assertTrue(it.hasNext());
            backward.add(it.peekNext().getKey());
            while (it.hasPrev()) {
                backward.add(it.prev().getKey());
            }
            i = 0;
            for (byte[] k : model.descendingKeySet()) {
                assertArrayEquals(k, backward.get(i++));
            }
            assertEquals(model.size(), backward.size());
            for (int probe = 0; probe < 200; probe++) {
                byte[] target = randomKey(r);
                it.seek(target);
                Map.Entry<byte[], byte[]> expected = model.ceilingEntry(target);
                assertEquals(expected != null, it.hasNext());
                if (expected != null) {
                    assertArrayEquals(expected.getKey(), it.peekNext().getKey());
                    // One step back and forth again across the direction change.
                    Map.Entry<byte[], byte[]> before = model.lowerEntry(expected.getKey());
                    assertEquals(before != null, it.hasPrev());
                    if (before != null) {
                        assertArrayEquals(before.getKey(), it.prev().getKey());
                        assertArrayEquals(before.getKey(), it.next().getKey());
                        assertArrayEquals(expected.getKey(), it.peekNext().getKey());
                    }
                }
            }
        }
        for (int probe = 0; probe < 200; probe++) {
            byte[] key = randomKey(r);
            byte[] expected = model.get(key);
            if (expected == null) {
                assertNull(db.get(key));
            } else {
                assertArrayEquals(expected, db.get(key));
            }
        }
        assertFalse(model.isEmpty());
    }

    /** Short keys over a small alphabet with bytes on both sides of 0x80, so that keys collide and prefix one another. */
    private static byte[] randomKey(Random r) {
        byte[] alphabet = {0x00, 0x01, 0x41, 0x7f, (byte) 0x80, (byte) 0xff};
        byte[] key = new byte[1 + r.nextInt(4)];
        for (int i = 0; i < key.length; i++) {
            key[i] = alphabet[r.nextInt(alphabet.length)];
        }
        return key;
    }
}
