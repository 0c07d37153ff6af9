package org.leveldbj.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.leveldbj.testing.MemEnv;

/**
 * What the fuzz targets share: fuzzed bytes as files of an in-memory {@link Env}, and the check
 * that a corruption report is one a user can act on.
 *
 * <p>Every fuzz input of this package starts with a small header the target documents (flag
 * bytes, an offset) followed by the file under test, so that real files, with the header in
 * front, are seeds: {@link SeedCorpus} writes them.
 *
 * <p>Thread safety: stateless.
 */
final class FuzzFiles {
    /** The directory the files live in, in the in-memory environment. */
    static final Path DIR = Path.of("/db");

    private FuzzFiles() {
    }

    /**
     * Creates an in-memory environment holding {@code bytes[from, to)} as {@code DIR/name}.
     *
     * @return the environment
     */
    static MemEnv envWith(String name, byte[] bytes, int from, int to) {
        MemEnv env = new MemEnv();
        try {
            env.createDir(DIR);
            write(env, name, bytes, from, to);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return env;
    }

    /** Writes {@code bytes[from, to)} as {@code DIR/name} of {@code env}. */
    static void write(Env env, String name, byte[] bytes, int from, int to) throws IOException {
        try (Env.WritableFile file = env.newWritableFile(DIR.resolve(name))) {
            file.append(ByteBuffer.wrap(bytes, from, to - from));
            file.sync();
        }
    }

    /**
     * Checks that a corruption report says what went wrong and, when {@code file} is given,
     * names that file and an offset (or the unknown offset). The offset may lie past the end of
     * the file: a block handle that points there is reported at the offset it names.
     */
    static void checkReport(CorruptionException e, String file) {
        assertNotNull(e.reason(), "corruption without a reason");
        assertFalse(e.reason().isBlank(), "corruption with a blank reason");
        assertNotNull(e.getMessage());
        if (file != null) {
            assertEquals(file, e.file(), () -> "the report does not name the file: " + e.getMessage());
            long offset = e.offset();
            assertTrue(offset == CorruptionException.UNKNOWN_OFFSET || offset >= 0,
                    () -> "negative offset " + offset + ": " + e.getMessage());
        }
    }

    /** Reads a little-endian unsigned 16-bit header field; missing bytes read as zero. */
    static int u16(byte[] input, int at) {
        int lo = at < input.length ? input[at] & 0xff : 0;
        int hi = at + 1 < input.length ? input[at + 1] & 0xff : 0;
        return lo | hi << 8;
    }

    /** The byte at {@code at}, or zero past the end. */
    static int u8(byte[] input, int at) {
        return at < input.length ? input[at] & 0xff : 0;
    }

    /** The remaining bytes of a buffer, copied. */
    static byte[] copy(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    /** {@code input[from..]}, or empty. */
    static byte[] tail(byte[] input, int from) {
        return from >= input.length ? new byte[0] : Arrays.copyOfRange(input, from, input.length);
    }
}
