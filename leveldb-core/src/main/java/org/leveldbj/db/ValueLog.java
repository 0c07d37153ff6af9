package org.leveldbj.db;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.leveldbj.key.ValueType;
import org.leveldbj.vlog.ValueFileWriter;
import org.leveldbj.vlog.ValueFiles;
import org.leveldbj.vlog.ValueReference;

/**
 * The database's side of value separation ({@code Options.valueThreshold}): writes large values
 * to value files before the writes that refer to them are logged, and reads them back for
 * lookups and iterators.
 *
 * <p>Writing: a value of at least {@code threshold} bytes is appended to the current value file
 * by {@link #append}, which hands back its reference: by the writer's own thread for a
 * {@code put} (straight from the caller's array, before the write joins the queue), and by the
 * write leader, through {@link #separate}, for the large values of batches (each such put is
 * replaced, in a copy of the group, by a put of its reference: WriteBatch tag 2). Either way the
 * value reaches the operating system before the log record naming it; a synced write calls
 * {@link #sync} (the value file, and the directory after a new file) before the log is synced.
 * A value file grows to {@link #MAX_FILE_SIZE} before the next is started, and is never appended
 * to after this object is closed: a reopened database starts a new file. A failed append leaves
 * the file's end unknown: every later append fails too.
 *
 * <p>Recovery: {@link #checkReferences} tells whether every reference of a batch read from a log
 * reaches a record of its value file; a batch with one that does not was logged after a value
 * that never reached the disk (an unsynced write lost with the machine) and is dropped whole.
 *
 * <p>Thread safety: safe for concurrent use. Appends and syncs are serialized by this object's
 * monitor, which is taken before, never while holding, the database lock (a new value file
 * takes a file number under the database lock). {@link #separate} is the write leader's;
 * {@link #checkReferences} is recovery's. Lifetime: {@link #close} closes the value file being
 * written and every reader; it must not be called with the database lock held.
 */
final class ValueLog implements Closeable {
    /** The size from which the value file being written is closed and a new one started. */
    static final long MAX_FILE_SIZE = 256L << 20;

    private final Env env;
    private final Path dir;
    private final int threshold;
    private final ValueFiles files;
    /** Allocates file numbers (takes the database lock). */
    private final LongSupplier fileNumbers;
    /** Leader only. */
    private final SeparatingHandler separating = new SeparatingHandler();
    /** Leader only. */
    private final WriteBatchImpl separated = new WriteBatchImpl();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong valuesWritten = new AtomicLong();
    /** Recovery only (one thread, value files unchanging): the sizes of value files seen. */
    private final Map<Long, Long> recoverySizes = new HashMap<>();
    @GuardedBy("this")
    private ValueFileWriter writer;
    /** A value file was created since the directory was last synced. */
    @GuardedBy("this")
    private boolean directoryUnsynced;
    /** Why appends are refused: a failed append, or close. */
    @GuardedBy("this")
    private IOException failure;

    /**
     * @param env the database's environment
     * @param dir the database directory
     * @param threshold the smallest value separated; 0 separates none (reads still resolve)
     * @param fileNumbers allocates the number of each new value file
     */
    ValueLog(Env env, Path dir, int threshold, LongSupplier fileNumbers) {
        this.fileNumbers = fileNumbers;
        this.env = env;
        this.dir = dir;
        this.threshold = threshold;
        this.files = new ValueFiles(env, dir);
    }

    /** @return the threshold; 0 when new values are not separated */
    int threshold() {
        return threshold;
    }

    /**
     * Whether a value is to be separated.
     *
     * @param valueLength the value's length
     * @return {@code true} when separation is on and the value reaches the threshold
     */
    boolean separates(int valueLength) {
        return threshold > 0 && valueLength >= threshold;
    }

    /**
     * Appends a value to the current value file (starting a new one when it is full) and flushes
     * it to the operating system.
     *
     * @param key the array holding the key
     * @param keyOffset the key's first byte
     * @param keyLength the key's length
     * @param value the array holding the value
     * @param valueOffset the value's first byte
     * @param valueLength the value's length
     * @return the encoding of the value's reference
     * @throws IOException if writing fails, now or at an earlier append
     */
    synchronized byte[] append(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset, int valueLength)
            throws IOException {
        if (failure != null) {
            throw new IOException("value file unusable after an earlier failure: " + failure.getMessage(), failure);
        }
        try {
            if (writer == null || writer.size() >= MAX_FILE_SIZE) {
                long number = fileNumbers.getAsLong();
                ValueFileWriter fresh = new ValueFileWriter(env.newWritableFile(files.path(number)), number);
                if (writer != null) {
                    // Its records were flushed; synced writes synced it before the switch.
                    writer.sync();
                    writer.close();
                }
                writer = fresh;
                directoryUnsynced = true;
            }
            ValueReference ref = writer.append(key, keyOffset, keyLength, value, valueOffset, valueLength);
            bytesWritten.addAndGet(ref.recordSize());
            valuesWritten.incrementAndGet();
            return ref.encode();
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
            throw e;
        }
    }

