package org.leveldbj.table;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.util.Coding;

/**
 * A read-only block: entries with shared-prefix keys followed by the restart array (layout in
 * the package documentation). Construction checks that the restart count fits in the block and
 * that the first restart point is offset 0. The other points are checked where they are relied
 * on, so that opening a table for a few reads does not read its whole index's restart array:
 * every point read must lie within the entries ({@link #restartPoint}), and stepping backwards
 * or building search windows, which need the points in order, first checks once that they all
 * increase ({@link #checkRestarts}). Entries themselves are checked as iterators decode them.
 * Every malformation is reported as a {@link CorruptionException}; a seek through points that
 * lie within the entries but out of order may miss a key, as with any corruption that checksums
 * were not asked to catch, but it ends.
 *
 * <p>A block may remember where its bytes came from (file name and offset), so that the
 * corruption reports of its iterators name the file and the offset within it. For a
 * decompressed block the report names the block's offset in the file and gives the offset
 * within the uncompressed bytes in the reason.
 *
 * <p>Thread safety: immutable; any number of threads may iterate it, each with its own
 * iterator.
 *
 * <p>Lifetime: the block is a view of the buffer it was built on (no copy). When that buffer
 * is a view of a memory-mapped file, the block and its iterators are usable only while the file
 * stays open.
 */
public final class Block {
    /** A block without entries (and without restart points). */
    public static final Block EMPTY = new Block(ByteBuffer.wrap(new byte[4]));

    private final ByteBuffer data;
    private final int restartsOffset;
    private final int numRestarts;
    private final String file;
    private final long fileOffset;
    private final boolean decompressed;
    /** Whether the bytes lie in an array its reader reuses (see {@link #readerOwned}). */
    private final boolean readerOwned;
    /** Built by {@link #searchWindows}; racing builders make equal slots, either may win. */
    private volatile WindowsSlot windows;
    /**
     * Searches made without windows, counted until they are built. Racy increments may lose a
     * count, which only delays the build.
     */
    private int searchesWithoutWindows;
    /**
     * Set once {@link #checkRestarts} has found the points increasing; racing checkers repeat
     * the same check.
     */
    private boolean restartsChecked;

    /**
     * Wraps block contents of unknown origin; corruption reports carry offsets within the block.
     *
     * @param contents the block's bytes: the remaining bytes of the buffer
     * @throws CorruptionException if the restart array is malformed
     */
    public Block(ByteBuffer contents) {
        this(contents, null, 0, false);
    }

    /**
     * Wraps block contents read from a file.
     *
     * @param contents the block's bytes: the remaining bytes of the buffer
     * @param file the file the block was read from, or {@code null} when unknown
     * @param fileOffset the offset of the block in that file
     * @param decompressed {@code true} when {@code contents} were decompressed, so that offsets
     *     within them are not offsets within the file
     * @throws CorruptionException if the restart array is malformed
     */
    public Block(ByteBuffer contents, String file, long fileOffset, boolean decompressed) {
        this(contents, file, fileOffset, decompressed, false);
    }

    /**
     * Wraps decompressed bytes in an array the reader owns and will reuse for a later block once
     * it has moved on from this one: never cached, never shared.
     *
     * @param contents the block's bytes, in a heap buffer over the reader's array from index 0;
     *     the block takes the buffer over, and nothing else may move its position or limit
     * @param file the file the block was read from
     * @param fileOffset the offset of the block in that file
     * @return the block
     * @throws CorruptionException if the restart array is malformed
     */
    static Block readerOwned(ByteBuffer contents, String file, long fileOffset) {
        return new Block(contents, file, fileOffset, true, true);
    }

    private Block(ByteBuffer contents, String file, long fileOffset, boolean decompressed, boolean readerOwned) {
        this.readerOwned = readerOwned && contents.hasArray();
        // A heap block stays writable so that comparisons reach its array; nothing writes to it.
        // A reader-owned block's buffer is handed over from index 0 and used as it is.
        this.data = this.readerOwned && contents.position() == 0 && contents.arrayOffset() == 0 ? contents
                : contents.hasArray() ? contents.slice() : contents.slice().asReadOnlyBuffer();
        this.file = file;
        this.fileOffset = fileOffset;
        this.decompressed = decompressed;
        int size = data.limit();
        if (size < 4) {
            throw corruption("bad block contents: " + size + " bytes, too short for a restart count", 0);
        }
        long count = Integer.toUnsignedLong(Coding.getFixed32(data, size - 4, size));
        if (count > (size - 4) / 4) {
            throw corruption("bad block contents: restart count " + count + " does not fit in "
                    + size + " bytes", size - 4);
        }
        this.numRestarts = (int) count;
        this.restartsOffset = size - 4 - 4 * numRestarts;
        if (numRestarts > 0) {
            int first = Coding.getFixed32(data, restartsOffset, size);
            if (first != 0) {
                throw corruption("bad block contents: restart point 0 is " + Integer.toUnsignedString(first),
                        restartsOffset);
            }
        }
    }

