package org.leveldbj.version;

import java.util.Arrays;
import org.leveldbj.key.InternalKeys;

/**
 * What the MANIFEST records of one table file: its number, size and key range.
 *
 * <p>Thread safety: immutable (the key arrays are not copied; do not modify them).
 *
 * @param number the file number ({@code NNNNNN.ldb})
 * @param fileSize the file's length in bytes
 * @param smallest the smallest internal key in the file
 * @param largest the largest internal key in the file
 */
public record FileMetaData(long number, long fileSize, byte[] smallest, byte[] largest) {
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
