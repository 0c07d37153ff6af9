package org.leveldbj.table;

import java.nio.ByteBuffer;

/**
 * The uncompressed bytes of a block read from a table file.
 *
 * @param data the block's bytes: the remaining bytes of a read-only buffer; a view of a
 *     memory-mapped file (valid only while the file is open) or a heap buffer
 * @param cachable {@code true} when {@code data} is a heap buffer owned by nobody else, worth
 *     keeping in a block cache; {@code false} for a view of a mapping, which costs nothing to
 *     read again
 * @param decompressed {@code true} when {@code data} were decompressed from the stored bytes,
 *     so that offsets within them are not offsets within the file
 */
public record BlockContents(ByteBuffer data, boolean cachable, boolean decompressed) {
}
