package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.util.Coding;

/**
 * Iterates over the entries of a {@link Block}, both ways, and seeks by binary search over the
 * restart points followed by a forward scan within one restart interval.
 *
 * <p>Reverse iteration: entries can only be decoded forwards from a restart point, because each
 * key is stored as a delta of the previous one. When {@link #prev()} leaves the entries already
 * decoded, the iterator decodes the whole restart interval before the current entry once,
 * keeping each entry's offsets and full key in small arrays, and serves the following
 * {@code prev()} calls from them; a backward scan therefore decodes every entry once, as a
 * forward scan does. {@link #seekToLast()}, where a backward scan enters each block, fills the
 * arrays with every entry of a block of at most {@value #WHOLE_BLOCK_BYTES} bytes of entries
 * (with the last interval only of a larger one), so that a backward scan through such blocks
 * fills them once per block, from a method the scan's compiled loop calls once per block,
 * rather than once per interval from within its steps. If an interval's
 * keys would need more than a fixed budget of memory (only malformed or extreme blocks do), the
 * keys are not kept and each step back decodes from the restart point instead.
 *
 * <p>Errors: a malformed entry throws {@link CorruptionException} ({@code "bad entry in block"}
 * with the entry's offset, placed in the file when the block knows it) and unpositions the
 * iterator; so does a restart point beyond the entries, or out of order where a step relies on
 * the order ({@code "bad block contents"}, see {@link Block}).
 *
 * <p>Thread safety: confined to one thread. Lifetime: {@link #key()} views a buffer the iterator
 * reuses, {@link #value()} views the block; both are valid until the iterator moves, and the
 * block's own lifetime rules apply. {@link #close()} releases nothing and may be omitted.
 */
public final class BlockIterator implements SortedIterator {
    /** The default most bytes of keys kept for one restart interval when stepping back. */
    static final int DEFAULT_REVERSE_KEY_BUDGET = 1 << 20;
    /** The largest block (bytes of entries) that {@link #seekToLast()} decodes whole. */
    static final int WHOLE_BLOCK_BYTES = 32 << 10;


    private KeyComparator comparator;
    private final int reverseKeyBudget;

    private Block block;
    private ByteBuffer data;
    /**
     * The array behind {@link #data} when it has one (blocks decoded into the heap), else
     * {@code null}; {@code dataBase} is the array index of the block's offset 0. Entry headers
     * and key deltas are read from it directly: a buffer's accessors cost a type check and a
     * bounds check per byte where blocks of both kinds (heap and mapped) have been read.
     */
    private byte[] dataArray;
    private int dataBase;
    /** Views the current block's values; made when first asked for, once per block. */
    private ByteBuffer valueView;
    /**
     * Views the values of reader-owned blocks (see {@link Block#readerOwnedArray()}): the whole
     * array, kept across blocks decoded into the same array, so that a lookup per block read
     * does not make a view per block. It keeps only that array reachable, which its reader keeps
     * anyway.
     */
    private ByteBuffer ownedView;
    /** Whether the current block is reader-owned, so that values are read through {@link #ownedView}. */
    private boolean owned;
    private int restarts;
    private int numRestarts;

    /** Offset of the current entry; {@code >= restarts} when unpositioned. */
    private int current;
    /** The restart interval holding the current entry. */
    private int restartIndex;
    /** The offset of restart point {@code restartIndex + 1}, or past every entry. */
    private int nextRestart;
    private int valueOffset;
    private int valueLength;
    private byte[] key = new byte[64];
    private int keyLength;
    /** Views {@link #key} for comparisons; its limit stays the array's length. */
    private ByteBuffer keyWhole = ByteBuffer.wrap(key);
    /** Views {@link #key} for callers of {@link #key()}, who only read it; its array speeds their copies. */
    private ByteBuffer keyView = ByteBuffer.wrap(key);

    /** The value view of a detached iterator: never positioned, so never mutated. */
    private static final ByteBuffer EMPTY_VIEW = ByteBuffer.allocate(0).asReadOnlyBuffer();

    /** Receives the target's search window in {@link #seek}. */
    private final long[] targetWindow = new long[1];

