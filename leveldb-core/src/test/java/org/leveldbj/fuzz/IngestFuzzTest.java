package org.leveldbj.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.TableWriter;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;

/**
 * Fuzzes ingestion and the table writer.
 *
 * <p>{@link #ingest}: an arbitrary file offered to {@code ExtendedDB.ingest} of a small database
 * (in memory) must either be refused with a {@link CorruptionException} naming that file (and
 * leave the database exactly as it was) or go in, leaving a database whose every entry reads,
 * in order, that holds the file's entries over the old ones and reopens the same. Input: byte 0
 * = flags (bit 0: the database holds keys in the file's likely range; bit 1: a snapshot is open;
 * bit 2: the file lies in the database directory's sibling rather than elsewhere), the rest is
 * the file.
 *
 * <p>{@link #writer}: table-writer options from the input (block size, restart interval,
 * compression, bloom bits), then entries (key length byte, key, value length byte, value; a
 * value length of 255 = a deletion) with keys in any order: a key not after the previous one
 * must be refused with an {@link InvalidArgumentException} (and nothing else), the others kept;
 * the finished file must ingest into a database with those options and read back exactly.
 */
@ExtendWith(FuzzEnvironment.class)
class IngestFuzzTest {
    private static final Path DB = Path.of("/db");

    private static byte[] k(int i) {
        return String.format("k%04d", i).getBytes(StandardCharsets.US_ASCII);
    }

    @FuzzTest(maxDuration = "30s")
    void ingest(byte[] input) throws IOException {
        int flags = FuzzFiles.u8(input, 0);
        MemEnv env = new MemEnv();
        env.createDir(Path.of("/in"));
        Path file = Path.of((flags & 4) != 0 ? "/db.in.sst" : "/in/x.sst");
        try (Env.WritableFile out = env.newWritableFile(file)) {
            out.append(java.nio.ByteBuffer.wrap(FuzzFiles.tail(input, 1)));
        }
        Options options = new Options().env(env).writeBufferSize(64 << 10);
        TreeMap<String, String> before = new TreeMap<>();
        TreeMap<String, String> after = null;
        try (ExtendedDB db = LevelDbFactory.factory.open(DB.toFile(), options)) {
            for (int i = 0; i < 20; i++) {
                byte[] key = (flags & 1) != 0 ? k(i * 50) : ("~" + i).getBytes(StandardCharsets.US_ASCII);
                db.put(key, ("v" + i).getBytes(StandardCharsets.US_ASCII));
            }
            db.flushMemTable();
            before.putAll(contents(db));
            Snapshot snapshot = (flags & 2) != 0 ? db.getSnapshot() : null;
            try {
                db.ingest(file.toFile());
                after = contents(db);
                if (snapshot != null) {
                    assertEquals(before, contents(db, snapshot), "a snapshot taken before sees the ingestion");
                }
            } catch (CorruptionException e) {
                FuzzFiles.checkReport(e, file.toString());
                assertEquals(before, contents(db), "a refused file changed the database");
            } finally {
                if (snapshot != null) {
                    snapshot.close();
                }
            }
        }
        if (after != null) {
            try (ExtendedDB again = LevelDbFactory.factory.open(DB.toFile(), options)) {
                assertEquals(after, contents(again), "the database changed across a reopen");
            }
        }
    }

    @FuzzTest(maxDuration = "30s")
    void writer(byte[] input) throws IOException {
        int blockSize = 1 + FuzzFiles.u16(input, 0) % 8192;
        int restart = 1 + FuzzFiles.u8(input, 2) % 32;
        int flags = FuzzFiles.u8(input, 3);
        Options options = new Options().env(new MemEnv()).blockSize(blockSize).blockRestartInterval(restart)
                .compressionType((flags & 1) != 0 ? CompressionType.SNAPPY : CompressionType.NONE)
                .filterPolicy((flags & 2) != 0 ? FilterPolicy.bloom(1 + (flags >> 2) % 30) : null);
        Path file = Path.of("/t.sst");
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        byte[] previous = null;
        int at = 4;
        try (TableWriter w = LevelDbFactory.newTableWriter(file.toFile(), options)) {
            while (at < input.length) {
                int kl = FuzzFiles.u8(input, at++);
                byte[] key = Arrays.copyOfRange(input, Math.min(at, input.length), Math.min(at + kl, input.length));
                at += kl;
                int vl = FuzzFiles.u8(input, at++);
                boolean delete = vl == 255;
                byte[] value = delete ? null : Arrays.copyOfRange(input, Math.min(at, input.length),
                        Math.min(at + vl, input.length));
                at += delete ? 0 : vl;
                boolean inOrder = previous == null || Arrays.compareUnsigned(key, previous) > 0;
                try {
                    if (delete) {
                        w.delete(key);
                    } else {
                        w.put(key, value);
                    }
                    assertTrue(inOrder, "accepted a key not after the previous one");
                    model.put(key, value);
                    previous = key;
                } catch (InvalidArgumentException e) {
                    assertTrue(!inOrder, "refused a key in order: " + e.getMessage());
                }
            }
            if (model.isEmpty()) {
                return;
            }
            assertEquals(model.size(), w.finish().entries());
        }
        try (ExtendedDB db = LevelDbFactory.factory.open(DB.toFile(), options)) {
            db.ingest(file.toFile());
            TreeMap<byte[], byte[]> live = new TreeMap<>(Arrays::compareUnsigned);
            model.forEach((key, value) -> {
                if (value != null) {
                    live.put(key, value);
                }
            });
            try (DBIterator it = db.iterator()) {
                it.seekToFirst();
                for (Map.Entry<byte[], byte[]> e : live.entrySet()) {
                    assertTrue(it.hasNext());
                    Map.Entry<byte[], byte[]> found = it.next();
                    assertArrayEquals(e.getKey(), found.getKey());
                    assertArrayEquals(e.getValue(), found.getValue());
                }
                assertTrue(!it.hasNext());
            }
        }
    }

    private static TreeMap<String, String> contents(ExtendedDB db) throws IOException {
        return contents(db, null);
    }

    private static TreeMap<String, String> contents(ExtendedDB db, Snapshot snapshot) throws IOException {
        TreeMap<String, String> out = new TreeMap<>();
        try (DBIterator it = db.iterator(new org.iq80.leveldb.ReadOptions().snapshot(snapshot))) {
            byte[] last = null;
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                assertTrue(last == null || Arrays.compareUnsigned(last, e.getKey()) < 0, "entries out of order");
                last = e.getKey();
                out.put(java.util.HexFormat.of().formatHex(e.getKey()), java.util.HexFormat.of().formatHex(e.getValue()));
            }
        }
        return out;
    }
}