    /**
     * Checks, once per block, that the restart points increase and lie before the restart
     * array: what stepping backwards and search windows rely on.
     *
     * @throws CorruptionException naming the first point out of order
     */
    void checkRestarts() {
        if (restartsChecked) {
            return;
        }
        int size = data.limit();
        int previous = 0;
        for (int i = 1; i < numRestarts; i++) {
            int at = restartsOffset + 4 * i;
            int point = Coding.getFixed32(data, at, size);
            if (!(point > previous && point < restartsOffset)) {
                throw corruption("bad block contents: restart point " + i + " is "
                        + Integer.toUnsignedString(point), at);
            }
            previous = point;
        }
        restartsChecked = true;
    }

    /**
     * The block's size in bytes, restart array included.
     *
     * @return the size
     */
    public int size() {
        return data.limit();
    }

    /**
     * Returns a new iterator over the block's entries.
     *
     * @param comparator the order the block's keys were written in
     * @return an unpositioned iterator
     */
    public BlockIterator iterator(KeyComparator comparator) {
        return new BlockIterator(comparator, this);
    }

    /**
     * The array a reader-owned block lies in, for the reader's next block.
     *
     * @return the array, or {@code null} when the block is not reader-owned
     */
    byte[] readerOwnedArray() {
        return readerOwned ? data.array() : null;
    }

    /**
     * The block's bytes, from position 0 to the block size: read-only when they lie outside the
     * heap (a mapped file); a heap block's buffer exposes its array, which callers only read.
     */
    ByteBuffer data() {
        return data;
    }

    /** The offset of the restart array, which is also the end of the entries. */
    int restartsOffset() {
        return restartsOffset;
    }

    /** The number of restart points (0 only for a block with no entries). */
    int numRestarts() {
        return numRestarts;
    }

    /**
     * The offset of restart point {@code i}. Requires: {@code 0 <= i < numRestarts()}.
     *
     * @throws CorruptionException if the point lies beyond the entries
     */
    int restartPoint(int i) {
        assert i >= 0 && i < numRestarts;
        int at = restartsOffset + 4 * i;
        int point = Coding.getFixed32(data, at, data.limit());
        if (Integer.compareUnsigned(point, restartsOffset) > 0) {
            throw corruption("bad block contents: restart point " + i + " is "
                    + Integer.toUnsignedString(point), at);
        }
        return point;
    }

    /**
     * The search windows of this block's restart keys for an order, built once the block has
     * been searched often enough to pay for them and then kept (a block is searched in one
     * order in practice; another order rebuilds them). Building reads every restart key, so it
     * waits for {@code numRestarts / }{@value #SEARCHES_PER_RESTART_TO_BUILD}{@code } searches
     * without: a table opened for a few reads and evicted again (a table cache smaller than
     * the database's tables) would otherwise pay for a whole index block's windows at every
     * open, several times its binary searches (4.5 times C++ LevelDB's random reads, on a
     * 20,000,000-key database with 1 KB blocks and 100 open files).
     *
     * @param trim the order's {@link KeyComparator#bytewisePrefixTrim()}
     * @return the windows, or {@code null} when the order has none, the block has too few
     *     restart points to need them, or a restart entry is malformed
     * @throws CorruptionException if the restart points do not increase (checked when they are
     *     first built)
     */
    SearchWindows searchWindows(int trim) {
        if (trim < 0 || numRestarts < SearchWindows.MIN_RESTARTS) {
            return null;
        }
        WindowsSlot slot = windows;
        if (slot == null || slot.trim != trim) {
            if (searchesWithoutWindows < numRestarts / SEARCHES_PER_RESTART_TO_BUILD) {
                searchesWithoutWindows++;
                return null;
            }
            checkRestarts();
            int[] points = new int[numRestarts];
            for (int i = 0; i < numRestarts; i++) {
                points[i] = restartPoint(i);
            }
            slot = new WindowsSlot(trim, SearchWindows.build(data, points, restartsOffset, trim));
            windows = slot;
        }
        return slot.windows;
    }

    /**
     * The restart points per search made without windows before they are built: a binary search
     * reads about log2(restarts) keys, the build every restart key once.
     */
    static final int SEARCHES_PER_RESTART_TO_BUILD = 8;

    /** Windows built for one trim, {@code null} when they could not be built. */
    private record WindowsSlot(int trim, SearchWindows windows) {
    }

    /**
     * Builds a report for malformed bytes at an offset within the block, naming the file when
     * the block knows it.
     */
    CorruptionException corruption(String reason, int offsetInBlock) {
        if (file == null) {
            return new CorruptionException(reason, null, offsetInBlock);
        }
        if (decompressed) {
            return new CorruptionException(reason + " (at offset " + offsetInBlock
                    + " of the uncompressed block)", file, fileOffset);
        }
        return new CorruptionException(reason, file, fileOffset + offsetInBlock);
    }
}