    /** Fields set by {@link #decodeHeader}: the three lengths of the entry header. */
    private int shared;
    private int nonShared;
    private int entryValueLength;

    /**
     * The decoded restart interval used by prev(). {@code cachePos} is the index of the current
     * entry in it, its count when the current entry is the one at its end offset, and -1 when
     * the current entry is unrelated to it.
     */
    private DecodedInterval interval;
    private int cachePos = -1;
    /**
     * When set, the current key is {@code interval.keys[keyOffset, keyOffset + keyLength)} rather than
     * {@code key[0, keyLength)}: entries served from the decoded interval are not copied.
     */
    private boolean keyInCache;
    private int keyOffset;

    /**
     * Creates an iterator over a block.
     *
     * @param comparator the order of the block's keys
     * @param block the block
     */
    public BlockIterator(KeyComparator comparator, Block block) {
        this(comparator, block, DEFAULT_REVERSE_KEY_BUDGET);
    }

    BlockIterator(KeyComparator comparator, Block block, int reverseKeyBudget) {
        this.comparator = comparator;
        this.reverseKeyBudget = reverseKeyBudget;
        reset(block);
    }

    /**
     * Points this iterator at another block, possibly of another order, keeping its buffers;
     * it is left unpositioned.
     *
     * @param newComparator the order of the new block's keys
     * @param newBlock the block to iterate
     */
    public void reset(KeyComparator newComparator, Block newBlock) {
        this.comparator = newComparator;
        reset(newBlock);
    }

    /**
     * Points this iterator at another block, keeping its buffers; it is left unpositioned.
     *
     * @param newBlock the block to iterate
     */
    public void reset(Block newBlock) {
        if (newBlock != block) {
            // The value view is made when first asked for: a lookup that finds no matching key
            // in the block never needs one.
            this.valueView = null;
        }
        this.block = newBlock;
        this.data = newBlock.data();
        setDataArray();
        this.owned = newBlock.readerOwnedArray() != null;
        this.restarts = newBlock.restartsOffset();
        this.numRestarts = newBlock.numRestarts();
        invalidate();
    }

    /** @return the block this iterator reads (an empty one when detached) */
    Block block() {
        return block;
    }

    /**
     * Drops the block (leaving the iterator unpositioned over {@link Block#EMPTY}) so that a
     * kept iterator does not keep it reachable; allocates nothing. {@link #reset(Block)} makes
     * it usable again.
     */
    public void detach() {
        this.block = Block.EMPTY;
        this.data = Block.EMPTY.data();
        setDataArray();
        this.owned = false;
        this.valueView = EMPTY_VIEW;
        this.restarts = Block.EMPTY.restartsOffset();
        this.numRestarts = Block.EMPTY.numRestarts();
        invalidate();
    }

    @Override
    public boolean valid() {
        return current < restarts;
    }

    @Override
    public ByteBuffer key() {
        assert valid();
        if (keyInCache) {
            ByteBuffer view = interval.keysView;
            view.limit(keyOffset + keyLength);
            view.position(keyOffset);
            return view;
        }
        keyView.limit(keyLength);
        keyView.position(0);
        return keyView;
    }

    @Override
    public ByteBuffer value() {
        assert valid();
        if (owned) {
            return ownedValue();
        }
        if (valueView == null) {
            valueView = data.duplicate();
        }
        valueView.limit(valueOffset + valueLength);
        valueView.position(valueOffset);
        return valueView;
    }

    /** {@link #value()} of a reader-owned block, through the view of its array. */
    private ByteBuffer ownedValue() {
        ByteBuffer view = ownedView;
        if (view == null || view.array() != dataArray) {
            view = ByteBuffer.wrap(dataArray);
            ownedView = view;
        }
        int from = dataBase + valueOffset;
        view.limit(from + valueLength);
        view.position(from);
        return view;
    }

    /**
     * The offset of the current entry's value in {@link Block#data()}, for callers in this
     * package that decode it in place instead of through a {@link #value()} view.
     */
    int valueOffset() {
        assert valid();
        return valueOffset;
    }

