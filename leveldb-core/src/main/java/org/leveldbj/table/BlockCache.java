package org.leveldbj.table;

/**
 * Where tables keep uncompressed blocks read from files so that later reads skip the read and
 * the decompression. Blocks are keyed by the table's cache id (from {@link #newId()}, one per
 * open table) and the block's offset in the file. Only heap blocks are offered to the cache
 * (views of a memory-mapped file cost nothing to read again).
 *
 * <p>A cached {@link Block} is immutable and owns its heap buffer, so a block evicted while an
 * iterator still reads it stays valid for that iterator.
 *
 * <p>Thread safety: implementations must be safe for concurrent use by every table sharing them.
 */
public interface BlockCache {
    /** A cache that keeps nothing. */
    BlockCache NONE = new BlockCache() {
        @Override
        public long newId() {
            return 0;
        }

        @Override
        public Block lookup(long cacheId, long blockOffset) {
            return null;
        }

        @Override
        public void insert(long cacheId, long blockOffset, Block block) {
            // keeps nothing
        }

        @Override
        public boolean admit(long cacheId, long blockOffset, long storedSize) {
            return false;
        }

        @Override
        public String toString() {
            return "BlockCache.NONE";
        }
    };

    /**
     * Returns an id no other table of this cache uses.
     *
     * @return the id
     */
    long newId();

    /**
     * Returns a cached block.
     *
     * @param cacheId the table's id
     * @param blockOffset the block's offset in the table file
     * @return the block, or {@code null} when not cached
     */
    Block lookup(long cacheId, long blockOffset);

    /**
     * Offers a block to the cache, which may keep it (charged {@link Block#size()} bytes).
     *
     * @param cacheId the table's id
     * @param blockOffset the block's offset in the table file
     * @param block the block
     */
    void insert(long cacheId, long blockOffset, Block block);

    /**
     * Tells, before a block missing from the cache is read, whether the cache wants it: a reader
     * reads a wanted block into bytes of its own and {@linkplain #insert offers} it, any other
     * into a buffer it reuses for the next block, allocating nothing. A cache may turn away
     * blocks it has no reason to expect again, such as a block missed for the first time.
     *
     * @param cacheId the table's id
     * @param blockOffset the block's offset in the table file
     * @param storedSize the block's size in the file, at most its size once decompressed: a
     *     cache turns away a block it could not hold
     * @return {@code true} if the block should be read to be inserted
     */
    default boolean admit(long cacheId, long blockOffset, long storedSize) {
        return true;
    }
}
