package org.leveldbj.env;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.EnvContractTest;
import org.leveldbj.testing.Seed;

/** {@link FileSystemEnv} with mapping disabled: the contract on positional reads. */
class FileSystemEnvPositionalTest extends EnvContractTest {
    @Override
    protected Env createEnv() {
        return new FileSystemEnv(0);
    }

    @Test
    void filesAreReadWithPositionalReads() throws IOException {
        Path file = dir.resolve("000001.ldb");
        write(file, new byte[1000]);
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        assertFalse(random.isMapped());
        ByteBuffer read = random.read(0, 10);
        assertFalse(read.isDirect());
        assertEquals(0, ((FileSystemEnv) env).availableMappings());
    }

    @Test
    void anInterruptFailsOnlyTheInterruptedRead(@Seed long seed) throws IOException {
        Path file = dir.resolve("000002.ldb");
        byte[] content = randomBytes(new Random(seed), 10_000);
        write(file, content);
        Env.RandomAccessFile random = closeLater(env.newRandomAccessFile(file));
        Thread.currentThread().interrupt();
        try {
            IOException e = assertThrows(IOException.class, () -> random.read(0, 100));
            assertTrue(e instanceof InterruptedIOException, e.toString());
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        } finally {
            Thread.interrupted();
        }
        assertArrayEquals(content, toArray(random.read(0, content.length)), "the channel was reopened");
    }
}
