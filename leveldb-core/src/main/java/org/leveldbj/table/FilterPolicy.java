package org.leveldbj.table;

import java.nio.ByteBuffer;
import org.leveldbj.util.ByteSink;

/**
 * Builds small summaries (filters) of a set of keys that answer "may this key be in the set?"
 * with no false negatives, so that a read can skip data blocks that cannot hold the key. The
 * {@link #name()} is stored in the table's metaindex ({@code "filter." + name}); a reader uses
 * a table's filter only when its policy has the same name, so a policy whose encoding changes
 * must change its name.
 *
 * <p>Thread safety: implementations must be safe for concurrent use.
 */
public interface FilterPolicy {
    /**
     * The name recorded in tables, e.g. {@code "leveldb.BuiltinBloomFilter2"}.
     *
     * @return the name
     */
    String name();

    /**
     * Appends a filter summarizing {@code count} keys (duplicates allowed) to {@code dst}.
     *
     * @param keys the keys, concatenated
     * @param starts {@code count + 1} offsets: key {@code i} is {@code keys[starts[i],
     *     starts[i + 1])}
     * @param count the number of keys
     * @param dst where the filter is appended
     */
    void createFilter(byte[] keys, int[] starts, int count, ByteSink dst);

    /**
     * Tells whether a key may be among those a filter was built from. Must return
     * {@code true} for every such key; should return {@code false} for most others. Must not
     * fail on malformed filter bytes (answer {@code true} when in doubt).
     *
     * @param key the buffer holding the key
     * @param keyOffset the absolute index of its first byte
     * @param keyLength its length
     * @param filter the buffer holding the filter
     * @param filterOffset the absolute index of the filter's first byte
     * @param filterLength the filter's length
     * @return {@code false} only if the key is certainly not in the set
     */
    boolean keyMayMatch(ByteBuffer key, int keyOffset, int keyLength,
                        ByteBuffer filter, int filterOffset, int filterLength);
}