    /** The length of the current entry's value; see {@link #valueOffset()}. */
    int valueLength() {
        assert valid();
        return valueLength;
    }

    @Override
    public void seekToFirst() {
        cachePos = -1;
        if (numRestarts == 0) {
            invalidate();
            return;
        }
        seekToRestartPoint(0);
        parseNext();
    }

    @Override
    public void seekToLast() {
        cachePos = -1;
        if (numRestarts == 0) {
            invalidate();
            return;
        }
        checkRestarts();
        int last = numRestarts - 1;
        int first = restarts <= WHOLE_BLOCK_BYTES ? 0 : last;
        fillCache(first, restarts);
        if (!interval.hasKeys && first != last) {
            // Keys too large to keep for the whole block: steps would decode from its start.
            fillCache(last, restarts);
        }
        if (interval.count == 0) {
            invalidate();
            return;
        }
        cachePos = interval.count - 1;
        loadCached(cachePos);
    }

    @Override
    public void seek(ByteBuffer target) {
        int targetOffset = target.position();
        int targetLength = target.remaining();
        cachePos = -1;
        if (numRestarts == 0) {
            invalidate();
            return;
        }
        int left = 0;
        int right = numRestarts - 1;
        int currentCompare = 0;
        if (valid()) {
            // Start from the current position when the target is near it.
            currentCompare = keyInCache
                    ? compareAt(interval.keysWhole, keyOffset, keyLength, target, targetOffset, targetLength, current)
                    : compareAt(keyWhole, 0, keyLength, target, targetOffset, targetLength, current);
            if (currentCompare < 0) {
                left = restartIndex;
            } else if (currentCompare > 0) {
                right = restartIndex;
            } else {
                return;
            }
        }
        // Find the last restart point whose key is before the target; with search windows,
        // most steps compare eight bytes of a small array instead of the restart keys.
        SearchWindows windows = left < right ? searchWindows() : null;
        boolean useWindows = windows != null
                && windows.targetWindow(target, targetOffset, targetLength, targetWindow);
        while (left < right) {
            int mid = (left + right + 1) >>> 1;
            int c = useWindows ? windows.compare(mid, targetWindow[0]) : 0;
            if (c == 0) {
                int at = restartPoint(mid);
                int keyAt = decodeHeader(at);
                if (shared != 0) {
                    throw fail("bad entry in block: restart entry shares a prefix", at);
                }
                c = compareAt(data, keyAt, nonShared, target, targetOffset, targetLength, at);
            }
            if (c < 0) {
                left = mid;
            } else {
                right = mid - 1;
            }
        }
        if (!(left == restartIndex && currentCompare < 0)) {
            seekToRestartPoint(left);
        }
        while (parseNext()) {
            if (compareAt(keyWhole, 0, keyLength, target, targetOffset, targetLength, current) >= 0) {
                return;
            }
        }
    }

    @Override
    public void next() {
        assert valid();
        if (cachePos >= 0 && cachePos < interval.count) {
            cachePos++;
            if (cachePos < interval.count) {
                loadCached(cachePos);
                return;
            }
            // Stepping onto the entry at the interval's end: decode it, keep cachePos == count.
            parseNext();
            return;
        }
        cachePos = -1;
        parseNext();
    }

    @Override
    public void prev() {
        assert valid();
        if (cachePos > 0) {
            cachePos--;
            loadCached(cachePos);
            return;
        }
        if (cachePos == 0 && interval.restart == 0) {
            invalidate(); // the first entry of the block: nothing before it
            return;
        }
        enterPreviousInterval();
    }

    /**
     * Steps back from the first entry of a decoded interval, or from an entry decoded forwards:
     * decodes the interval before the current entry. Kept out of {@link #prev()} so that the
     * compiled step stays small enough for its callers to inline: with this path inside it, the
     * JIT compiled {@code prev()} into a method too big to inline, and stepping backwards through
     * a block took about 10% longer ({@code BlockStepBenchmark}).
     */
    private void enterPreviousInterval() {
        checkRestarts();
        int original = current;
        int r = restartIndex;
        while (restartPoint(r) >= original) {
            if (r == 0) {
                invalidate();
                return;
            }
            r--;
        }
        fillCache(r, original);
        cachePos = interval.count - 1;
        loadCached(cachePos);
    }

