package org.leveldbj.db;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.leveldbj.key.ValueType;
import org.leveldbj.vlog.ValueFileWriter;
import org.leveldbj.vlog.ValueFiles;
import org.leveldbj.vlog.ValueReference;

/**
 * The database's side of value separation ({@code Options.valueThreshold}): moves the large
 * values of a write group into value files before the group is logged, and reads them back for
 * lookups and iterators.
 *
 * <p>Writing: the write leader calls {@link #needsNewFile} with the database lock held (a new
 * value file takes a file number), then {@link #separate} with it released: each put whose value
 * has at least {@code threshold} bytes is appended to the current value file and replaced, in a
 * copy of the group, by a put of its reference (WriteBatch tag 2); then, for a synced write,
 * {@link #sync} (the value file, and the directory after a new file) before the log is synced. A value file grows to {@link #MAX_FILE_SIZE} before the
 * next one is started, and is never appended to after this object is closed: a reopened
 * database starts a new file.
 *
 * <p>Recovery: {@link #checkReferences} tells whether every reference of a batch read from a log
 * reaches a record of its value file; a batch with one that does not was logged after a value
 * that never reached the disk (an unsynced write lost with the machine) and is dropped whole.
 *
 * <p>Thread safety: {@link #needsNewFile}, {@link #separate} and {@link #sync} are the write
 * leader's (one thread at a time); {@link #read} and the counters are safe for any thread.
 * Lifetime: {@link #close} closes the value file being written and every reader.
 */
final class ValueLog implements Closeable {
    /** The size from which the value file being written is closed and a new one started. */
    static final long MAX_FILE_SIZE = 256L << 20;

    private final Env env;
    private final Path dir;
    private final int threshold;
    private final ValueFiles files;
    private final SeparatingHandler separating = new SeparatingHandler();
    private final WriteBatchImpl separated = new WriteBatchImpl();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong valuesWritten = new AtomicLong();
    /** Recovery only (one thread, value files unchanging): the sizes of value files seen. */
    private final Map<Long, Long> recoverySizes = new HashMap<>();
    /** Leader only. */
    private ValueFileWriter writer;
    /** Leader only: the number reserved for the next value file, or -1. */
    private long nextNumber = -1;
    /** Leader only: a value file was created since the directory was last synced. */
    private boolean directoryUnsynced;

    /**
     * @param env the database's environment
     * @param dir the database directory
     * @param threshold the smallest value separated; 0 separates none (reads still resolve)
     */
    ValueLog(Env env, Path dir, int threshold) {
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
     * Whether the group may hold a value to separate, and no value file can take it: the leader
     * then reserves a file number and passes it through {@link #reserve}.
     *
     * @param group the write group
     * @return {@code true} when a new value file number is needed
     */
    boolean needsNewFile(WriteBatchImpl group) {
        return mayHoldLargeValue(group) && nextNumber < 0 && (writer == null || writer.size() >= MAX_FILE_SIZE);
    }

    /**
     * Hands over a file number for the next value file.
     *
     * @param number a number no other file uses
     */
    void reserve(long number) {
        nextNumber = number;
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
        if (!mayHoldLargeValue(group)) {
            return group;
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
    void sync() throws IOException {
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
    long currentFileNumber() {
        ValueFileWriter w = writer;
        return w == null ? -1 : w.number();
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
    public void close() throws IOException {
        try {
            if (writer != null) {
                writer.close();
                writer = null;
            }
        } finally {
            files.close();
        }
    }

    private boolean mayHoldLargeValue(WriteBatchImpl group) {
        return threshold > 0 && group.approximateSize() - WriteBatchImpl.HEADER_SIZE > threshold;
    }

    /**
     * The value file to append to: a new one when the current one was full when the group
     * started (a group's values all go to one file, which may grow past the size limit).
     */
    private ValueFileWriter writer() throws IOException {
        if (writer == null || (writer.size() >= MAX_FILE_SIZE && nextNumber >= 0)) {
            if (nextNumber < 0) {
                throw new IllegalStateException("no value file number reserved");
            }
            ValueFileWriter fresh = new ValueFileWriter(env.newWritableFile(files.path(nextNumber)), nextNumber);
            nextNumber = -1;
            if (writer != null) {
                // Its records are flushed; a synced write syncs the file it used before switching.
                writer.sync();
                writer.close();
            }
            writer = fresh;
            directoryUnsynced = true;
        }
        return writer;
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
            ValueReference ref;
            try {
                ValueFileWriter w = writer();
                ref = w.append(data, keyOffset, keyLength, data, valueOffset, valueLength);
            } catch (IOException e) {
                failure = e;
                return;
            }
            any = true;
            bytesWritten.addAndGet(ref.recordSize());
            valuesWritten.incrementAndGet();
            byte[] encoded = ref.encode();
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
