package org.leveldbj.compaction;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.iterator.MergingIterator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionSet;

/**
 * Runs a {@link Compaction}: merges its inputs, drops the entries no reader can see any more,
 * and writes the rest to new tables of the next level, closed at the target file size or when
 * they overlap too many grandparent bytes. The result is recorded in the compaction's edit
 * (outputs added; the caller adds the input deletions and applies the edit). Each output is
 * synced on a helper thread while the next is written ({@link OutputSyncs}); the job returns
 * once all are synced and their directory too.
 *
 * <p>Drop rules, as in C++ LevelDB, with S the smallest sequence number a snapshot or the
 * current state may read: an entry is dropped when a newer entry of the same user key with a
 * sequence number at most S precedes it (no reader can see past that one); a deletion marker
 * with a sequence number at most S is dropped when no deeper level can hold its user key.
 *
 * <p>Compaction filter ({@link Context#filter()}): the newest value of a user key in the inputs
 * is offered to the filter when no open snapshot reads it (its sequence number is above
 * {@link Context#newestSnapshot()}); removing it turns it into a deletion marker of the
 * same sequence number, to which the deletion rule above then applies (dropped where no deeper
 * level holds the key), and every older entry of the key below it is dropped as shadowed when
 * at most S; replacing it writes the new value (separated when {@link Context#storeReplacement}
 * says so). The filter's exception becomes a {@link CompactionFilterFailure}, and the outputs
 * written so far are deleted.
 *
 * <p>Thread safety: confined to the thread running the database's background step; requires the database lock NOT held
 * (the context takes it when it needs it).
 */
public final class CompactionJob {
    /** What the job needs from the database while it runs. */
    public interface Context {
        /**
         * Allocates an output file number and protects the file from deletion until the edit
         * naming it is applied.
         *
         * @return the number
         */
        long newOutputFileNumber();

        /**
         * Flushes a waiting immutable memtable first: flushes are more urgent than compactions.
         *
         * @return the nanoseconds the flush took, 0 when there was none
         */
        long maybeFlushImmutable();

        /**
         * Tells whether the database is closing; the job then stops early.
         *
         * @return {@code true} when closing
         */
        boolean shuttingDown();

        /**
         * Moves a separated value out of a value file being reclaimed: the value is copied to
         * the current value file and the new reference returned.
         *
         * @param internalKey the entry's key (not moved)
         * @param reference the entry's value, a reference's encoding (not moved)
         * @return the new reference's encoding, or {@code null} to keep the entry as it is
         */
        default byte[] relocate(ByteBuffer internalKey, ByteBuffer reference) {
            return null;
        }

        /**
         * For a database being turned back into plain LevelDB format: the value a separated
         * entry refers to, which the compaction then writes in the table as a plain value.
         *
         * @param reference the entry's value, a reference's encoding (not moved)
         * @return the value, or {@code null} to keep the entry as it is
         */
        default byte[] inline(ByteBuffer reference) {
            return null;
        }

        /**
         * The application's compaction filter.
         *
         * @return the filter, or {@code null} for none
         */
        default CompactionFilter filter() {
            return null;
        }

        /**
         * The newest open snapshot's sequence number, read when the compaction starts: the
         * compaction filter decides only about entries above it, which no open snapshot reads.
         *
         * @return the sequence number, or {@code -1} when no snapshot is open
         */
        default long newestSnapshot() {
            return -1;
        }

        /**
         * Reads a separated value for the compaction filter.
         *
         * @param reference the entry's value, a reference's encoding (not moved)
         * @return the value
         * @throws CorruptionException if the value cannot be read (the entry is then kept unfiltered)
         */
        default byte[] readSeparated(ByteBuffer reference) {
            throw new CorruptionException("separated values are not readable here");
        }

        /**
         * Stores a value the compaction filter put in place of another: in a value file when it
         * reaches the database's value threshold.
         *
         * @param internalKey the entry's key (not moved)
         * @param value the new value
         * @return the encoding of the new value's reference, or {@code null} to write the value
         *     in the table
         */
        default byte[] storeReplacement(ByteBuffer internalKey, byte[] value) {
            return null;
        }
    }

    private final Env env;
    private final Path dbDir;
    /** Whether output tables are named {@code .sst} rather than {@code .ldb}. */
    private final boolean sst;
    private final VersionSet vset;
    private final TableOptions tableOptions;
    private final TableReadOptions readOptions;
    private final Context context;
    /** What the filter decided in the last run (the running step's thread only). */
    private FilterCounts lastFilterCounts = FilterCounts.NONE;

