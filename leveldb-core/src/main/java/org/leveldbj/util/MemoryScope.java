package org.leveldbj.util;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;
import org.leveldbj.util.NativeMemory.Mechanism;

/**
 * The owner of some off-heap memory: direct buffers it allocated and file regions it mapped, all
 * released together by {@link #close()}. Obtained from {@link NativeMemory#open()}, which also
 * documents the mechanism used on each JDK.
 *
 * <p>Buffers handed out: {@link #allocate} returns a writable direct buffer of exactly the size
 * asked, zero-filled, whose first byte is at an 8-byte aligned native address (so 8-byte fields
 * at indexes that are multiples of 8 support atomic and acquire/release access through a
 * {@link java.lang.invoke.VarHandle}); {@link #map} returns a read-only buffer over the file's
 * bytes and {@link #mapWritable} a writable one. Both have position 0, limit equal to capacity, and big-endian order like every new
 * buffer; callers set the order they need.
 *
 * <p>Thread safety: safe for concurrent use; {@link #allocate}, the map methods and {@link #close}
 * are serialized on the scope. The buffers may be read and written from any thread, with the
 * caller ordering those accesses.
 *
 * <p>Lifetime: {@link #close()} releases everything at once (or, when the JVM offers no way to,
 * drops the scope's references for the garbage collector; see
 * {@link NativeMemory#releasesOnClose()}); closing twice is harmless, and allocating or mapping
 * afterwards throws {@link IllegalStateException}. Requires: no thread touches a buffer of the
 * scope, or any view of one, once {@code close()} has begun. With the foreign memory API such a
 * touch throws {@link IllegalStateException}; with the cleaner it reads freed or unmapped memory
 * and may crash the JVM. Owners therefore close only when a reference count says no reader is
 * left.
 */