    @Override
    public void close() {
        // Nothing to release: the block belongs to whoever supplied it.
    }

    /**
     * Decodes the entries of restart interval {@code r} that start before offset {@code end}
     * into {@link #interval}, building each full key from the previous one.
     * Does not move the iterator.
     */
    private void fillCache(int r, int end) {
        if (interval == null) {
            interval = new DecodedInterval();
        }
        DecodedInterval iv = interval;
        iv.clear(r, end);
        keyInCache = false;
        int p = restartPoint(r);
        int previousLength = 0;
        while (p < end) {
            int keyAt = decodeHeader(p);
            if (shared > previousLength) {
                throw fail("bad entry in block: shares " + shared + " bytes of a " + previousLength
                        + "-byte key", p);
            }
            iv.appendKey(shared, this, keyAt, nonShared, reverseKeyBudget);
            previousLength = shared + nonShared;
            iv.addEntry(p, keyAt + nonShared, entryValueLength);
            p = keyAt + nonShared + entryValueLength;
        }
        if (iv.count > 0 && p != end) {
            int last = iv.offset[iv.count - 1];
            iv.count = 0;
            throw fail("bad entry in block: entry runs past offset " + end, last);
        }
    }

    /** Makes cached entry {@code i} the current entry. */
    private void loadCached(int i) {
        DecodedInterval iv = interval;
        if (iv.hasKeys) {
            current = iv.offset[i];
            valueOffset = iv.valueOffset[i];
            valueLength = iv.valueLength[i];
            if (restartIndex != iv.restart) {
                setRestartIndex(iv.restart);
            }
            keyOffset = iv.keyStart(i);
            keyLength = iv.keyEnd[i] - keyOffset;
            keyInCache = true;
        } else {
            // The interval's keys were too large to keep: decode forward to entry i again.
            seekToRestartPoint(iv.restart);
            for (int j = 0; j <= i; j++) {
                parseNext();
            }
            assert current == iv.offset[i];
        }
    }

    /** Copies the current key out of the cache into {@link #key}, where decoding continues. */
    private void materializeKey() {
        ensureKeyCapacity(keyLength);
        System.arraycopy(interval.keys, keyOffset, key, 0, keyLength);
        keyInCache = false;
    }

    private void setRestartIndex(int index) {
        restartIndex = index;
        nextRestart = index + 1 < numRestarts ? restartPoint(index + 1) : Integer.MAX_VALUE;
    }

    private void seekToRestartPoint(int index) {
        keyLength = 0;
        keyInCache = false;
        setRestartIndex(index);
        valueOffset = restartPoint(index);
        valueLength = 0;
    }

    /**
     * Decodes the entry after the current one and makes it current.
     *
     * @return {@code false} (and unpositioned) at the end of the entries
     */
    private boolean parseNext() {
        int p = valueOffset + valueLength;
        if (p >= restarts) {
            invalidate();
            return false;
        }
        if (keyInCache) {
            materializeKey();
        }
        current = p;
        int keyAt = decodeHeader(p);
        if (shared > keyLength) {
            throw fail("bad entry in block: shares " + shared + " bytes of a " + keyLength + "-byte key", p);
        }
        int n = shared + nonShared;
        ensureKeyCapacity(n);
        copyFromBlock(keyAt, key, shared, nonShared);
        keyLength = n;
        valueOffset = keyAt + nonShared;
        valueLength = entryValueLength;
        while (p >= nextRestart) {
            setRestartIndex(restartIndex + 1);
        }
        return true;
    }