    /**
     * Creates a job runner.
     *
     * @param env the environment
     * @param dbDir the database directory
     * @param sst whether output tables are named {@code .sst} rather than {@code .ldb}
     * @param vset the version set (comparator, table source)
     * @param tableOptions how outputs are written
     * @param readOptions how inputs are read (checksums when paranoid; never filling the cache)
     * @param context the database's services
     */
    public CompactionJob(Env env, Path dbDir, boolean sst, VersionSet vset, TableOptions tableOptions,
                         TableReadOptions readOptions, Context context) {
        this.env = env;
        this.dbDir = dbDir;
        this.sst = sst;
        this.vset = vset;
        this.tableOptions = tableOptions;
        this.readOptions = readOptions;
        this.context = context;
    }

    /**
     * Runs the compaction.
     *
     * @param c the compaction
     * @param smallestSnapshot the oldest sequence number any reader may read at
     * @return the work done
     * @throws IOException if reading or writing fails; outputs written so far are deleted
     * @throws DBException if the database shut down during the compaction
     */
    public CompactionStats run(Compaction c, long smallestSnapshot) throws IOException {
        return run(c, smallestSnapshot, true);
    }

    /**
     * Runs a compaction, as {@link #run(Compaction, long)} does; separated values are counted,
     * moved or written back only in a database marked for them.
     *
     * @param c the compaction
     * @param smallestSnapshot the oldest sequence number a reader may still ask for
     * @param separated whether the database may hold references to separated values
     * @return what the compaction did
     * @throws IOException if reading an input or writing an output fails
     * @throws DBException if the database shut down during the compaction
     */
    public CompactionStats run(Compaction c, long smallestSnapshot, boolean separated) throws IOException {
        long start = System.nanoTime();
        long flushNanos = 0; // memtable flushes done meanwhile: counted as level 0's, not this compaction's
        KeyComparator ucmp = vset.icmp().userComparator();
        OutputSyncs syncs = new OutputSyncs();
        List<FileMetaData> outputs = List.of();
        TableFileWriter out = null;
        byte[] currentUserKey = new byte[64];
        ByteBuffer currentUserKeyView = ByteBuffer.wrap(currentUserKey);
        int currentUserKeyLength = 0;
        boolean hasCurrentUserKey = false;
        long lastSequenceForKey = InternalKeys.MAX_SEQUENCE + 1;
        SettledDeletions settled = new SettledDeletions(c, vset.tables());
        CompactionFilter filter = context.filter();
        long filterAbove = filter != null ? context.newestSnapshot() : -1;
        long filterAsked = 0;
        long filterRemoved = 0;
        long filterReplaced = 0;
        lastFilterCounts = FilterCounts.NONE;
        boolean ok = false;
        try (SortedIterator input = inputIterator(c)) {
            input.seekToFirst();
            while (input.valid()) {
                if (context.shuttingDown()) {
                    throw new DBException("database is closing: compaction abandoned");
                }
                flushNanos += context.maybeFlushImmutable();
                ByteBuffer key = input.key();
                if (separated) {
                    // Every input entry leaves with its table; those kept are counted again below.
                    c.edit().countValueReference(key, input.value(), -1);
                }
                if (finishOutputBefore(c, key, out != null)) {
                    settled.flush(out);
                    syncs.submit(out);
                    out = null;
                }
                boolean drop = false;
                int length = key.remaining();
                long trailer = length >= InternalKeys.TRAILER_SIZE ? InternalKeys.trailer(key, key.position(), length) : -1;
                int type = InternalKeys.typeByte(trailer);
                if (trailer == -1 || ValueType.fromPersistentId(type) == null) {
                    // A corrupt key: keep it, and do not let it hide anything.
                    hasCurrentUserKey = false;
                    lastSequenceForKey = InternalKeys.MAX_SEQUENCE + 1;
                    settled.newKey(out);
                } else {
                    int userLength = length - InternalKeys.TRAILER_SIZE;
                    if (!hasCurrentUserKey || ucmp.compare(key, key.position(), userLength,
                            currentUserKeyView, 0, currentUserKeyLength) != 0) {
                        if (currentUserKey.length < userLength) {
                            currentUserKey = new byte[Math.max(userLength, currentUserKey.length * 2)];
                            currentUserKeyView = ByteBuffer.wrap(currentUserKey);
                        }
                        key.get(key.position(), currentUserKey, 0, userLength);
                        currentUserKeyLength = userLength;
                        hasCurrentUserKey = true;
                        lastSequenceForKey = InternalKeys.MAX_SEQUENCE + 1;
                        settled.newKey(out);
                    }
                    long sequence = InternalKeys.sequence(trailer);
                    ByteBuffer filteredValue = null;
                    if (lastSequenceForKey <= smallestSnapshot) {
                        drop = true; // shadowed by a newer entry every reader sees
                        if (type != ValueType.DELETION.persistentId()) {
                            settled.droppedValue(out);
                        }
                    } else if (filter != null && lastSequenceForKey == InternalKeys.MAX_SEQUENCE + 1
                            && sequence > filterAbove
                            && (type == ValueType.VALUE.persistentId() || type == ValueType.VALUE_REFERENCE.persistentId())) {
                        // The newest entry of the key, which no open snapshot reads: the filter's to decide.
                        byte[] userKey = java.util.Arrays.copyOf(currentUserKey, currentUserKeyLength);
                        byte[] value = filterInput(type, input.value());
                        if (value != null) {
                            filterAsked++;
                            CompactionFilter.Decision decision = decide(filter, c.level() + 1, userKey, value);
                            if (decision == CompactionFilter.Decision.REMOVE) {
                                filterRemoved++;
                                key = retyped(key, ValueType.DELETION);
                                type = ValueType.DELETION.persistentId();
                                filteredValue = ByteBuffer.allocate(0);
                            } else if (decision != CompactionFilter.Decision.KEEP) {
                                filterReplaced++;
                                byte[] replacement = decision.replacement();
                                byte[] reference = separated ? context.storeReplacement(key, replacement) : null;
                                ValueType newType = reference != null ? ValueType.VALUE_REFERENCE : ValueType.VALUE;
                                key = retyped(key, newType);
                                type = newType.persistentId();
                                filteredValue = ByteBuffer.wrap(reference != null ? reference : replacement);
                            }
                        }
                    }
                    if (!drop && type == ValueType.DELETION.persistentId() && sequence <= smallestSnapshot
                            && isBaseLevelForKey(c, currentUserKeyView, currentUserKeyLength)) {
                        drop = true; // nothing older below to hide, and no reader sees older data here
                    }
                    lastSequenceForKey = sequence;
                    if (!drop && filteredValue != null) {
                        if (out == null) {
                            out = newOutput(c);
                        }
                        out.add(key, filteredValue);
                        settled.kept(type == ValueType.DELETION.persistentId(), out);
                        if (separated) {
                            c.edit().countValueReference(key, filteredValue, 1);
                        }
                        if (out.fileSize() >= c.maxOutputFileSize()) {
                            settled.flush(out);
                            syncs.submit(out);
                            out = null;
                        }
                        drop = true; // written: the general path below is for entries as they came
                    }
                }
                if (!drop) {
                    if (out == null) {
                        out = newOutput(c);
                    }
                    ByteBuffer value = input.value();
                    if (separated && type == ValueType.VALUE_REFERENCE.persistentId()) {
                        byte[] inlined = context.inline(value);
                        if (inlined != null) {
                            // The same entry as a plain value: only the type byte changes.
                            byte[] plain = new byte[length];
                            key.get(key.position(), plain);
                            plain[length - InternalKeys.TRAILER_SIZE] = (byte) ValueType.VALUE.persistentId();
                            key = ByteBuffer.wrap(plain);
                            value = ByteBuffer.wrap(inlined);
                        } else {
                            byte[] moved = context.relocate(key, value);
                            if (moved != null) {
                                value = ByteBuffer.wrap(moved);
                            }
                        }
                    }
                    out.add(key, value);
                    if (hasCurrentUserKey) {
                        settled.kept(type == ValueType.DELETION.persistentId(), out);
                    }
                    if (separated) {
                        c.edit().countValueReference(key, value, 1);
                    }
                    if (out.fileSize() >= c.maxOutputFileSize()) {
                        settled.flush(out);
                        syncs.submit(out);
                        out = null;
                    }
                }
                input.next();
            }
            if (out != null) {
                settled.flush(out);
                syncs.submit(out);
                out = null;
            }
            lastFilterCounts = new FilterCounts(filterAsked, filterRemoved, filterReplaced);
            outputs = syncs.awaitAll();
            if (!outputs.isEmpty()) {
                // One directory sync for every output: their names are durable before the
                // MANIFEST that names them is written.
                env.syncDir(dbDir);
            }
            ok = true;
        } finally {
            if (out != null) {
                out.abandon();
            }
            if (!ok) {
                syncs.abandon(this::deleteQuietly);
            }
        }
        long written = 0;
        for (FileMetaData f : outputs) {
            c.edit().addFile(c.level() + 1, f);
            written += f.fileSize();
        }
        long read = Version.totalFileSize(c.inputs(0)) + Version.totalFileSize(c.inputs(1));
        return new CompactionStats((System.nanoTime() - start - flushNanos) / 1000, read, written);
    }

