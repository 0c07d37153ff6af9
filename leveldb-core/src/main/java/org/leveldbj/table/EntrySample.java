package org.leveldbj.table;

/**
 * The entries of one data block of a table and the bytes the block takes in the file: a density
 * to estimate the entries of a table that records no counts ({@link Table#sampleEntries()}).
 *
 * @param counts the block's entries and deletions
 * @param bytes the block's size in the file, trailer included (at least 1)
 */
public record EntrySample(EntryCounts counts, long bytes) {
    /**
     * Checks the sample.
     *
     * @param counts the block's counts
     * @param bytes the block's size in the file
     */
    public EntrySample {
        if (counts == null) {
            throw new NullPointerException("counts");
        }
        if (bytes < 1) {
            throw new IllegalArgumentException("a sampled block has bytes: " + bytes);
        }
    }
}