    /**
     * Moves the group's large values to the value file.
     *
     * @param group the write group, its sequence number set
     * @return the group itself when it holds no large value, else a copy holding references
     *     (valid until the next call)
     * @throws IOException if writing a value file fails: the value file's end is then unknown
     */
    WriteBatchImpl separate(WriteBatchImpl group) throws IOException {
        if (threshold <= 0 || group.approximateSize() - WriteBatchImpl.HEADER_SIZE <= threshold) {
            return group; // no record of the group can hold a value that large
        }
        separated.clear();
        separating.failure = null;
        separating.any = false;
        group.forEach(separating);
        if (separating.failure != null) {
            separated.clear();
            throw separating.failure;
        }
        if (!separating.any) {
            return group;
        }
        separated.setSequence(group.sequence());
        return separated;
    }

    /**
     * Makes every value appended so far durable; called before a synced log record.
     *
     * @throws IOException if syncing fails
     */
    synchronized void sync() throws IOException {
        if (failure != null) {
            throw new IOException("value file unusable after an earlier failure: " + failure.getMessage(), failure);
        }
        if (writer != null) {
            writer.sync();
        }
        if (directoryUnsynced) {
            env.syncDir(dir);
            directoryUnsynced = false;
        }
    }

    /**
     * Reads a separated value.
     *
     * @param encodedReference a reference's encoding
     * @return the value, in a new array
     * @throws CorruptionException if the reference or its record is damaged
     * @throws org.iq80.leveldb.IOErrorException if the value file cannot be read
     */
    byte[] read(byte[] encodedReference) {
        return files.read(ValueReference.decode(encodedReference, 0, encodedReference.length));
    }

    /**
     * Reads a separated value for an iterator.
     *
     * @param encodedReference a reference's encoding (not moved)
     * @return the value, in a new heap buffer
     */
    ByteBuffer read(ByteBuffer encodedReference) {
        return ByteBuffer.wrap(files.read(ValueReference.decode(encodedReference)));
    }

    /**
     * Checks, without reading values, that every reference of a batch read from a log reaches a
     * record of an existing value file.
     *
     * @param batch the batch
     * @return {@code null} when every reference holds, else why one does not
     * @throws CorruptionException if the batch itself is malformed
     */
    String checkReferences(WriteBatchImpl batch) {
        ReferenceCheck check = new ReferenceCheck();
        batch.forEach(check);
        return check.problem;
    }

    /** @return the bytes appended to value files by this database since it opened */
    long bytesWritten() {
        return bytesWritten.get();
    }

    /** @return the values appended to value files by this database since it opened */
    long valuesWritten() {
        return valuesWritten.get();
    }

    /** @return the value file being written, or -1 */
    synchronized long currentFileNumber() {
        return writer == null ? -1 : writer.number();
    }

    /**
     * The path of a value file.
     *
     * @param number its number
     * @return where it is
     */
    Path path(long number) {
        return files.path(number);
    }

    @Override
    public synchronized void close() throws IOException {
        if (failure == null) {
            failure = new IOException("value log closed");
        }
        try {
            if (writer != null) {
                writer.close();
                writer = null;
            }
        } finally {
            files.close();
        }
    }

    /** Copies a group into {@link #separated}, moving large values to the value file. */
    private final class SeparatingHandler implements WriteBatchImpl.Handler {
        IOException failure;
        boolean any;

        @Override
        public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
            if (failure != null) {
                return;
            }
            if (valueLength < threshold) {
                separated.addRecord(ValueType.VALUE, data, keyOffset, keyLength, data, valueOffset, valueLength);
                return;
            }
            byte[] encoded;
            try {
                encoded = append(data, keyOffset, keyLength, data, valueOffset, valueLength);
            } catch (IOException e) {
                failure = e;
                return;
            }
            any = true;
            separated.addRecord(ValueType.VALUE_REFERENCE, data, keyOffset, keyLength, encoded, 0, encoded.length);
        }

        @Override
        public void putReference(byte[] data, int keyOffset, int keyLength, int referenceOffset, int referenceLength) {
            separated.addRecord(ValueType.VALUE_REFERENCE, data, keyOffset, keyLength, data, referenceOffset,
                    referenceLength);
        }

        @Override
        public void delete(byte[] data, int keyOffset, int keyLength) {
            separated.addRecord(ValueType.DELETION, data, keyOffset, keyLength, data, 0, 0);
        }
    }

    /** Finds the first reference of a batch that reaches past its value file's end. */
    private final class ReferenceCheck implements WriteBatchImpl.Handler {
        String problem;

        @Override
        public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
            // a plain value
        }

        @Override
        public void delete(byte[] data, int keyOffset, int keyLength) {
            // nothing referred to
        }

        @Override
        public void putReference(byte[] data, int keyOffset, int keyLength, int referenceOffset, int referenceLength) {
            if (problem != null) {
                return;
            }
            ValueReference ref = ValueReference.decode(data, referenceOffset, referenceLength);
            Path path = files.path(ref.fileNumber());
            long size = recoverySizes.computeIfAbsent(ref.fileNumber(), n -> {
                try {
                    return env.fileExists(path) ? env.getFileSize(path) : -1L;
                } catch (IOException e) {
                    return -1L;
                }
            });
            if (size < ref.end()) {
                problem = "value reference to " + path + " offset " + ref.offset() + " (" + ref.recordSize()
                        + " bytes) " + (size < 0 ? "in a missing file" : "past the file's end (" + size + " bytes)");
            }
        }
    }
}