    /**
     * Starts an output table, which samples its live keys in the levels below the output level
     * ({@link TableFileWriter#sampleNovelty}): the data older than the compaction's inputs.
     */
    private TableFileWriter newOutput(Compaction c) throws IOException {
        TableFileWriter out = new TableFileWriter(env, dbDir, context.newOutputFileNumber(), sst, tableOptions,
                vset.tables());
        out.sampleNovelty(new OlderData(c.inputVersion(), c.level() + 2), expectedEntriesPerOutput(c));
        return out;
    }

    /**
     * About how many entries an output of a compaction holds: the inputs' entries per byte (from
     * their counts, 100 bytes an entry where none are known) times the output file size, at most
     * every input entry.
     */
    private static long expectedEntriesPerOutput(Compaction c) {
        long entries = 0;
        long bytes = 0;
        for (int which = 0; which < 2; which++) {
            for (FileMetaData f : c.inputs(which)) {
                EntryCounts counts = f.entryCounts();
                entries += counts != null ? counts.entries() : f.fileSize() / 100;
                bytes += f.fileSize();
            }
        }
        if (bytes == 0) {
            return 0;
        }
        return Math.min(entries, (long) ((double) entries / bytes * c.maxOutputFileSize()));
    }

    /** @return what the filter decided in the last run ({@link FilterCounts#NONE} without a filter) */
    public FilterCounts lastFilterCounts() {
        return lastFilterCounts;
    }