    /**
     * Decodes the header of the entry at {@code p} into {@link #shared}, {@link #nonShared} and
     * {@link #entryValueLength}, checking that the key delta and value fit before the restart
     * array.
     *
     * @return the offset of the key delta
     */
    private int decodeHeader(int p) {
        int limit = restarts;
        if (limit - p < 3) {
            throw fail("bad entry in block: truncated entry header", p);
        }
        byte[] a = dataArray;
        int s;
        int n;
        int v;
        if (a != null) {
            int i = dataBase + p;
            s = a[i] & 0xff;
            n = a[i + 1] & 0xff;
            v = a[i + 2] & 0xff;
        } else {
            s = data.get(p) & 0xff;
            n = data.get(p + 1) & 0xff;
            v = data.get(p + 2) & 0xff;
        }
        int q;
        if ((s | n | v) < 128) {
            q = p + 3;
        } else {
            try {
                long packed = Coding.getVarint32(data, p, limit);
                s = Coding.value(packed);
                packed = Coding.getVarint32(data, Coding.next(packed), limit);
                n = Coding.value(packed);
                packed = Coding.getVarint32(data, Coding.next(packed), limit);
                v = Coding.value(packed);
                q = Coding.next(packed);
            } catch (CorruptionException e) {
                throw fail("bad entry in block: " + e.reason(), p);
            }
            if (s < 0 || n < 0 || v < 0) {
                throw fail("bad entry in block: length out of range", p);
            }
        }
        if ((long) n + v > limit - q) {
            throw fail("bad entry in block: " + n + "-byte key delta and " + v
                    + "-byte value run past the entries", p);
        }
        shared = s;
        nonShared = n;
        entryValueLength = v;
        return q;
    }

    /**
     * Copies bytes of the block into an array. Key deltas are usually a few bytes, for which a
     * plain loop beats the buffer's bulk copy (whose fixed cost dominates on direct buffers).
     */
    void copyFromBlock(int from, byte[] dst, int to, int n) {
        byte[] a = dataArray;
        if (a != null) {
            System.arraycopy(a, dataBase + from, dst, to, n);
        } else if (n <= 16) {
            for (int i = 0; i < n; i++) {
                dst[to + i] = data.get(from + i);
            }
        } else {
            data.get(from, dst, to, n);
        }
    }

    private void setDataArray() {
        ByteBuffer d = data;
        if (d.hasArray()) {
            dataArray = d.array();
            dataBase = d.arrayOffset();
        } else {
            dataArray = null;
            dataBase = 0;
        }
    }

    private void ensureKeyCapacity(int n) {
        if (key.length < n) {
            key = Arrays.copyOf(key, Math.max(n, 2 * key.length));
            keyWhole = ByteBuffer.wrap(key);
            keyView = ByteBuffer.wrap(key);
        }
    }

    private void invalidate() {
        current = restarts;
        restartIndex = numRestarts;
        nextRestart = Integer.MAX_VALUE;
        keyLength = 0;
        keyInCache = false;
        valueOffset = restarts;
        valueLength = 0;
        cachePos = -1;
    }

    /**
     * Compares a key of this block with a sought one. A comparator that finds the bytes
     * malformed (an internal key shorter than its trailer) reports no place; its report is
     * thrown again naming the block's file and the entry's offset.
     */
    private int compareAt(ByteBuffer keys, int keyAt, int length, ByteBuffer target, int targetOffset,
                          int targetLength, int entryOffset) {
        try {
            return comparator.compare(keys, keyAt, length, target, targetOffset, targetLength);
        } catch (CorruptionException e) {
            if (e.file() != null) {
                throw e;
            }
            throw fail(e.reason(), entryOffset);
        }
    }

    /** Restart point {@code i}; a point beyond the entries leaves this iterator unpositioned. */
    private int restartPoint(int i) {
        try {
            return block.restartPoint(i);
        } catch (CorruptionException e) {
            invalidate();
            throw e;
        }
    }

    /** {@link Block#checkRestarts()}; points out of order leave this iterator unpositioned. */
    private void checkRestarts() {
        try {
            block.checkRestarts();
        } catch (CorruptionException e) {
            invalidate();
            throw e;
        }
    }

    /** {@link Block#searchWindows}; points out of order leave this iterator unpositioned. */
    private SearchWindows searchWindows() {
        try {
            return block.searchWindows(comparator.bytewisePrefixTrim());
        } catch (CorruptionException e) {
            invalidate();
            throw e;
        }
    }

    private CorruptionException fail(String reason, int offset) {
        invalidate();
        return block.corruption(reason, offset);
    }
}
