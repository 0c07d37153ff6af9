package org.leveldbj.memtable;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link ChunkAllocator} on {@link ByteBuffer#allocateDirect}, freeing the buffers with
 * {@code sun.misc.Unsafe.invokeCleaner} (JDK 9 and later) or, when that cannot be reached,
 * leaving them to the garbage collector.
 *
 * <p>{@code sun.misc.Unsafe} is reached by reflection only: a direct reference makes javac
 * print a proprietary-API warning that no annotation suppresses. The module
 * {@code jdk.unsupported} opens {@code sun.misc}, so no command-line flag is needed.
 *
 * <p>Freeing is a use-after-free hazard: a buffer touched after {@link #releaseAll()} reads
 * freed memory and may crash the JVM. The owner must make sure no reader remains (the memtable's
 * reference count does).
 *
 * <p>Thread safety: not thread-safe (see {@link ChunkAllocator}).
 */
final class CleanerChunkAllocator extends ChunkAllocator {
    /** {@code theUnsafe.invokeCleaner(ByteBuffer)} bound to the instance, or {@code null}. */
    private static final MethodHandle INVOKE_CLEANER = lookUpCleaner();

    /** The handle used by this allocator; {@code null} leaves memory to the collector. */
    private final MethodHandle invokeCleaner;
    /** The buffers {@code allocateDirect} returned (not slices: only they have a cleaner). */
    private final List<ByteBuffer> owned = new ArrayList<>();
    private boolean released;

    private CleanerChunkAllocator(MethodHandle invokeCleaner) {
        this.invokeCleaner = invokeCleaner;
    }

    /**
     * Tells whether {@code invokeCleaner} can be reached on this JVM.
     *
     * @return {@code true} when buffers can be freed deterministically
     */
    static boolean cleanerAvailable() {
        return INVOKE_CLEANER != null;
    }

    /**
     * An allocator that frees through the cleaner. Requires: {@link #cleanerAvailable()}.
     *
     * @return the allocator
     */
    static CleanerChunkAllocator withCleaner() {
        assert INVOKE_CLEANER != null;
        return new CleanerChunkAllocator(INVOKE_CLEANER);
    }

    /**
     * An allocator that leaves its buffers to the garbage collector.
     *
     * @return the allocator
     */
    static CleanerChunkAllocator withoutCleaner() {
        return new CleanerChunkAllocator(null);
    }

    @Override
    ByteBuffer allocate(int size) {
        assert size > 0 : "size=" + size;
        if (released) {
            throw new IllegalStateException("arena memory already released");
        }
        // alignedSlice rounds its end down to a multiple of 8 too: ask for a multiple of 8.
        int rounded = Math.addExact(size, Long.BYTES - 1) & -Long.BYTES;
        ByteBuffer raw = ByteBuffer.allocateDirect(rounded);
        if (raw.alignmentOffset(0, Long.BYTES) != 0) {
            // malloc normally aligns to 16 bytes; if not, over-allocate and slice.
            free(raw);
            raw = ByteBuffer.allocateDirect(Math.addExact(rounded, Long.BYTES));
        }
        owned.add(raw);
        ByteBuffer aligned = raw.alignedSlice(Long.BYTES);
        assert aligned.capacity() >= size : "capacity=" + aligned.capacity() + " size=" + size;
        return aligned.limit(size).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    void releaseAll() {
        if (released) {
            return;
        }
        released = true;
        for (ByteBuffer buffer : owned) {
            free(buffer);
        }
        owned.clear();
    }

    @Override
    boolean releasesDeterministically() {
        return invokeCleaner != null;
    }

    @Override
    String mechanism() {
        return invokeCleaner != null ? "sun.misc.Unsafe.invokeCleaner" : "garbage collector";
    }

    private void free(ByteBuffer raw) {
        if (invokeCleaner == null) {
            return;
        }
        try {
            invokeCleaner.invokeExact(raw);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("unexpected failure freeing a direct buffer", e);
        }
    }

    private static MethodHandle lookUpCleaner() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            Object unsafe = theUnsafe.get(null);
            return MethodHandles.lookup()
                    .findVirtual(unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(unsafe);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }
}