    /**
     * The value the filter is shown: the entry's own, or a separated one read from its value
     * file; {@code null} when that cannot be read (the entry is then kept as it is, and the read
     * error meets its readers).
     */
    private byte[] filterInput(int type, ByteBuffer value) {
        if (type == ValueType.VALUE_REFERENCE.persistentId()) {
            try {
                return context.readSeparated(value);
            } catch (CorruptionException e) {
                return null;
            }
        }
        byte[] copy = new byte[value.remaining()];
        value.get(value.position(), copy);
        return copy;
    }

    /** Asks the filter, turning what it throws (or a null answer) into a {@link CompactionFilterFailure}. */
    private static CompactionFilter.Decision decide(CompactionFilter filter, int level, byte[] key, byte[] value) {
        CompactionFilter.Decision decision;
        try {
            decision = filter.filter(level, key.clone(), value);
        } catch (RuntimeException e) {
            throw new CompactionFilterFailure(filterName(filter), level, key, e);
        }
        if (decision == null) {
            throw new CompactionFilterFailure(filterName(filter), level, key, null);
        }
        return decision;
    }

    private static String filterName(CompactionFilter filter) {
        try {
            return filter.name();
        } catch (RuntimeException e) {
            return filter.getClass().getName();
        }
    }

    /** A copy of an internal key with another type (the type is the trailer's low byte). */
    private static ByteBuffer retyped(ByteBuffer key, ValueType type) {
        int length = key.remaining();
        byte[] copy = new byte[length];
        key.get(key.position(), copy);
        copy[length - InternalKeys.TRAILER_SIZE] = (byte) type.persistentId();
        return ByteBuffer.wrap(copy);
    }

    /** Asks the compaction about a user key held in the first {@code length} bytes of a view. */
    private static boolean isBaseLevelForKey(Compaction c, ByteBuffer view, int length) {
        view.limit(length).position(0);
        try {
            return c.isBaseLevelForKey(view);
        } finally {
            view.clear(); // later comparisons read it by absolute index, up to its capacity
        }
    }

    /**
     * Whether the output being written must be finished before a key because it would overlap
     * too much of the grandparent level. The compaction is asked for every key, whether an
     * output is open or not (as C++ LevelDB does), so that its overlap count follows the whole
     * input and restarts with each output.
     *
     * @param c the compaction
     * @param key the next key
     * @param outputOpen whether an output file is being written
     * @return {@code true} to finish the open output before {@code key}
     */
    static boolean finishOutputBefore(Compaction c, ByteBuffer key, boolean outputOpen) {
        return c.shouldStopBefore(key) && outputOpen;
    }

    /**
     * The merged entries of every input file. A level-0 input gets a level iterator of its one
     * file, as a read's merge gives it (see {@link Version#addIterators}), so that the merge's
     * calls on its children meet one class here and at most two in reads.
     */
    private SortedIterator inputIterator(Compaction c) {
        List<SortedIterator> children = new ArrayList<>();
        try {
            for (int which = 0; which < 2; which++) {
                List<FileMetaData> files = c.inputs(which);
                if (files.isEmpty()) {
                    continue;
                }
                if (c.level() + which == 0) {
                    for (FileMetaData f : files) {
                        children.add(c.inputVersion().levelIterator(List.of(f), readOptions));
                    }
                } else {
                    children.add(c.inputVersion().levelIterator(files, readOptions));
                }
            }
        } catch (RuntimeException e) {
            children.forEach(SortedIterator::close);
            throw e;
        }
        return MergingIterator.of(vset.icmp(), children);
    }

    private void deleteQuietly(long number) {
        try {
            env.deleteFile(dbDir.resolve(org.leveldbj.filename.FileNames.tableFileName(number, sst)));
        } catch (IOException ignored) {
            // the next obsolete-file sweep removes it
        }
    }
}
