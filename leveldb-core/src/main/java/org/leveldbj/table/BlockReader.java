package org.leveldbj.table;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.util.Coding;
import org.leveldbj.util.Crc32c;

/**
 * Reads one block and its 5-byte trailer from a table file, checks the trailer's checksum when
 * asked to, and undoes the compression the trailer's type byte names.
 *
 * <p>Uncompressed blocks are returned as the buffer the file gave (no copy): a view of the
 * mapping for a memory-mapped file, or the fresh heap buffer of a positional read.
 *
 * <p>Errors name the file and the block's offset: {@code "truncated block read"} when the block
 * and trailer do not fit in the file, {@code "block checksum mismatch"}, and the decompressor's
 * reports. An I/O failure becomes a {@link DBException} naming the file.
 *
 * <p>Thread safety: stateless; the file must allow concurrent reads, as every
 * {@link Env.RandomAccessFile} does.
 */
public final class BlockReader {
    /** The size of the trailer after every block: type byte and masked CRC32C. */
    public static final int TRAILER_SIZE = 5;

    private BlockReader() {
    }

    /**
     * Reads a block.
     *
     * @param file the table file
     * @param fileName the name used in error reports
     * @param handle where the block is
     * @param verifyChecksum whether to check the trailer's CRC32C
     * @return the block's uncompressed bytes
     * @throws CorruptionException if the block is truncated, damaged or of unknown type
     * @throws DBException if reading fails
     */
    public static BlockContents read(Env.RandomAccessFile file, String fileName, BlockHandle handle,
                                     boolean verifyChecksum) {
        return read(file, fileName, handle, verifyChecksum, null);
    }

    /**
     * Reads a block as {@link #read(Env.RandomAccessFile, String, BlockHandle, boolean)} does, but
     * decompresses into a caller's array when the block fits in it: for a block that is read,
     * used and dropped, without allocating its bytes.
     *
     * @param file the table file
     * @param fileName the name used in error reports
     * @param handle where the block is
     * @param verifyChecksum whether to check the trailer's CRC32C
     * @param into the array to decompress into, or {@code null}; the caller must not reuse it
     *     while it reads the block
     * @return the block's uncompressed bytes; {@link BlockContents#cachable()} is {@code false}
     *     when they lie in {@code into}
     * @throws CorruptionException if the block is truncated, damaged or of unknown type
     * @throws DBException if reading fails
     */
    public static BlockContents read(Env.RandomAccessFile file, String fileName, BlockHandle handle,
                                     boolean verifyChecksum, byte[] into) {
        return decode(readStored(file, fileName, handle), file.isMapped(), fileName, handle.offset(), verifyChecksum,
                into);
    }

    /**
     * Reads a block and its trailer as stored, unchecked: the first step of
     * {@link #read(Env.RandomAccessFile, String, BlockHandle, boolean, byte[])}, for a caller that
     * decides how to {@link #decode} by {@link #isCompressed whether it is compressed}.
     *
     * @param file the table file
     * @param fileName the name used in error reports
     * @param handle where the block is
     * @return a read-only buffer whose remaining bytes are the block, then its trailer
     * @throws CorruptionException if the block and trailer do not fit in the file
     * @throws DBException if reading fails
     */
    public static ByteBuffer readStored(Env.RandomAccessFile file, String fileName, BlockHandle handle) {
        long offset = handle.offset();
        long size = handle.size();
        if (size > Integer.MAX_VALUE - TRAILER_SIZE
                || offset > file.size() || size + TRAILER_SIZE > file.size() - offset) {
            throw new CorruptionException("truncated block read: " + size + "-byte block does not fit in a "
                    + file.size() + "-byte file", fileName, offset);
        }
        int n = (int) size;
        ByteBuffer buf;
        try {
            buf = file.read(offset, n + TRAILER_SIZE);
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + fileName + ": reading " + (n + TRAILER_SIZE)
                    + " bytes at offset " + offset + ": " + e.getMessage(), e);
        }
        if (buf.remaining() != n + TRAILER_SIZE) {
            throw new CorruptionException("truncated block read", fileName, offset);
        }
        return buf;
    }

    /**
     * Tells whether a block from {@link #readStored} is stored compressed (its trailer's type
     * is not {@link BlockCompression#NONE}), before its checksum is checked.
     *
     * @param stored the block and trailer
     * @return {@code true} when decoding it decompresses
     */
    public static boolean isCompressed(ByteBuffer stored) {
        return stored.get(stored.limit() - TRAILER_SIZE) != BlockCompression.NONE;
    }

    /**
     * Checks and decompresses a block from {@link #readStored}: the second step of
     * {@link #read(Env.RandomAccessFile, String, BlockHandle, boolean, byte[])}.
     *
     * @param buf the block and trailer
     * @param mapped whether {@code buf} is a view of a mapped file (an uncompressed block is then
     *     not {@linkplain BlockContents#cachable() cachable})
     * @param fileName the name used in error reports
     * @param offset the block's offset in the file, for error reports
     * @param verifyChecksum whether to check the trailer's CRC32C
     * @param into the array to decompress into, or {@code null}
     * @return the block's uncompressed bytes
     * @throws CorruptionException if the block is damaged or of unknown type
     */
    public static BlockContents decode(ByteBuffer buf, boolean mapped, String fileName, long offset,
                                       boolean verifyChecksum, byte[] into) {
        int p = buf.position();
        int n = buf.remaining() - TRAILER_SIZE;
        int type = buf.get(p + n) & 0xff;
        if (verifyChecksum) {
            int expected = Crc32c.unmask(Coding.getFixed32(buf, p + n + 1, p + n + TRAILER_SIZE));
            int actual = Crc32c.value(buf, p, n + 1);
            if (actual != expected) {
                throw new CorruptionException("block checksum mismatch", fileName, offset);
            }
        }
        ByteBuffer stored = buf.slice(p, n);
        if (type == BlockCompression.NONE) {
            return new BlockContents(stored.asReadOnlyBuffer(), !mapped, false);
        }
        ByteBuffer raw;
        try {
            raw = BlockCompression.decompress(type, stored, into);
        } catch (CorruptionException e) {
            throw e.at(fileName, offset);
        }
        if (into != null && raw.hasArray() && raw.array() == into) {
            return new BlockContents(raw, false, true);
        }
        // Writable so that readers may reach its array (comparisons use it); nothing writes to it.
        return new BlockContents(raw, true, true);
    }

    /**
     * Reads the compression type byte of a block's trailer, without reading the block: the
     * persistent id of {@link org.iq80.leveldb.CompressionType} the block is stored with.
     *
     * @param file the table file
     * @param fileName the name used in error reports
     * @param handle where the block is
     * @return the type byte, {@code 0} to {@code 255}
     * @throws CorruptionException if the trailer lies beyond the end of the file
     * @throws DBException if reading fails
     */
    public static int compressionType(Env.RandomAccessFile file, String fileName, BlockHandle handle) {
        long at = handle.offset() + handle.size();
        if (handle.offset() < 0 || handle.size() < 0 || at < 0 || at + TRAILER_SIZE > file.size()) {
            throw new CorruptionException("truncated block read: " + handle.size() + "-byte block does not fit in a "
                    + file.size() + "-byte file", fileName, handle.offset());
        }
        ByteBuffer b;
        try {
            b = file.read(at, 1);
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + fileName + ": reading 1 byte at offset " + at + ": " + e.getMessage(), e);
        }
        if (b.remaining() != 1) {
            throw new CorruptionException("truncated block read", fileName, handle.offset());
        }
        return b.get(b.position()) & 0xff;
    }
}
