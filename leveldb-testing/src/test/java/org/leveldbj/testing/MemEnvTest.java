package org.leveldbj.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.Test;

/** {@link MemEnv}: the contract plus synced lengths and crash simulation. */
class MemEnvTest extends EnvContractTest {
    @Override
    protected Env createEnv() {
        return new MemEnv();
    }

    private MemEnv memEnv() {
        return (MemEnv) env;
    }

    private static ByteBuffer utf8(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void nothingTouchesTheRealFileSystem() throws IOException {
        write(dir.resolve("f"), bytes("x"));
        assertFalse(java.nio.file.Files.exists(dir));
    }

    @Test
    void syncedLengthFollowsSync() throws IOException {
        Path file = dir.resolve("000001.log");
        Env.WritableFile writable = closeLater(env.newWritableFile(file));
        assertEquals(0, memEnv().syncedLength(file));
        writable.append(utf8("abc"));
        writable.flush();
        assertEquals(0, memEnv().syncedLength(file), "flush is not sync");
        writable.sync();
        assertEquals(3, memEnv().syncedLength(file));
        writable.append(utf8("de"));
        assertEquals(3, memEnv().syncedLength(file));
        assertEquals(5, env.getFileSize(file));
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> memEnv().syncedLength(dir.resolve("missing")));
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void dropUnsyncedDataTruncatesEveryFileToItsSyncedLength() throws IOException {
        Path log = dir.resolve("000003.log");
        Path manifest = dir.resolve("MANIFEST-000002");
        Path neverSynced = dir.resolve("000004.ldb");

        Env.WritableFile logWriter = env.newWritableFile(log);
        logWriter.append(utf8("synced"));
        logWriter.sync();
        logWriter.append(utf8(" lost"));
        logWriter.close();

        Env.WritableFile manifestWriter = env.newWritableFile(manifest);
        manifestWriter.append(utf8("all synced"));
        manifestWriter.sync();
        manifestWriter.close();

        write(neverSynced, bytes("gone"));

        memEnv().dropUnsyncedData();
        assertArrayEquals(bytes("synced"), readSequentially(log, 100));
        assertArrayEquals(bytes("all synced"), readSequentially(manifest, 100));
        assertTrue(env.fileExists(neverSynced), "files stay; only their unsynced bytes go");
        assertEquals(0, env.getFileSize(neverSynced));
        assertEquals(6, memEnv().syncedLength(log));
    }

    @Test
    void snapshotsTakenBeforeADropAreUnaffected() throws IOException {
        Path file = dir.resolve("f");
        Env.WritableFile writable = closeLater(env.newWritableFile(file));
        writable.append(utf8("keep"));
        writable.sync();
        writable.append(utf8("drop"));
        Env.RandomAccessFile before = closeLater(env.newRandomAccessFile(file));

        memEnv().dropUnsyncedData();
        writable.append(utf8("new!"));
        assertArrayEquals(bytes("keepdrop"), toArray(before.read(0, 100)));
        assertArrayEquals(bytes("keepnew!"), readSequentially(file, 100));
    }

    @Test
    void snapshotsIgnoreLaterAppends() throws IOException {
        Path file = dir.resolve("f");
        Env.WritableFile writable = closeLater(env.newWritableFile(file));
        writable.append(utf8("abc"));
        Env.RandomAccessFile snapshot = closeLater(env.newRandomAccessFile(file));
        for (int i = 0; i < 100; i++) {
            writable.append(utf8("more bytes to force the array to grow"));
        }
        assertEquals(3, snapshot.size());
        assertArrayEquals(bytes("abc"), toArray(snapshot.read(0, 1000)));
    }

    @Test
    void handlesFollowTheFileAcrossRenameAndDelete() throws IOException {
        Path source = dir.resolve("a");
        Path target = dir.resolve("b");
        Env.WritableFile writable = closeLater(env.newWritableFile(source));
        writable.append(utf8("one"));
        env.renameFile(source, target);
        writable.append(utf8("two"));
        assertArrayEquals(bytes("onetwo"), readSequentially(target, 100));
        Env.SequentialFile reader = closeLater(env.newSequentialFile(target));
        env.deleteFile(target);
        ByteBuffer buffer = ByteBuffer.allocate(10);
        assertEquals(6, reader.read(buffer));
    }

    @Test
    void filesNeedAnExistingDirectory() throws IOException {
        NoSuchFileException e = assertThrows(NoSuchFileException.class,
                () -> env.newWritableFile(Path.of("/nowhere/f")));
        assertTrue(e.getMessage().contains("/nowhere/f"), e.getMessage());
        env.newWritableFile(Path.of("/top-level")).close();
        assertTrue(env.fileExists(Path.of("/top-level")));
        assertTrue(env.getChildren(Path.of("/")).contains("top-level"));
    }

    @Test
    void randomAccessReadsAreViewsValidAfterClose() throws IOException {
        Path file = dir.resolve("f");
        write(file, bytes("0123456789"));
        Env.RandomAccessFile random = env.newRandomAccessFile(file);
        assertFalse(random.isMapped());
        ByteBuffer read = random.read(2, 3);
        random.close();
        assertArrayEquals(bytes("234"), toArray(read));
    }
}
