package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.leveldbj.util.ByteSink;

/**
 * Builds a table's filter block: one filter per {@code 2^}{@link #BASE_LG} bytes of data-block
 * offsets, each summarizing the keys of the data blocks that start in that range (layout in the
 * package documentation).
 *
 * <p>Protocol: {@link #startBlock(long)} with the offset of each data block before its keys are
 * added with {@link #addKey}, then {@link #finish()} once.
 *
 * <p>Thread safety: confined to one thread.
 */
public final class FilterBlockBuilder {
    /** Log2 of the data-block offset range covered by one filter: 11, i.e. 2 KiB. */
    public static final int BASE_LG = 11;
    /** The data-block offset range covered by one filter. */
    public static final int BASE = 1 << BASE_LG;

    private final FilterPolicy policy;
    private final FilterKeyExtractor extractor;
    /** Keys of the filter being collected, concatenated. */
    private final ByteSink keys = new ByteSink(1024);
    /** {@code starts[i]} is where key {@code i} begins in {@link #keys}. */
    private int[] starts = new int[64];
    private int keyCount;
    /** The filters so far followed, once finished, by the offset array. */
    private final ByteSink result = new ByteSink(1024);
    private int[] filterOffsets = new int[16];
    private int filterCount;
    private boolean finished;

    /**
     * Creates a builder.
     *
     * @param policy the filter policy
     * @param extractor which part of each key the filters see
     */
    public FilterBlockBuilder(FilterPolicy policy, FilterKeyExtractor extractor) {
        this.policy = policy;
        this.extractor = extractor;
    }

    /**
     * Announces that the keys added next belong to a data block starting at
     * {@code blockOffset}. Requires: offsets do not decrease.
     *
     * @param blockOffset the data block's offset in the table file
     */
    public void startBlock(long blockOffset) {
        long filterIndex = blockOffset / BASE;
        assert filterIndex >= filterCount : "block offsets must not decrease";
        while (filterIndex > filterCount) {
            generateFilter();
        }
    }

    /**
     * Adds a key of the current data block.
     *
     * @param key the key (remaining bytes; position not moved)
     */
    public void addKey(ByteBuffer key) {
        int n = extractor.filterKeyLength(key.remaining());
        assert n >= 0 && n <= key.remaining();
        if (keyCount + 1 >= starts.length) {
            starts = Arrays.copyOf(starts, 2 * starts.length);
        }
        starts[keyCount++] = keys.length();
        keys.put(key, key.position(), n);
    }

    /**
     * Adds a part of a key of the current data block to the filters, as it is (the extractor is
     * not asked). A part equal to the one added just before it, within the same filter, is not
     * added again: a filter on prefixes sees each prefix once per filter.
     *
     * @param buf the buffer holding the part (absolute positions; the buffer is not moved)
     * @param offset where the part begins
     * @param length the part's length
     */
    public void addPart(ByteBuffer buf, int offset, int length) {
        if (keyCount > 0) {
            int lastStart = starts[keyCount - 1];
            if (keys.length() - lastStart == length
                    && ByteBuffer.wrap(keys.array(), lastStart, length).equals(buf.slice(offset, length))) {
                return;
            }
        }
        if (keyCount + 1 >= starts.length) {
            starts = Arrays.copyOf(starts, 2 * starts.length);
        }
        starts[keyCount++] = keys.length();
        keys.put(buf, offset, length);
    }

    /**
     * Generates the last filter and appends the offset array. Requires: not finished.
     *
     * @return a heap view of the filter block, valid as long as this builder
     */
    public ByteBuffer finish() {
        assert !finished;
        finished = true;
        if (keyCount > 0) {
            generateFilter();
        }
        int arrayOffset = result.length();
        for (int i = 0; i < filterCount; i++) {
            result.putFixed32(filterOffsets[i]);
        }
        result.putFixed32(arrayOffset);
        result.putByte(BASE_LG);
        return result.view();
    }

    private void generateFilter() {
        if (filterCount == filterOffsets.length) {
            filterOffsets = Arrays.copyOf(filterOffsets, 2 * filterCount);
        }
        filterOffsets[filterCount++] = result.length();
        if (keyCount == 0) {
            return; // an empty filter: no key of this range
        }
        starts[keyCount] = keys.length();
        policy.createFilter(keys.array(), starts, keyCount, result);
        keys.reset();
        keyCount = 0;
    }
}
