package org.leveldbj.vlog;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.leveldbj.util.Crc32c;

/**
 * The CRC32C of every prefix of a file, each found with a read of fewer than {@value #STEP}
 * bytes: the checksums of the prefixes that end at multiples of {@value #STEP} are computed once,
 * in one pass over the file, and any other prefix is extended from the one below it with
 * {@link Crc32c#combine}. The checksum of bytes {@code [a, b)} is then
 * {@link Crc32c#ofTail}{@code (prefix(a), prefix(b), b - a)}: checking a candidate record costs
 * the same whatever length its header announces, which lets {@link ValueFileScanner} try every
 * offset after damage.
 *
 * <p>Memory: four bytes per {@value #STEP} bytes of file (1 MiB for a 64 MiB file).
 *
 * <p>Thread safety: confined to one thread, as its {@link Reader} is.
 */
final class PrefixChecksums {
    /** The distance between two stored prefix checksums. */
    static final int STEP = 256;
    /** How much of the file the first pass reads at once (a multiple of {@link #STEP}). */
    private static final int CHUNK = 4096 * STEP;

    /** Reads bytes of the file. */
    interface Reader {
        /**
         * Reads {@code length} bytes at {@code offset}, fewer only at the end of the file.
         *
         * @param offset where to start
         * @param length how many bytes
         * @return a buffer whose remaining bytes are those read
         */
        ByteBuffer read(long offset, int length);
    }

    private final Reader reader;
    private final long size;
    /** {@code atStep[i]} is the checksum of the file's first {@code i * STEP} bytes. */
    private final int[] atStep;

    /**
     * Reads the whole file once.
     *
     * @param reader reads the file
     * @param size the file's size
     */
    PrefixChecksums(Reader reader, long size) {
        this.reader = reader;
        this.size = size;
        this.atStep = new int[Math.toIntExact(size / STEP + 1)];
        CRC32C crc = new CRC32C();
        int step = 1;
        for (long at = 0; at < size; at += CHUNK) {
            ByteBuffer chunk = reader.read(at, (int) Math.min(CHUNK, size - at));
            while (chunk.remaining() >= STEP) {
                crc.update(chunk.slice(chunk.position(), STEP));
                chunk.position(chunk.position() + STEP);
                atStep[step++] = (int) crc.getValue();
            }
        }
    }

    /**
     * The checksum of the bytes between two offsets.
     *
     * <p>Requires: {@code 0 <= from <= to <= size}.
     *
     * @param from the first byte
     * @param to the offset just past the last byte
     * @return the CRC32C (unmasked) of {@code [from, to)}
     */
    int of(long from, long to) {
        assert 0 <= from && from <= to && to <= size : from + ".." + to + " of " + size;
        return Crc32c.ofTail(prefix(from), prefix(to), to - from);
    }

    /**
     * The checksum of the file's first bytes.
     *
     * <p>Requires: {@code 0 <= length <= size}.
     *
     * @param length how many bytes
     * @return the CRC32C (unmasked) of {@code [0, length)}
     */
    int prefix(long length) {
        assert 0 <= length && length <= size : length + " of " + size;
        int step = (int) (length / STEP);
        int rest = (int) (length - (long) step * STEP);
        if (rest == 0) {
            return atStep[step];
        }
        ByteBuffer tail = reader.read((long) step * STEP, rest);
        return Crc32c.combine(atStep[step], Crc32c.value(tail, tail.position(), tail.remaining()), rest);
    }
}
