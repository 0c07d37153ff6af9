package org.leveldbj.table;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.iq80.leveldb.Env;

/**
 * Warms the bytes of a memory-mapped table that a backward scan is about to read, so that it
 * reads them from the processor's caches rather than from memory.
 *
 * <p>Why: a processor's hardware prefetchers follow a stream of ascending addresses well and a
 * descending one poorly. A forward scan reads a table's blocks one after another upwards; a
 * backward scan reads each block upwards too, but the blocks downwards, so each block's first
 * cache lines are missed in turn. Reading 64 MiB of a mapping in 2 KiB blocks took about 1.5
 * times as long block by block downwards as upwards on the reference machine, and as long as
 * upwards when each 64 KiB below the block being read was first touched once, upwards, one
 * load per cache line.
 *
 * <p>What it does: when the block about to be read ends exactly where the block read before it
 * begins (a step back to the adjacent block), and lies outside the range warmed last, it
 * touches the {@value #WINDOW} bytes ending at that block's end, upwards, one byte per
 * {@value #LINE} bytes, and remembers that range. Seeks, forward steps and reads of files that
 * are not mapped touch nothing. It is a hint only: a range it cannot read is skipped, and the
 * block's own read then reports whatever is wrong.
 *
 * <p>Thread safety: confined to the iterator that owns it. Lifetime: that of its iterator; it
 * keeps no buffer between calls.
 */
final class BackwardPrefetch {
    /** The bytes warmed at a time: about 32 blocks of the default 4 KiB, compressed. */
    static final int WINDOW = 64 << 10;
    /** One load per this many bytes: the processor's cache line. */
    static final int LINE = 64;

    private final Env.RandomAccessFile file;
    /** Where the previous block read starts; -1 before the first read. */
    private long previousStart = -1;
    private long warmedFrom;
    private long warmedTo;
    /** Receives the bytes loaded, so that the JIT cannot drop the loads. */
    private int sink;

    BackwardPrefetch(Env.RandomAccessFile file) {
        this.file = file;
    }

    /**
     * Called before a data block is read.
     *
     * @param offset where the block starts
     * @param storedSize its stored size, without the trailer
     * @return whether a range was warmed (for tests)
     */
    boolean beforeRead(long offset, long storedSize) {
        long end = offset + storedSize + BlockReader.TRAILER_SIZE;
        boolean stepBack = end == previousStart;
        previousStart = offset;
        if (!stepBack || (offset >= warmedFrom && end <= warmedTo) || end > file.size() || offset < 0) {
            return false;
        }
        long from = Math.max(0, end - WINDOW);
        ByteBuffer bytes;
        try {
            bytes = file.read(from, (int) (end - from));
        } catch (IOException | RuntimeException unreadable) {
            return false;
        }
        int s = 0;
        for (int i = bytes.position(), limit = bytes.limit(); i < limit; i += LINE) {
            s += bytes.get(i);
        }
        sink += s;
        warmedFrom = from;
        warmedTo = end;
        return true;
    }
}
