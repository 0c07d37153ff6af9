package org.iq80.leveldb;

import java.io.File;
import java.util.Arrays;

/**
 * What a {@link TableWriter} wrote: the file, its size, its entry count and its first and last
 * keys. An extension of the 0.12 API.
 *
 * <p>Immutable.
 */
public final class TableFileInfo {
    private final File file;
    private final long fileSize;
    private final long entries;
    private final byte[] smallestKey;
    private final byte[] largestKey;

    /**
     * Describes a table file (the engine's writer makes these).
     *
     * @param file the table file
     * @param fileSize its size in bytes
     * @param entries the puts and deletions it holds
     * @param smallestKey its first key
     * @param largestKey its last key
     */
    public TableFileInfo(File file, long fileSize, long entries, byte[] smallestKey, byte[] largestKey) {
        this.file = file;
        this.fileSize = fileSize;
        this.entries = entries;
        this.smallestKey = smallestKey.clone();
        this.largestKey = largestKey.clone();
    }

    /**
     * The table file.
     *
     * @return the table file
     */
    public File file() {
        return file;
    }

    /**
     * The file's size in bytes.
     *
     * @return its size in bytes
     */
    public long fileSize() {
        return fileSize;
    }

    /**
     * The number of puts and deletions it holds.
     *
     * @return the number of puts and deletions it holds
     */
    public long entries() {
        return entries;
    }

    /**
     * A copy of the file's first key.
     *
     * @return a copy of its first key
     */
    public byte[] smallestKey() {
        return smallestKey.clone();
    }

    /**
     * A copy of the file's last key.
     *
     * @return a copy of its last key
     */
    public byte[] largestKey() {
        return largestKey.clone();
    }

    @Override
    public String toString() {
        return "TableFileInfo[" + file + ", " + entries + " entries, " + fileSize + " bytes, keys "
                + Arrays.toString(smallestKey) + ".." + Arrays.toString(largestKey) + "]";
    }
}
