package org.leveldbj.table;

import java.nio.ByteBuffer;
import org.leveldbj.util.Coding;

/**
 * Answers, from a table's filter block, whether the data block at a given offset may hold a
 * key. A malformed filter block never fails: where the bytes make no sense the answer is "may
 * match", so the read goes to the data block, as in C++ LevelDB.
 *
 * <p>Thread safety: immutable; safe for concurrent use.
 *
 * <p>Lifetime: a view of the filter block's buffer; when that is a view of a memory-mapped file
 * the reader is usable only while the file is open.
 */
public final class FilterBlockReader {
    private final FilterPolicy policy;
    private final FilterKeyExtractor extractor;
    private final ByteBuffer data;
    /** Offset of the offset array; also the end of the filters. */
    private final int offsetsStart;
    private final int filterCount;
    private final int baseLg;

    /**
     * Reads a filter block.
     *
     * @param policy the policy that built the filters
     * @param extractor which part of each key the filters saw
     * @param contents the filter block: the remaining bytes of the buffer
     */
    public FilterBlockReader(FilterPolicy policy, FilterKeyExtractor extractor, ByteBuffer contents) {
        this.policy = policy;
        this.extractor = extractor;
        this.data = contents.slice();
        int n = data.limit();
        if (n < 5) {
            offsetsStart = 0;
            filterCount = 0;
            baseLg = 0;
            return;
        }
        int lg = data.get(n - 1) & 0xff;
        long lastWord = Integer.toUnsignedLong(Coding.getFixed32(data, n - 5, n));
        if (lastWord > n - 5) {
            offsetsStart = 0;
            filterCount = 0;
            baseLg = 0;
            return;
        }
        baseLg = lg;
        offsetsStart = (int) lastWord;
        filterCount = (int) ((n - 5 - lastWord) / 4);
    }

    /**
     * Tells whether the data block at {@code blockOffset} may hold {@code key}.
     *
     * @param blockOffset the data block's offset in the table file
     * @param key the whole key (the extractor picks the part the filter saw); remaining bytes,
     *     position not moved
     * @return {@code false} only if the block certainly does not hold the key
     */
    public boolean keyMayMatch(long blockOffset, ByteBuffer key) {
        long index = baseLg >= 64 ? 0 : blockOffset >>> baseLg;
        if (index < filterCount) {
            int at = offsetsStart + (int) index * 4;
            // The entry after the last offset is the offset array's own position, so "limit"
            // of the last filter is offsetsStart, read from the word before the base byte.
            long start = Integer.toUnsignedLong(Coding.getFixed32(data, at, data.limit()));
            long limit = Integer.toUnsignedLong(Coding.getFixed32(data, at + 4, data.limit()));
            if (start <= limit && limit <= offsetsStart) {
                int keyLength = extractor.filterKeyLength(key.remaining());
                return policy.keyMayMatch(key, key.position(), keyLength, data, (int) start, (int) (limit - start));
            } else if (start == limit) {
                return false; // an empty filter: no key in this range
            }
        }
        return true; // errors are treated as potential matches
    }
}
