package org.leveldbj.stress;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;

/**
 * The verified state of the database at the start of a round: for every key of every thread,
 * the operation whose value it holds ({@link #ABSENT} when it holds none), and the number the
 * thread's next operation takes. The driver writes it after each verification; the stress
 * process starts from it and its threads append their operations to their {@link OpLog}s.
 *
 * <p>File layout (big-endian): threads {@code int}, keys per thread {@code int}, then per thread
 * its next operation number {@code long}, its count of present keys {@code int} and per present
 * key its index {@code int} and operation {@code long}.
 *
 * <p>Thread safety: not thread-safe; each stress thread reads and writes only its own row.
 */
final class ExpectedState {
    /** The operation number of a key that holds no value. */
    static final long ABSENT = -1;
    static final String FILE = "expected.state";

    private final long[][] ops;
    private final long[] nextOp;

    ExpectedState(int threads, int keysPerThread) {
        this.ops = new long[threads][keysPerThread];
        this.nextOp = new long[threads];
        for (long[] row : ops) {
            Arrays.fill(row, ABSENT);
        }
        Arrays.fill(nextOp, 1);
    }

    int threads() {
        return ops.length;
    }

    int keysPerThread() {
        return ops[0].length;
    }

    /** The thread's row: the operation of each key's value, or {@link #ABSENT}. */
    long[] row(int thread) {
        return ops[thread];
    }

    long nextOp(int thread) {
        return nextOp[thread];
    }

    void setNextOp(int thread, long next) {
        nextOp[thread] = next;
    }

    /**
     * Reads the state of a crash-test directory, or a fresh one (every key absent) when it has
     * none yet.
     *
     * @throws IOException if the file cannot be read or was written for another shape
     */
    static ExpectedState load(Path dir, int threads, int keysPerThread) throws IOException {
        ExpectedState s = new ExpectedState(threads, keysPerThread);
        ByteBuffer b;
        try {
            b = ByteBuffer.wrap(Files.readAllBytes(dir.resolve(FILE)));
        } catch (NoSuchFileException e) {
            return s;
        }
        int t = b.getInt();
        int k = b.getInt();
        if (t != threads || k != keysPerThread) {
            throw new IOException(dir.resolve(FILE) + " was written for " + t + " threads of " + k
                    + " keys, not " + threads + " of " + keysPerThread + ": use the same flags or a new --db");
        }
        for (int thread = 0; thread < threads; thread++) {
            s.nextOp[thread] = b.getLong();
            int present = b.getInt();
            for (int i = 0; i < present; i++) {
                int index = b.getInt();
                s.ops[thread][index] = b.getLong();
            }
        }
        return s;
    }

    /** Writes the state atomically (a temporary file renamed over the old one). */
    void save(Path dir) throws IOException {
        int size = 8;
        for (long[] row : ops) {
            size += 12 + 12 * (int) Arrays.stream(row).filter(op -> op != ABSENT).count();
        }
        ByteBuffer b = ByteBuffer.allocate(size).putInt(threads()).putInt(keysPerThread());
        for (int thread = 0; thread < threads(); thread++) {
            long[] row = ops[thread];
            b.putLong(nextOp[thread]).putInt((int) Arrays.stream(row).filter(op -> op != ABSENT).count());
            for (int i = 0; i < row.length; i++) {
                if (row[i] != ABSENT) {
                    b.putInt(i).putLong(row[i]);
                }
            }
        }
        Path temp = dir.resolve(FILE + ".tmp");
        Files.write(temp, b.array());
        Files.move(temp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
