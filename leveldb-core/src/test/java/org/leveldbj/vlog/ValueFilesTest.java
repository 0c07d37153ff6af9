package org.leveldbj.vlog;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * Value files against a model (the records written, in order): every reference reads back its
 * value, a scan yields every record, and damage is reported with the file and offset.
 */
@ExtendWith(SeedExtension.class)
class ValueFilesTest {
    private static final long NUMBER = 7;

    @TempDir
    Path dir;

    private final Env env = FileSystemEnv.getDefault();

    private record Written(byte[] key, byte[] value, ValueReference ref) {
    }

    private List<Written> writeRandom(Random random, int count) throws IOException {
        List<Written> model = new ArrayList<>();
        try (ValueFileWriter w = new ValueFileWriter(env.newWritableFile(path()), NUMBER)) {
            for (int i = 0; i < count; i++) {
                byte[] key = bytes(random, random.nextInt(40));
                int n = random.nextInt(8) == 0 ? 100_000 + random.nextInt(300_000) : random.nextInt(300);
                byte[] value = bytes(random, n);
                ValueReference ref = w.append(key, 0, key.length, value, 0, value.length);
                assertEquals(value.length, ref.valueLength());
                model.add(new Written(key, value, ref));
            }
            w.sync();
            assertEquals(Files.size(path()), w.size());
        }
        return model;
    }

