package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;
import org.leveldbj.vlog.LentValue;
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
 * A value file grows to {@value #TABLE_FILES_PER_VALUE_FILE} times the table file size before
 * the next is started (64 MiB by default), and is never appended to after this object is closed:
 * a reopened database starts a new file. A file left for the next stays open, unsynced, until
 * {@link #sync} needs it durable, while at most {@value #DEFERRED_FILES} wait so; beyond that
 * the oldest is synced and closed on a thread of the database's background pool
 * ({@link #syncOn}). So a burst of large values
 * runs at the speed of the operating system's cache (syncing each full file beside the writer
 * cost it a fifth of its time here: 100 KB values into 32 MiB files, 41-58 against 32-35
 * microseconds per write), and what a later sync must force is still bounded: the current
 * file and up to {@value #DEFERRED_FILES} full ones, plus up to {@value #MAX_SWITCHED_OUT} that
 * the thread is syncing, for which an append that starts a file waits when that many are in
 * progress. {@link #sync} syncs the waiting files itself, outside this object's lock so
 * that appends go on meanwhile, and waits for the thread's; each full file is synced and closed
 * once, by whichever thread comes first; {@link #close} does the same. A sync that fails makes
 * every later append and sync fail. A failed append leaves the file's end unknown: every later
 * append fails too. Compactions move the values of files being reclaimed ({@link #reclaim},
 * {@link #relocate}) or write them back into the tables ({@link #inline}).
 *
 * <p>Tables: a table is recorded in the MANIFEST (and the log it was flushed from deleted) only
 * after {@link #sync} has made every value it may refer to durable: the values appended by this
 * object (a memtable's unsynced writes, the values a compaction moved) and the value files the
 * references of recovered logs named. Otherwise a power failure could keep the table and lose
 * its values, leaving references to nothing.
 *
 * <p>Recovery: {@link #checkReferences} tells whether every reference of a batch read from a log
 * reaches a record of its value file; a batch with one that does not was logged after a value
 * that never reached the disk (an unsynced write lost with the machine) and is dropped whole.
 *
 * <p>Thread safety: safe for concurrent use. Appends, and syncs of the current file, are
 * serialized by this object's lock (rank {@link LockRank#VALUE_LOG}: after the database lock,
 * which the sweep holds when it asks {@link #inUse}); nothing done under it takes the database
 * lock or another lock of an earlier rank: a new value file takes its number from the version
 * set's atomic counter. Full files are synced outside the lock, each by one thread.
 * {@link #separate} is the write leader's; {@link #checkReferences} is recovery's. Lifetime:
 * {@link #close} closes the value file being written and every reader; it syncs files, so it is
 * not called with the database lock held.
 */
final class ValueLog implements Closeable {
    /** How many times a table file's size a value file grows to before the next is started. */
    static final int TABLE_FILES_PER_VALUE_FILE = 32;
    /** The smallest value file size limit. */
    static final long MIN_FILE_SIZE = 4 << 10;
    /** How many full files may wait, unsynced, for the next {@link #sync}. */
    static final int DEFERRED_FILES = 2;
    /** How many full files the syncer thread may be syncing before a new switch waits for one. */
    static final int MAX_SWITCHED_OUT = 2;

    /** Serializes appends, switches and syncs of the current file; see the class comment. */
    private final OrderedLock lock = new OrderedLock(LockRank.VALUE_LOG);
    private final Env env;
    private final Path dir;
    private final int threshold;
    /** The size from which the value file being written is closed and a new one started. */
    private final long maxFileSize;
    private final ValueFiles files;
    /** Allocates file numbers (takes no lock). */
    private final LongSupplier fileNumbers;
    /** Leader only. */
    private final SeparatingHandler separating = new SeparatingHandler();
    /** Leader only. */
    private final WriteBatchImpl separated = new WriteBatchImpl();
    private final AtomicLong bytesWritten = new AtomicLong();
    private final AtomicLong valuesWritten = new AtomicLong();
    /** Recovery only (one thread, value files unchanging): the sizes of value files seen. */
    private final Map<Long, Long> recoverySizes = new HashMap<>();
    /** Value files the references of recovered logs named, not yet synced by {@link #sync}. */
    @GuardedBy("lock")
    private final Set<Long> recoveredUnsynced = new TreeSet<>();
    @GuardedBy("lock")
    private ValueFileWriter writer;
    /** A value file was created since the directory was last synced. */
    @GuardedBy("lock")
    private boolean directoryUnsynced;
    /**
     * Files left for the next and not yet synced and closed, oldest first: those handed to the
     * syncer thread, then those waiting for {@link #sync}.
     */
    @GuardedBy("lock")
    private final ArrayDeque<SwitchedOut> switchedOut = new ArrayDeque<>();
    /**
     * Syncs and closes the files left for the next: the database's background pool, which may
     * drop a task once the database closes (whoever needs the file durable runs its task).
     */
    private volatile Executor syncer = Runnable::run;
    /** Why appends are refused: a failed append, or close. */
    @GuardedBy("lock")
    private IOException failure;
    /**
     * Value file number to the references handed out by {@link #append} whose writes are not yet
     * in a memtable or a table: such a file must not be deleted, whatever the tables say.
     */
    @GuardedBy("lock")
    private final Map<Long, Integer> pending = new HashMap<>();
    /** The value files whose values compactions move elsewhere ({@link #relocate}). */
    private volatile Set<Long> victims = Set.of();
    /** Whether compactions write separated values back into the tables. */
    private volatile boolean inlining;

    /**
     * @param env the database's environment
     * @param dir the database directory
     * @param threshold the smallest value separated; 0 separates none (reads still resolve)
     * @param fileNumbers allocates the number of each new value file
     * @param tableFileSize the database's table file size ({@code Options.maxFileSize}): value
     *     files grow to {@value #TABLE_FILES_PER_VALUE_FILE} times it (64 MiB by default)
     */
    ValueLog(Env env, Path dir, int threshold, LongSupplier fileNumbers, long tableFileSize) {
        this.maxFileSize = Math.max(MIN_FILE_SIZE, TABLE_FILES_PER_VALUE_FILE * tableFileSize);
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
    byte[] append(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset, int valueLength)
            throws IOException {
        lock.lock();
        try {
            return appendLocked(key, keyOffset, keyLength, value, valueOffset, valueLength);
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private byte[] appendLocked(byte[] key, int keyOffset, int keyLength, byte[] value, int valueOffset,
            int valueLength) throws IOException {
        requireUsable();
        try {
            if (writer == null || writer.size() >= maxFileSize) {
                if (writer != null) {
                    ValueFileWriter full = writer;
                    writer = null;
                    switchOut(full);
                }
                long number = fileNumbers.getAsLong();
                writer = new ValueFileWriter(env.newWritableFile(files.path(number)), number);
                directoryUnsynced = true;
            }
            ValueReference ref = writer.append(key, keyOffset, keyLength, value, valueOffset, valueLength);
            pending.merge(ref.fileNumber(), 1, Integer::sum);
            bytesWritten.addAndGet(ref.recordSize());
            valuesWritten.incrementAndGet();
            return ref.encode();
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io ? io : new IOException(e.getMessage(), e);
            throw e;
        }
    }

    /**
     * Leaves a full file waiting for the next {@link #sync}; hands the oldest waiting file to the
     * syncer thread while more than {@value #DEFERRED_FILES} wait, first collecting the syncs
     * done and waiting for the oldest while {@value #MAX_SWITCHED_OUT} are in progress.
     */
    @GuardedBy("lock")
    private void switchOut(ValueFileWriter old) throws IOException {
        switchedOut.addLast(new SwitchedOut(old, files.path(old.number())));
        while (switchedOut.stream().filter(f -> !f.handedOff).count() > DEFERRED_FILES) {
            while (!switchedOut.isEmpty() && (switchedOut.peekFirst().task.isDone()
                    || (switchedOut.peekFirst().handedOff && handedOff() >= MAX_SWITCHED_OUT))) {
                finish(switchedOut.removeFirst());
            }
            SwitchedOut oldest = switchedOut.stream().filter(f -> !f.handedOff).findFirst().orElseThrow();
            oldest.handedOff = true;
            syncer.execute(oldest.task);
        }
    }

    /** @return how many files the syncer thread has been handed and not yet collected */
    @GuardedBy("lock")
    private long handedOff() {
        return switchedOut.stream().filter(f -> f.handedOff).count();
    }

    /**
     * Names the threads that sync full files beside the writers: the database's background
     * pool. Until then (and in tests) the thread handing a file over syncs it.
     *
     * @param executor runs a file's sync task, or drops it (it then runs when needed)
     */
    void syncOn(Executor executor) {
        this.syncer = executor;
    }

    /** Makes a file left for the next durable and closed; its failure becomes this log's. */
    @GuardedBy("lock")
    private void finish(SwitchedOut file) throws IOException {
        try {
            file.syncAndClose();
        } catch (IOException e) {
            throw recordFailure(e);
        }
    }

    /** Makes a failed sync this log's failure, unless it already has one; returns it. */
    @GuardedBy("lock")
    private IOException recordFailure(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }

    /**
     * A full value file, open until its task syncs and closes it: once, on the syncer thread or
     * on the first thread that needs it durable, whichever comes first.
     */
    private static final class SwitchedOut {
        final ValueFileWriter file;
        final Path path;
        final FutureTask<Void> task;
        /** Whether the task was handed to the syncer thread. Guarded by the log's lock. */
        boolean handedOff;

        SwitchedOut(ValueFileWriter file, Path path) {
            this.file = file;
            this.path = path;
            this.task = new FutureTask<>(() -> {
                try (ValueFileWriter closing = file) {
                    closing.sync();
                }
                return null;
            });
        }

        long number() {
            return file.number();
        }

        /**
         * Runs the task here unless it has run or is running elsewhere, and waits for it.
         *
         * @throws IOException naming the file if the sync or close failed
         */
        void syncAndClose() throws IOException {
            task.run();
            boolean interrupted = false;
            try {
                while (true) {
                    try {
                        task.get();
                        return;
                    } catch (InterruptedException e) {
                        interrupted = true;
                    } catch (ExecutionException e) {
                        Throwable cause = e.getCause();
                        throw new IOException("syncing " + path + " failed: " + cause.getMessage(), cause);
                    }
                }
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    /**
     * Says that the write carrying a reference handed out by {@link #append} is in a memtable
     * (or a table, or failed): the reference's file no longer needs protecting for it.
     *
     * @param encodedReference the reference's encoding
     */
    void released(byte[] encodedReference) {
        long number = ValueReference.decode(encodedReference, 0, encodedReference.length).fileNumber();
        lock.lock();
        try {
            pending.computeIfPresent(number, (n, count) -> count == 1 ? null : count - 1);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Whether a value file is being written or has references on their way to a memtable or a
     * table: it must be kept whatever the tables say.
     *
     * @param number the value file
     * @return {@code true} to keep it
     */
    boolean inUse(long number) {
        lock.lock();
        try {
            if (switchedOut.stream().anyMatch(f -> f.number() == number)) {
                return true; // not yet synced
            }
            return (writer != null && writer.number() == number) || pending.containsKey(number);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Names the value files whose values compactions move to the current value file.
     *
     * @param files the files to reclaim; empty for none
     */
    void reclaim(Set<Long> files) {
        victims = Set.copyOf(files);
    }

    /**
     * Makes compactions write every separated value back into the tables (or stop doing so).
     *
     * @param on {@code true} while a database is turned back into plain LevelDB format
     */
    void inline(boolean on) {
        inlining = on;
    }

    /** @return whether compactions write separated values back into the tables */
    boolean inlining() {
        return inlining;
    }

    /**
     * For a compaction: moves a separated value out of a file being reclaimed. A value that
     * cannot be read is left where it is (the read error will meet its reader).
     *
     * @param internalKey the entry's key
     * @param reference the entry's value (not moved)
     * @param moved receives the new references, to {@link #released} once the compaction's edit
     *     is applied (or abandoned)
     * @return the new reference's encoding, or {@code null} to keep the entry
     * @throws IOException if appending fails
     */
    byte[] relocate(ByteBuffer internalKey, ByteBuffer reference, List<byte[]> moved) throws IOException {
        Set<Long> from = victims;
        if (from.isEmpty() || inlining) {
            return null;
        }
        ValueReference ref = ValueReference.decode(reference);
        if (!from.contains(ref.fileNumber())) {
            return null;
        }
        byte[] value;
        try {
            value = files.read(ref);
        } catch (CorruptionException e) {
            return null;
        }
        int keyLength = internalKey.remaining() - InternalKeys.TRAILER_SIZE;
        byte[] key = new byte[keyLength];
        internalKey.get(internalKey.position(), key);
        byte[] encoded = append(key, 0, keyLength, value, 0, value.length);
        moved.add(encoded);
        return encoded;
    }

    /**
     * The value files in the database directory and their sizes.
     *
     * @return value file number to size in bytes, in number order (a file deleted while listing
     *     is left out)
     * @throws IOException if the directory cannot be listed
     */
    SortedMap<Long, Long> fileSizes() throws IOException {
        SortedMap<Long, Long> sizes = new TreeMap<>();
        for (String name : env.getChildren(dir)) {
            FileNames.Parsed p = FileNames.parse(name);
            if (p != null && p.type() == FileType.VALUE) {
                try {
                    sizes.put(p.number(), env.getFileSize(dir.resolve(name)));
                } catch (IOException e) {
                    // deleted meanwhile
                }
            }
        }
        return sizes;
    }

    /** Throws the earlier failure (or close) that made the value file unusable, if any. */
    @GuardedBy("lock")
    private void requireUsable() throws IOException {
        if (failure != null) {
            throw new IOException("value file unusable after an earlier failure: " + failure.getMessage(), failure);
        }
    }

    /**
     * Closes the readers of a value file about to be deleted.
     *
     * @param number the file
     */
    void forget(long number) {
        files.forget(number);
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
        separating.appended.clear();
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
     * Releases the references {@link #separate} handed out: their group is in the memtable (or
     * failed). The write leader's.
     */
    void releaseSeparated() {
        for (byte[] encoded : separating.appended) {
            released(encoded);
        }
        separating.appended.clear();
    }

    /**
     * Makes every value appended so far durable, and the value files recovered logs referred to:
     * called before a synced log record, and before an edit recording tables is logged.
     *
     * @throws IOException if syncing fails
     */
    void sync() throws IOException {
        List<SwitchedOut> full;
        lock.lock();
        try {
            requireUsable();
            full = new ArrayList<>(switchedOut);
        } finally {
            lock.unlock();
        }
        // Outside the lock, so that writers append to the current file meanwhile.
        IOException failed = null;
        for (SwitchedOut file : full) {
            try {
                file.syncAndClose();
            } catch (IOException e) {
                failed = e;
                break;
            }
        }
        lock.lock();
        try {
            if (failed != null) {
                throw recordFailure(failed);
            }
            // The files synced above are done; any that filled meanwhile are synced here.
            while (!switchedOut.isEmpty()) {
                finish(switchedOut.removeFirst());
            }
            syncCurrent();
        } finally {
            lock.unlock();
        }
    }

    /** The rest of {@link #sync}: the current file, recovered logs' files, the directory. */
    @GuardedBy("lock")
    private void syncCurrent() throws IOException {
        requireUsable();
        if (writer != null) {
            writer.sync();
        }
        for (var it = recoveredUnsynced.iterator(); it.hasNext(); ) {
            Path path = files.path(it.next());
            if (env.fileExists(path)) {
                ValueFiles.sync(env, path);
            }
            it.remove();
        }
        if (directoryUnsynced) {
            env.syncDir(dir);
            directoryUnsynced = false;
        }
    }

    /**
     * Reads a separated value, checking its record's checksum only when asked to.
     *
     * @param encodedReference a reference's encoding
     * @param verifyChecksum whether to check the checksum
     * @return the value, in a new array
     */
    byte[] read(byte[] encodedReference, boolean verifyChecksum) {
        return files.read(ValueReference.decode(encodedReference, 0, encodedReference.length), verifyChecksum);
    }

    /**
     * Lends a separated value to an iterator, in place, checking its record's checksum only when
     * asked to.
     *
     * @param encodedReference a reference's encoding (not moved)
     * @param verifyChecksum whether to check the checksum
     * @return the value, valid until its release runs
     */
    LentValue lend(ByteBuffer encodedReference, boolean verifyChecksum) {
        return files.lend(ValueReference.decode(encodedReference), verifyChecksum);
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

    @Override
    public void close() throws IOException {
        lock.lock();
        try {
            closeLocked();
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void closeLocked() throws IOException {
        if (failure == null) {
            failure = new IOException("value log closed");
        }
        try {
            IOException syncFailure = null;
            while (!switchedOut.isEmpty()) {
                try {
                    finish(switchedOut.removeFirst());
                } catch (IOException e) {
                    syncFailure = syncFailure == null ? e : syncFailure;
                }
            }
            if (writer != null) {
                writer.close();
                writer = null;
            }
            if (syncFailure != null) {
                throw syncFailure;
            }
        } finally {
            files.close();
        }
    }

    /** Copies a group into {@link #separated}, moving large values to the value file. */
    private final class SeparatingHandler implements WriteBatchImpl.Handler {
        IOException failure;
        boolean any;
        /** The references handed out for the group, until {@link #releaseSeparated}. */
        final List<byte[]> appended = new ArrayList<>();

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
            appended.add(encoded);
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

    /** Notes a value file a recovered log refers to, for {@link #sync}. */
    private void recoveredFile(long number) {
        lock.lock();
        try {
            recoveredUnsynced.add(number);
        } finally {
            lock.unlock();
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
            if (size >= 0) {
                recoveredFile(ref.fileNumber());
            }
            if (size < ref.end()) {
                problem = "value reference to " + path + " offset " + ref.offset() + " (" + ref.recordSize()
                        + " bytes) " + (size < 0 ? "in a missing file" : "past the file's end (" + size + " bytes)");
            }
        }
    }
}
