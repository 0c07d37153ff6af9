package org.leveldbj.testing;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.Test;

/** {@link FaultInjectionEnv}: the contract when no fault is set, then every kind of fault. */
class FaultInjectionEnvTest extends EnvContractTest {
    @Override
    protected Env createEnv() {
        return new FaultInjectionEnv();
    }

    private FaultInjectionEnv faulty() {
        return (FaultInjectionEnv) env;
    }

    private static ByteBuffer utf8(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private String content(Path file) throws IOException {
        return new String(readSequentially(file, 7), StandardCharsets.UTF_8);
    }

    @Test
    void countedFaultsFailExactlyThatManyCalls() throws IOException {
        Path file = dir.resolve("f");
        faulty().fail(FaultInjectionEnv.Op.SYNC, 2);
        try (Env.WritableFile out = env.newWritableFile(file)) {
            out.append(utf8("abc"));
            IOException first = assertThrows(IOException.class, out::sync);
            assertTrue(first.getMessage().startsWith(FaultInjectionEnv.INJECTED), first.getMessage());
            assertTrue(first.getMessage().endsWith(file.toString()), first.getMessage());
            assertThrows(IOException.class, out::sync);
            out.sync();
        }
        assertEquals(2, faulty().injectedFaults());
        assertEquals(3, faulty().base().syncedLength(file));
    }

    @Test
    void alwaysFailingOperationsFailUntilCleared() throws IOException {
        faulty().failAlways(FaultInjectionEnv.Op.NEW_FILE);
        for (int i = 0; i < 3; i++) {
            assertThrows(IOException.class, () -> env.newWritableFile(dir.resolve("g")));
        }
        assertFalse(env.fileExists(dir.resolve("g")));
        faulty().failAlways(FaultInjectionEnv.Op.RENAME);
        faulty().failAlways(FaultInjectionEnv.Op.DELETE);
        faulty().failAlways(FaultInjectionEnv.Op.OPEN_READ);
        faulty().failAlways(FaultInjectionEnv.Op.SYNC_DIR);
        faulty().clearFaults();
        write(dir.resolve("g"), new byte[] {1});
        env.renameFile(dir.resolve("g"), dir.resolve("h"));
        env.syncDir(dir);
        env.newRandomAccessFile(dir.resolve("h")).close();
        env.deleteFile(dir.resolve("h"));
        assertEquals(3, faulty().injectedFaults());
    }

    @Test
    void tornAppendWritesHalfThenFails() throws IOException {
        Path file = dir.resolve("torn");
        faulty().setTornAppends(true);
        try (Env.WritableFile out = env.newWritableFile(file)) {
            out.append(utf8("0123"));
            faulty().fail(FaultInjectionEnv.Op.APPEND, 1);
            assertThrows(IOException.class, () -> out.append(utf8("abcdefgh")));
        }
        assertEquals("0123abcd", content(file));
    }

    @Test
    void fullDiskWritesWhatFitsThenFailsEveryAppendUntilCleared() throws IOException {
        Path limited = dir.resolve("000005.ldb");
        Path other = dir.resolve("000006.log");
        faulty().setSpaceLeft(p -> p.getFileName().toString().endsWith(".ldb"), 10);
        try (Env.WritableFile out = env.newWritableFile(limited); Env.WritableFile log = env.newWritableFile(other)) {
            out.append(ByteBuffer.wrap(new byte[6]));
            IOException e = assertThrows(IOException.class, () -> out.append(ByteBuffer.wrap(new byte[6])));
            assertEquals(FaultInjectionEnv.NO_SPACE, e.getMessage());
            assertThrows(IOException.class, () -> out.append(ByteBuffer.wrap(new byte[1])));
            log.append(ByteBuffer.wrap(new byte[100])); // other files are not limited
            log.sync();
            log.sync();
            faulty().clearFaults();
            out.append(ByteBuffer.wrap(new byte[1]));
        }
        assertEquals(11, env.getFileSize(limited));
        assertEquals(2, faulty().syncs(other));
        assertEquals(0, faulty().syncs(limited));
    }

    @Test
    void crashKeepsSyncedBytesAndSyncedDirectoryEntriesOnly() throws IOException {
        Path durable = dir.resolve("durable");
        Path unsyncedName = dir.resolve("unsynced-name");
        env.syncDir(dir);
        try (Env.WritableFile out = env.newWritableFile(durable)) {
            out.append(utf8("synced"));
            out.sync();
            env.syncDir(dir);
            out.append(utf8("-lost"));
        }
        try (Env.WritableFile out = env.newWritableFile(unsyncedName)) {
            out.append(utf8("data synced, name not"));
            out.sync();
        }
        assertEquals("synced-lost", content(durable));
        faulty().crash();
        assertEquals("synced", content(durable));
        assertFalse(env.fileExists(unsyncedName));
        assertEquals(List.of("durable"), env.getChildren(dir));
    }

    @Test
    void renamedFileFollowsItsNewNamesDurability() throws IOException {
        Path temp = dir.resolve("temp");
        Path current = dir.resolve("CURRENT");
        write(temp, "MANIFEST-000002\n".getBytes(StandardCharsets.US_ASCII));
        try (Env.WritableFile out = env.newAppendableFile(temp)) {
            out.sync();
        }
        env.renameFile(temp, current);
        env.syncDir(dir);
        faulty().crash();
        assertArrayEquals("MANIFEST-000002\n".getBytes(StandardCharsets.US_ASCII), readSequentially(current, 3));
    }

    @Test
    void renameOverAnExistingFileSurvivesACrashWithoutDirectorySync() throws IOException {
        Path current = dir.resolve("CURRENT");
        write(current, "MANIFEST-000001\n".getBytes(StandardCharsets.US_ASCII));
        try (Env.WritableFile out = env.newAppendableFile(current)) {
            out.sync();
        }
        env.syncDir(dir);
        Path temp = dir.resolve("000002.dbtmp");
        Path fresh = dir.resolve("fresh");
        try (Env.WritableFile out = env.newWritableFile(temp)) {
            out.append(utf8("MANIFEST-000002\n"));
            out.sync();
        }
        try (Env.WritableFile out = env.newWritableFile(dir.resolve("other"))) {
            out.append(utf8("x"));
            out.sync();
        }
        // Replacing CURRENT: a crash leaves the old or the new file, never neither; the
        // simulation keeps the new one. A new file renamed to a new name is still at risk.
        env.renameFile(temp, current);
        env.renameFile(dir.resolve("other"), fresh);
        faulty().crash();
        assertArrayEquals("MANIFEST-000002\n".getBytes(StandardCharsets.US_ASCII), readSequentially(current, 3));
        assertFalse(env.fileExists(fresh));
    }
}