    private Path path() {
        return dir.resolve("000007.vlog");
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    @Test
    void everyReferenceReadsItsValueAndAScanYieldsEveryRecord(@Seed Random random) throws IOException {
        List<Written> model = writeRandom(random, 200);
        try (ValueFiles files = new ValueFiles(env, dir)) {
            assertEquals(path(), files.path(NUMBER));
            List<Written> shuffled = new ArrayList<>(model);
            java.util.Collections.shuffle(shuffled, random);
            for (Written w : shuffled) {
                assertArrayEquals(w.value(), files.read(w.ref()));
                assertArrayEquals(w.value(), files.read(ValueReference.decode(w.ref().encode(), 0,
                        w.ref().encode().length)));
            }
        }
        try (ValueFileScanner scan = new ValueFileScanner(env.newRandomAccessFile(path()), path().toString())) {
            for (Written w : model) {
                assertTrue(scan.next());
                assertEquals(w.ref(), scan.reference(NUMBER));
                assertEquals(ByteBuffer.wrap(w.key()), scan.key());
                assertEquals(ByteBuffer.wrap(w.value()), scan.value());
            }
            assertFalse(scan.next());
        }
    }

    @Test
    void aGrowingFileIsReopenedForRecordsPastWhatItsReaderSaw() throws IOException {
        try (ValueFileWriter w = new ValueFileWriter(env.newWritableFile(path()), NUMBER);
             ValueFiles files = new ValueFiles(env, dir)) {
            byte[] k = {1};
            ValueReference first = w.append(k, 0, 1, new byte[] {10, 11}, 0, 2);
            assertArrayEquals(new byte[] {10, 11}, files.read(first));
            byte[] big = new byte[200_000];
            Arrays.fill(big, (byte) 3);
            ValueReference second = w.append(k, 0, 1, big, 0, big.length);
            assertArrayEquals(big, files.read(second));
            assertArrayEquals(new byte[] {10, 11}, files.read(first));
        }
    }

    @Test
    void readersAndTheWriterRunConcurrently(@Seed Random random) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try (ValueFileWriter w = new ValueFileWriter(env.newWritableFile(path()), NUMBER);
             ValueFiles files = new ValueFiles(env, dir)) {
            List<Written> published = java.util.Collections.synchronizedList(new ArrayList<>());
            AtomicBoolean done = new AtomicBoolean();
            List<Future<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                long seed = random.nextLong();
                readers.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    int reads = 0;
                    while (!done.get() || reads == 0) {
                        if (published.isEmpty()) {
                            continue;
                        }
                        Written x = published.get(r.nextInt(published.size()));
                        assertArrayEquals(x.value(), files.read(x.ref()));
                        reads++;
                    }
                    return reads;
                }));
            }
            for (int i = 0; i < 500; i++) {
                byte[] key = bytes(random, 8);
                byte[] value = bytes(random, random.nextInt(5000));
                published.add(new Written(key, value, w.append(key, 0, key.length, value, 0, value.length)));
            }
            done.set(true);
            for (Future<Integer> f : readers) {
                assertTrue(f.get() > 0);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aDamagedRecordIsACorruptionNamingFileAndOffset(@Seed Random random) throws IOException {
        List<Written> model = writeRandom(random, 20);
        Written victim = model.get(11);
        byte[] content = Files.readAllBytes(path());
        int at = (int) victim.ref().offset() + victim.ref().recordSize() - 1;
        content[at] ^= 0x40;
        Files.write(path(), content);
        try (ValueFiles files = new ValueFiles(env, dir)) {
            CorruptionException e = assertThrows(CorruptionException.class, () -> files.read(victim.ref()));
            assertEquals("value record checksum mismatch", e.reason());
            assertEquals(path().toString(), e.file());
            assertEquals(victim.ref().offset(), e.offset());
            assertArrayEquals(model.get(10).value(), files.read(model.get(10).ref()));
        }
        try (ValueFileScanner scan = new ValueFileScanner(env.newRandomAccessFile(path()), path().toString())) {
            for (int i = 0; i < 11; i++) {
                assertTrue(scan.next());
            }
            CorruptionException e = assertThrows(CorruptionException.class, scan::next);
            assertEquals(victim.ref().offset(), e.offset());
            assertFalse(scan.torn(), "damage in the middle is not a torn tail");
        }
    }

    @Test
    void aTruncatedFileIsATornTailAndItsReferencesFailClearly(@Seed Random random) throws IOException {
        List<Written> model = writeRandom(random, 10);
        Written last = model.get(9);
        long cut = last.ref().offset() + 1 + random.nextInt(last.ref().recordSize() - 1);
        try (var ch = java.nio.channels.FileChannel.open(path(), java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        try (ValueFiles files = new ValueFiles(env, dir)) {
            CorruptionException e = assertThrows(CorruptionException.class, () -> files.read(last.ref()));
            assertEquals(path().toString(), e.file());
            assertEquals(last.ref().offset(), e.offset());
            assertArrayEquals(model.get(8).value(), files.read(model.get(8).ref()));
        }
        try (ValueFileScanner scan = new ValueFileScanner(env.newRandomAccessFile(path()), path().toString())) {
            for (int i = 0; i < 9; i++) {
                assertTrue(scan.next());
            }
            CorruptionException e = assertThrows(CorruptionException.class, scan::next);
            assertTrue(scan.torn(), e.getMessage());
            assertEquals(last.ref().offset(), e.offset());
        }
    }

    @Test
    void aMissingFileIsAnIoErrorAndAForeignFileIsNotScanned() throws IOException {
        try (ValueFiles files = new ValueFiles(env, dir)) {
            IOErrorException e = assertThrows(IOErrorException.class,
                    () -> files.read(new ValueReference(99, 8, 20, 5)));
            assertTrue(e.getMessage().contains("000099.vlog"), e.getMessage());
        }
        Files.write(path(), "not a value file at all".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> new ValueFileScanner(env.newRandomAccessFile(path()), path().toString()));
        assertEquals(0, e.offset());
    }

    @Test
    void readsFailOnceClosed(@Seed Random random) throws IOException {
        List<Written> model = writeRandom(random, 3);
        ValueFiles files = new ValueFiles(env, dir);
        assertArrayEquals(model.get(0).value(), files.read(model.get(0).ref()));
        files.close();
        assertThrows(org.iq80.leveldb.DBException.class, () -> files.read(model.get(1).ref()));
    }

    @Test
    void malformedReferencesAreCorruptions() {
        ValueReference ref = new ValueReference(3, 1 << 20, 70_000, 65_000);
        byte[] enc = ref.encode();
        assertEquals(ref, ValueReference.decode(enc, 0, enc.length));
        assertThrows(CorruptionException.class, () -> ValueReference.decode(enc, 0, enc.length - 1));
        byte[] longer = Arrays.copyOf(enc, enc.length + 1);
        assertThrows(CorruptionException.class, () -> ValueReference.decode(longer, 0, longer.length));
        byte[] inconsistent = new ValueReference(3, 0, 10, 10).encode();
        inconsistent[inconsistent.length - 1] = 11; // a value longer than its record
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> ValueReference.decode(inconsistent, 0, inconsistent.length));
        assertTrue(e.getMessage().contains("bad value reference"), e.getMessage());
    }
}
