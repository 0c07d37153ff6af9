package org.leveldbj.memtable;

import java.nio.ByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Allocates the direct buffers an {@link Arena} is made of and frees them all at once, without
 * waiting for the garbage collector.
 *
 * <p>The mechanism is chosen once per JVM by {@link #create()}: the foreign memory API on JDK 22
 * and later ({@link ForeignChunkAllocator}; a buffer touched after the release throws
 * {@link IllegalStateException}), else {@code sun.misc.Unsafe.invokeCleaner} reached by
 * reflection ({@link CleanerChunkAllocator}; a buffer touched after the release reads freed
 * memory), else plain {@link ByteBuffer#allocateDirect} left to the garbage collector (logged
 * once at debug level).
 *
 * <p>Every buffer returned starts at an 8-byte aligned native address (so that 8-byte fields
 * at offsets that are multiples of 8 support acquire/release access), has its position at 0,
 * its limit at its capacity, is zero-filled and is little-endian.
 *
 * <p>Thread safety: not thread-safe; one allocator belongs to one arena, whose single writer
 * allocates and whose owner releases.
 *
 * <p>Lifetime: after {@link #releaseAll()} the allocator must not be used, and no buffer it
 * returned may be touched.
 */
abstract class ChunkAllocator {
    private static final Logger LOG = LoggerFactory.getLogger(ChunkAllocator.class);

    /** How new allocators are made on this JVM; chosen during class initialization. */
    private static final Kind KIND = chooseKind();

    /**
     * Returns an allocator using the best mechanism of this JVM.
     *
     * @return a new allocator owning no memory yet
     */
    static ChunkAllocator create() {
        switch (KIND) {
            case FOREIGN:
                return ForeignChunkAllocator.create();
            case CLEANER:
                return CleanerChunkAllocator.withCleaner();
            default:
                return CleanerChunkAllocator.withoutCleaner();
        }
    }

    /**
     * Allocates a zero-filled, 8-byte aligned, little-endian direct buffer.
     *
     * <p>Requires: {@code size > 0}.
     *
     * @param size the capacity wanted
     * @return a buffer of exactly {@code size} bytes
     */
    abstract ByteBuffer allocate(int size);

    /**
     * Frees every buffer this allocator returned (or, for the garbage-collector fallback, drops
     * the allocator's references to them). Calling it twice is harmless.
     */
    abstract void releaseAll();

    /**
     * Tells whether {@link #releaseAll()} frees memory immediately.
     *
     * @return {@code false} only for the garbage-collector fallback
     */
    abstract boolean releasesDeterministically();

    /**
     * Names the mechanism, for messages and tests.
     *
     * @return e.g. {@code "java.lang.foreign shared arena"}
     */
    abstract String mechanism();

    private enum Kind { FOREIGN, CLEANER, GC }

    private static Kind chooseKind() {
        if (ForeignChunkAllocator.available()) {
            return Kind.FOREIGN;
        }
        if (CleanerChunkAllocator.cleanerAvailable()) {
            return Kind.CLEANER;
        }
        LOG.debug("Neither java.lang.foreign nor sun.misc.Unsafe.invokeCleaner is available: memtable "
                + "memory is freed by the garbage collector, not when the memtable is released");
        return Kind.GC;
    }
}
