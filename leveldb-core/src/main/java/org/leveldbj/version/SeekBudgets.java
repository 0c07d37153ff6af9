package org.leveldbj.version;

import java.util.HashMap;
import java.util.Map;

/**
 * How many more seeks each table file may cause before it is compacted (C++ allowed_seeks):
 * one seek costs about as much as compacting 16 KiB, so a file gets {@code max(100, size /
 * 16384)} seeks. Shared by every version of a version set, so a file keeps its budget across
 * versions.
 *
 * <p>Thread safety: all methods are synchronized on this object.
 */
final class SeekBudgets {
    /** Bytes of compaction work one seek is worth. */
    static final long BYTES_PER_SEEK = 16384;
    /** The smallest budget a file gets. */
    static final int MIN_SEEKS = 100;

    private final Map<Long, Integer> remaining = new HashMap<>();

    /**
     * The initial budget of a file.
     *
     * @param f the file
     * @return the number of seeks allowed
     */
    static int initialBudget(FileMetaData f) {
        return (int) Math.max(MIN_SEEKS, Math.min(Integer.MAX_VALUE, f.fileSize() / BYTES_PER_SEEK));
    }

    /**
     * Charges one seek to a file.
     *
     * @param f the file
     * @return {@code true} when this charge used up its budget
     */
    synchronized boolean charge(FileMetaData f) {
        int left = remaining.getOrDefault(f.number(), initialBudget(f)) - 1;
        remaining.put(f.number(), left);
        return left == 0;
    }

    /**
     * Forgets a file that left the database.
     *
     * @param number the file number
     */
    synchronized void forget(long number) {
        remaining.remove(number);
    }
}
