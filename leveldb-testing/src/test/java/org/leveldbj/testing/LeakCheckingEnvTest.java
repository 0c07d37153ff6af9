package org.leveldbj.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.engine.TestExecutionResult.Status;

class LeakCheckingEnvTest {
    private final Path dir = Path.of("/db");

    @Test
    void handlesStayListedWithTheirStackUntilClosed() throws IOException {
        LeakCheckingEnv env = new LeakCheckingEnv(new MemEnv());
        env.createDir(dir);
        Env.WritableFile log = env.newWritableFile(dir.resolve("000003.log"));
        log.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        Env.FileLock lock = env.lockFile(dir.resolve("LOCK"));
        Env.RandomAccessFile table = env.newRandomAccessFile(dir.resolve("000003.log"));
        Env.SequentialFile reader = env.newSequentialFile(dir.resolve("000003.log"));
        assertEquals(4, env.openHandles().size());

        log.close();
        reader.close();
        List<String> open = env.openHandles();
        assertEquals(2, open.size(), open.toString());
        String all = String.join("\n", open);
        assertTrue(all.contains("lock /db/LOCK opened here, never closed"), all);
        assertTrue(all.contains("random-access file /db/000003.log opened here, never closed"), all);
        assertTrue(all.contains("handlesStayListedWithTheirStackUntilClosed"), "the opening stack: " + all);
        assertEquals(3, table.size(), "calls go through");

        table.close();
        lock.close();
        assertEquals(List.of(), env.openHandles());
    }

    @Test
    void anEmptyDirectoryLocksNothing() throws IOException {
        LeakCheckingEnv env = new LeakCheckingEnv(new MemEnv());
        env.createDir(dir);
        assertEquals(null, env.lockExistingFile(dir.resolve("LOCK")));
        assertEquals(List.of(), env.openHandles());
    }

    static class Fixture {
        @RegisterExtension
        final LeakCheck leaks = new LeakCheck();

        @Test
        void leaksAFile() throws IOException {
            Env env = leaks.env(new MemEnv());
            env.createDir(Path.of("/d"));
            env.newWritableFile(Path.of("/d/MANIFEST-000001"));
        }

        @Test
        void closesEverything() throws IOException {
            Env env = leaks.env(new MemEnv());
            env.createDir(Path.of("/d"));
            env.newWritableFile(Path.of("/d/MANIFEST-000001")).close();
        }
    }

    @Test
    void leakCheckFailsATestThatLeavesAFileOpen() {
        List<JUnitRuns.Outcome> outcomes = JUnitRuns.run(Fixture.class);
        JUnitRuns.Outcome leaky = JUnitRuns.only(outcomes, "leaksAFile");
        assertEquals(Status.FAILED, leaky.status());
        String message = leaky.failure().getMessage();
        assertTrue(message.startsWith("leaksAFile() leaked 1:\n"), message);
        assertTrue(message.contains("writable file /d/MANIFEST-000001 opened here, never closed"), message);
        assertEquals(Status.SUCCESSFUL, JUnitRuns.only(outcomes, "closesEverything").status());
    }
}
