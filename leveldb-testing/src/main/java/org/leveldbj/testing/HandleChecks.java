package org.leveldbj.testing;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The argument and state checks of the in-memory file handles, worded as the
 * {@link org.iq80.leveldb.Env} contract (and the engine's file-system environment) words them.
 *
 * <p>Thread safety: stateless.
 */
final class HandleChecks {
    private HandleChecks() {
    }

    /** {@code "<file>: already closed"}, for any call on a closed handle. */
    static IOException closed(Path file) {
        return new IOException(file + ": already closed");
    }

    /** Rejects a negative offset or length of a positional read, giving both. */
    static void checkReadArguments(long offset, int length) {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException(
                    "offset and length must not be negative: offset=" + offset + " length=" + length);
        }
    }

    /** How many bytes a positional read returns: {@code length} or what is left, 0 past the end. */
    static int readableBytes(long offset, int length, long size) {
        return offset >= size ? 0 : (int) Math.min(length, size - offset);
    }

    /** Rejects a negative skip. */
    static void checkSkip(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot skip a negative number of bytes: n=" + n);
        }
    }
}
