package org.leveldbj.version;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Objects;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.table.EntrySample;

/**
 * What the MANIFEST records of one table file: its number, size and key range; and, in memory
 * only, how many more lookups may read past it before it is compacted (its seek budget, C++
 * LevelDB's {@code allowed_seeks}).
 *
 * <p>The budget starts at one seek per {@value #BYTES_PER_SEEK} bytes of file, at least
 * {@value #MIN_SEEKS}: reading past a file costs about as much as compacting that many bytes of
 * it. Versions share the objects of the files they have in common, so the budget follows the
 * file from version to version; an edit that adds a file brings a new object with a full budget.
 *
 * <p>Also in memory only: the table's entry counts once known, given by the writer that made the
 * table in this process or read from its stats block the first time they are asked for
 * ({@code leveldb.approximate-num-entries}), so that each table is read for them at most once
 * while the database is open; for a table that records none, the sample of one of its data blocks.
 *
 * <p>Thread safety: immutable apart from the budget, which is charged atomically, and the counts
 * and sample, each set at most once in effect (racing setters store equal values) and read
 * through volatile fields (the key arrays are not copied; do not modify them).
 */
public final class FileMetaData {
    /** Bytes of file that one seek is worth. */
    static final long BYTES_PER_SEEK = 16384;
    /** The smallest budget, whatever the file's size. */
    static final int MIN_SEEKS = 100;

    private static final VarHandle SEEKS_LEFT;

    static {
        try {
            SEEKS_LEFT = MethodHandles.lookup().findVarHandle(FileMetaData.class, "seeksLeft", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long number;
    private final long fileSize;
    private final byte[] smallest;
    private final byte[] largest;
    @SuppressWarnings("unused") // accessed through SEEKS_LEFT
    private volatile int seeksLeft;
    /** The table's counts once known, else {@code null}. */
    private volatile EntryCounts entryCounts;
    /** Set once the table turned out to record no counts (no stats block, or a damaged one). */
    private volatile boolean entryCountsUnavailable;
    /** For a table without counts: one data block's density, once sampled. */
    private volatile EntrySample entrySample;

    /**
     * Describes a table file.
     *
     * @param number the file number ({@code NNNNNN.sst} or {@code .ldb})
     * @param fileSize the file's length in bytes
     * @param smallest the smallest internal key in the file
     * @param largest the largest internal key in the file
     */
    public FileMetaData(long number, long fileSize, byte[] smallest, byte[] largest) {
        this.number = number;
        this.fileSize = fileSize;
        this.smallest = smallest;
        this.largest = largest;
        this.seeksLeft = (int) Math.max(MIN_SEEKS, Math.min(Integer.MAX_VALUE, fileSize / BYTES_PER_SEEK));
    }

    /**
     * Describes a table file whose entry counts are known (its writer counted them).
     *
     * @param number the file number
     * @param fileSize the file's length in bytes
     * @param smallest the smallest internal key in the file
     * @param largest the largest internal key in the file
     * @param entryCounts the table's entries and deletions
     */
    public FileMetaData(long number, long fileSize, byte[] smallest, byte[] largest, EntryCounts entryCounts) {
        this(number, fileSize, smallest, largest);
        this.entryCounts = entryCounts;
    }

    /** @return the file number */
    public long number() {
        return number;
    }

    /** @return the file's length in bytes */
    public long fileSize() {
        return fileSize;
    }

    /** @return the smallest internal key in the file */
    public byte[] smallest() {
        return smallest;
    }

    /** @return the largest internal key in the file */
    public byte[] largest() {
        return largest;
    }

    /**
     * The table's entry counts, if known.
     *
     * @return the counts, or {@code null}: not asked for yet, or the table records none
     *     ({@link #entryCountsUnavailable()})
     */
    public EntryCounts entryCounts() {
        return entryCounts;
    }

    /**
     * Records the counts read from the table's stats block.
     *
     * @param counts the counts
     */
    public void setEntryCounts(EntryCounts counts) {
        this.entryCounts = Objects.requireNonNull(counts, "counts");
    }

    /**
     * Whether the table was found to record no counts; then {@link #entrySample()} may hold a
     * sample of it.
     *
     * @return {@code true} once {@link #markEntryCountsUnavailable()} was called
     */
    public boolean entryCountsUnavailable() {
        return entryCountsUnavailable;
    }

    /** Notes that the table records no counts (no stats block, or a damaged one). */
    public void markEntryCountsUnavailable() {
        this.entryCountsUnavailable = true;
    }

    /**
     * The sample of one data block of a table that records no counts.
     *
     * @return the sample, or {@code null} if none was taken
     */
    public EntrySample entrySample() {
        return entrySample;
    }

    /**
     * Keeps the sample of one of the table's data blocks.
     *
     * @param sample the sample
     */
    public void setEntrySample(EntrySample sample) {
        this.entrySample = Objects.requireNonNull(sample, "sample");
    }

    /**
     * Charges one seek to the budget.
     *
     * @return {@code true} once the budget is spent (by this charge or an earlier one)
     */
    boolean chargeSeek() {
        return (int) SEEKS_LEFT.getAndAdd(this, -1) <= 1;
    }

    /** @return the seeks left before the file is due for compaction (may be negative) */
    int seeksLeft() {
        return seeksLeft;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FileMetaData f && number == f.number && fileSize == f.fileSize
                && Arrays.equals(smallest, f.smallest) && Arrays.equals(largest, f.largest);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(number) * 31 + Long.hashCode(fileSize);
    }

    @Override
    public String toString() {
        return "#" + number + " " + fileSize + " bytes [" + InternalKeys.toString(smallest) + " .. "
                + InternalKeys.toString(largest) + "]";
    }
}
