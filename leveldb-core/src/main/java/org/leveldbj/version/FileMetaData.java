package org.leveldbj.version;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.leveldbj.key.InternalKeys;

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
 * <p>Thread safety: immutable apart from the budget, which is charged atomically (the key arrays
 * are not copied; do not modify them).
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