public final class MemoryScope implements AutoCloseable {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.MEMORY_SCOPE);
    /** The largest allocation accepted: the largest aligned size a direct buffer can have. */
    public static final int MAX_ALLOCATION = Integer.MAX_VALUE - 15;

    private final Mechanism mechanism;

    // Guarded by "this".
    /** The foreign arena everything comes from; opened on first use, with {@code FOREIGN}. */
    private AutoCloseable arena;
    /** The buffers that own memory (not the views handed out), for the other mechanisms. */
    private final List<ByteBuffer> owned = new ArrayList<>();
    /** Every writable mapping, whatever the mechanism, for {@link #force()}. */
    private final List<MappedByteBuffer> writableMappings = new ArrayList<>();
    private boolean closed;

    /** Use {@link NativeMemory#open()}. */
    MemoryScope(Mechanism mechanism) {
        this.mechanism = mechanism;
    }

    /**
     * Allocates a zero-filled, 8-byte aligned direct buffer.
     *
     * @param bytes the capacity wanted, between {@code 1} and {@link #MAX_ALLOCATION}
     * @return a writable buffer of exactly {@code bytes} bytes, owned by this scope
     * @throws IllegalArgumentException if {@code bytes} is out of range
     * @throws IllegalStateException if the scope is closed
     * @throws OutOfMemoryError if the direct memory limit is reached
     */
    public ByteBuffer allocate(int bytes) {
        lock.lock();
        try {
            if (bytes <= 0 || bytes > MAX_ALLOCATION) {
                throw new IllegalArgumentException("cannot allocate " + bytes + " bytes: expected 1 to " + MAX_ALLOCATION);
            }
            checkOpen();
            if (mechanism == Mechanism.FOREIGN) {
                return ForeignMemory.allocate(arena(), bytes);
            }
            // alignedSlice rounds its end down to a multiple of 8 too: ask for a multiple of 8.
            int rounded = (bytes + Long.BYTES - 1) & -Long.BYTES;
            ByteBuffer raw = ByteBuffer.allocateDirect(rounded);
            if (raw.alignmentOffset(0, Long.BYTES) != 0) {
                // malloc normally aligns to 16 bytes; if not, over-allocate and slice.
                release(raw);
                raw = ByteBuffer.allocateDirect(rounded + Long.BYTES);
            }
            owned.add(raw);
            return raw.alignedSlice(Long.BYTES).limit(bytes).slice();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Maps part of a file into memory, read-only. The channel may be closed once this returns;
     * the mapping lasts until the scope is closed.
     *
     * @param channel a channel open for reading
     * @param position where the mapped region starts in the file, at least {@code 0}
     * @param size how many bytes to map, between {@code 1} and {@link Integer#MAX_VALUE}; the
     *     region should lie inside the file (the bytes past its end cannot be read)
     * @return a read-only buffer of exactly {@code size} bytes, owned by this scope
     * @throws IOException if the operating system refuses the mapping (address space, map count)
     *     or the channel fails; the scope is unchanged
     * @throws IllegalArgumentException if {@code position} or {@code size} is out of range
     * @throws IllegalStateException if the scope is closed
     */
    public ByteBuffer map(FileChannel channel, long position, long size) throws IOException {
        ByteBuffer mapped = map(channel, FileChannel.MapMode.READ_ONLY, position, size);
        return mapped.isReadOnly() ? mapped : mapped.asReadOnlyBuffer();
    }

    /**
     * Maps part of a file into memory for writing: stores into the buffer change the file
     * (through the operating system's page cache, as a write would; {@code FileChannel.force}
     * makes them durable). The channel may be closed once this returns; the mapping lasts until
     * the scope is closed.
     *
     * @param channel a channel open for reading and writing
     * @param position where the mapped region starts in the file, at least {@code 0}
     * @param size how many bytes to map, between {@code 1} and {@link Integer#MAX_VALUE}; the
     *     region must lie inside the file (touching bytes past its end faults)
     * @return a writable buffer of exactly {@code size} bytes, owned by this scope
     * @throws IOException if the operating system refuses the mapping or the channel fails
     * @throws IllegalArgumentException if {@code position} or {@code size} is out of range
     * @throws IllegalStateException if the scope is closed
     */
    public ByteBuffer mapWritable(FileChannel channel, long position, long size) throws IOException {
        return map(channel, FileChannel.MapMode.READ_WRITE, position, size);
    }

    private ByteBuffer map(FileChannel channel, FileChannel.MapMode mode, long position, long size)
            throws IOException {
        if (position < 0 || size <= 0 || size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("cannot map " + size + " bytes at position " + position);
        }
        lock.lock();
        try {
            checkOpen();
            if (mechanism == Mechanism.FOREIGN) {
                ByteBuffer mapped = ForeignMemory.map(arena(), channel, mode, position, size);
                if (mode == FileChannel.MapMode.READ_WRITE && mapped instanceof MappedByteBuffer m) {
                    writableMappings.add(m); // a mapped segment's buffer forces the segment
                }
                return mapped;
            }
            MappedByteBuffer raw = channel.map(mode, position, size);
            owned.add(raw);
            if (mode == FileChannel.MapMode.READ_WRITE) {
                writableMappings.add(raw);
            }
            return raw.duplicate();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes every page changed through this scope's writable mappings back to its file and
     * waits for the device ({@code msync}), as {@code FileChannel.force} does for writes. On
     * Linux {@code FileChannel.force} covers mapped pages too; elsewhere only this does.
     *
     * @throws IOException if the write-back fails
     * @throws IllegalStateException if the scope is closed
     */
    public void force() throws IOException {
        lock.lock();
        try {
            checkOpen();
            try {
                for (MappedByteBuffer m : writableMappings) {
                    m.force();
                }
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Releases everything this scope allocated or mapped. Requires: no thread uses any of its
     * buffers any more. Closing twice is harmless.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (arena != null) {
                ForeignMemory.closeArena(arena);
                arena = null;
            }
            writableMappings.clear();
            for (ByteBuffer raw : owned) {
                release(raw);
            }
            owned.clear();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Tells whether {@link #close()} has been called.
     *
     * @return {@code true} once closed
     */
    public boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    /** Names this scope's mechanism, for tests. */
    String mechanism() {
        return mechanism.description;
    }

    private AutoCloseable arena() {
        if (arena == null) {
            arena = ForeignMemory.openArena();
        }
        return arena;
    }

    private void release(ByteBuffer raw) {
        if (mechanism == Mechanism.CLEANER) {
            UnsafeCleaner.release(raw);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("memory scope is closed");
        }
    }

    @Override
    public String toString() {
        return "MemoryScope[" + mechanism.description + (isClosed() ? ", closed]" : "]");
    }
}
