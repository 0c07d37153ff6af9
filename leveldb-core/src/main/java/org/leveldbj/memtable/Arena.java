package org.leveldbj.memtable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import org.leveldbj.util.MemoryScope;
import org.leveldbj.util.NativeMemory;

/**
 * Off-heap memory for one memtable: a bump allocator over direct-buffer chunks that is freed as
 * a whole by {@link #close()}.
 *
 * <p>Chunks: regular chunks are filled front to back. The first has
 * {@link #INITIAL_CHUNK_SIZE} bytes (or {@link #chunkSize()} if smaller) and each next one twice
 * the previous, up to {@link #chunkSize()}: a memtable that stays small (a database written
 * little, or many databases in one process) holds kilobytes, not a full chunk. A
 * request that does not fit in the rest of the current chunk gets a dedicated chunk of its own
 * (rounded up to a multiple of 8) when it is larger than a quarter of the chunk size, and the
 * current chunk stays current; a smaller one retires the current chunk and starts a new one, so
 * at most a quarter chunk is wasted per regular chunk. Every chunk is zero-filled, little-endian and starts at an
 * 8-byte aligned native address.
 *
 * <p>Addresses: an allocation is named by a {@code long} address, {@code chunkIndex << 32 |
 * offset}; {@link #buffer(long)} and {@link #offset(long)} take it apart. Offset 0 of chunk 0 is
 * never handed out, so {@link #NULL} (0) can stand for "no address".
 *
 * <p>Memory usage: {@link #memoryUsage()} counts every retired or dedicated chunk in full and
 * the chunk being filled up to its allocation point, so it grows smoothly with the data instead
 * of in chunk-sized steps; {@link #reservedBytes()} counts every chunk in full (the direct memory
 * actually held).
 *
 * <p>Thread safety / invariants:
 * <ul>
 *   <li>Allocation and {@link #close()} require external synchronization: one writer allocates,
 *       and the owner closes once no reader remains.</li>
 *   <li>Any number of threads may read memory and call {@link #memoryUsage()},
 *       {@link #reservedBytes()} and {@link #buffer(long)} concurrently with the writer. The
 *       chunk table is published through a volatile field after the new chunk is stored in it,
 *       so a reader that learned an address through an acquire read (for instance a skiplist
 *       pointer the writer stored with release semantics after allocating) always finds the
 *       chunk holding it.</li>
 *   <li>The arena does not order accesses to the bytes it hands out; callers publish what they
 *       write with {@link #setLongRelease} and read it back with {@link #getLongAcquire}, on
 *       8-byte aligned addresses ({@link #allocateAligned(int)}).</li>
 * </ul>
 *
 * <p>Lifetime: {@link #close()} frees every chunk at once: the chunks come from one
 * {@link MemoryScope}, and {@link NativeMemory} documents how it releases memory on each JDK.
 * Afterwards {@link #buffer(long)} throws {@link IllegalStateException}; a buffer obtained before
 * the close must not be touched (on JDK 22 and later that throws too, on older JDKs it would read
 * freed memory).
 */
public final class Arena implements AutoCloseable {
    /** The default size of a regular chunk: 1 MiB. */
    public static final int DEFAULT_CHUNK_SIZE = 1 << 20;
    /** The smallest chunk size accepted. */
    public static final int MIN_CHUNK_SIZE = 256;
    /** The size of the first regular chunk, when the chunk size is larger. */
    public static final int INITIAL_CHUNK_SIZE = 16 << 10;
    /** The largest allocation accepted: the largest aligned size a direct buffer can have. */
    public static final int MAX_ALLOCATION = MemoryScope.MAX_ALLOCATION;
    /** The address that names no allocation. */
    public static final long NULL = 0;

    private static final VarHandle LONGS =
            MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle MEMORY_USAGE;
    private static final ByteBuffer[] CLOSED = new ByteBuffer[0];

    static {
        try {
            MEMORY_USAGE = MethodHandles.lookup().findVarHandle(Arena.class, "memoryUsage", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int chunkSize;
    /** Owns every chunk. */
    private final MemoryScope memory;

    // Writer state: touched only by the single writer (and close()).
    /** The chunk table; {@link #chunks} is republished whenever an element is added. */
    private ByteBuffer[] table = new ByteBuffer[8];
    private int chunkCount;
    /** Index of the regular chunk being filled. */
    private int current;
    /** Size of the regular chunk being filled. */
    private int currentSize;
    /** Allocation point in the current chunk. */
    private int next;
    /** Bytes of retired regular chunks and of dedicated chunks. */
    private long fullChunkBytes;
    private long reserved;

    // Published state: read by any thread.
    /** The chunk table as readers see it; {@link #CLOSED} once closed. */
    private volatile ByteBuffer[] chunks;
    /** Written by the writer with release semantics, read with acquire semantics. */
    private long memoryUsage;
    private volatile long reservedPublished;

    /** Creates an arena with chunks of {@link #DEFAULT_CHUNK_SIZE} bytes. */
    public Arena() {
        this(DEFAULT_CHUNK_SIZE);
    }

    /**
     * Creates an arena and allocates its first chunk.
     *
     * @param chunkSize the size of a regular chunk: a multiple of 8, at least
     *     {@link #MIN_CHUNK_SIZE}
     * @throws IllegalArgumentException if {@code chunkSize} is not acceptable
     */
    public Arena(int chunkSize) {
        if (chunkSize < MIN_CHUNK_SIZE || chunkSize % Long.BYTES != 0) {
            throw new IllegalArgumentException("chunk size " + chunkSize + " is not a multiple of 8 of at least "
                    + MIN_CHUNK_SIZE);
        }
        this.chunkSize = chunkSize;
        this.memory = NativeMemory.open();
        this.currentSize = Math.min(chunkSize, INITIAL_CHUNK_SIZE);
        this.current = addChunk(currentSize);
        this.next = Long.BYTES; // offset 0 of chunk 0 would be NULL
        publishUsage();
    }

    /**
     * The size regular chunks grow to.
     *
     * @return bytes per regular chunk, once grown
     */
    public int chunkSize() {
        return chunkSize;
    }

    /**
     * Allocates {@code bytes} bytes with no alignment. Requires: the single writer;
     * {@code 0 < bytes <= MAX_ALLOCATION}.
     *
     * @param bytes how many bytes
     * @return the address of the first byte; the bytes are zero
     * @throws IllegalArgumentException if {@code bytes} is out of range
     * @throws IllegalStateException if the arena is closed
     */
    public long allocate(int bytes) {
        return allocate(bytes, 1);
    }

    /**
     * Allocates {@code bytes} bytes starting at an 8-byte aligned address, suitable for 8-byte
     * fields accessed with acquire/release semantics. Requires: the single writer;
     * {@code 0 < bytes <= MAX_ALLOCATION}.
     *
     * @param bytes how many bytes
     * @return the address of the first byte; the bytes are zero
     * @throws IllegalArgumentException if {@code bytes} is out of range
     * @throws IllegalStateException if the arena is closed
     */
    public long allocateAligned(int bytes) {
        return allocate(bytes, Long.BYTES);
    }

    private long allocate(int bytes, int alignment) {
        if (bytes <= 0 || bytes > MAX_ALLOCATION) {
            throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        }
        checkOpen();
        int start = (next + alignment - 1) & -alignment;
        if (bytes <= currentSize - start) {
            next = start + bytes;
            publishUsage();
            return address(current, start);
        }
        if (bytes > chunkSize / 4) {
            int rounded = (bytes + Long.BYTES - 1) & -Long.BYTES;
            int dedicated = addChunk(rounded);
            fullChunkBytes += rounded;
            publishUsage();
            return address(dedicated, 0);
        }
        fullChunkBytes += currentSize;
        // Twice the last, at least what is asked (at most a quarter of the largest), at most the chunk size.
        currentSize = Math.min(chunkSize, Math.max(currentSize * 2, Integer.highestOneBit(bytes - 1) << 1));
        current = addChunk(currentSize);
        next = bytes;
        publishUsage();
        return address(current, 0);
    }

    private int addChunk(int size) {
        ByteBuffer chunk = memory.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        assert chunk.alignmentOffset(0, Long.BYTES) == 0 && chunk.capacity() == size;
        if (chunkCount == table.length) {
            table = Arrays.copyOf(table, table.length * 2);
        }
        int index = chunkCount++;
        table[index] = chunk;
        reserved += size;
        reservedPublished = reserved;
        chunks = table; // volatile write: publishes the element stored above
        return index;
    }

    private void publishUsage() {
        MEMORY_USAGE.setRelease(this, fullChunkBytes + next);
    }

    private static long address(int chunk, int offset) {
        return ((long) chunk << 32) | offset;
    }

    /**
     * The buffer of the chunk holding an address. Absolute reads and writes on it must stay
     * inside the allocation; the buffer's position and limit must not be changed.
     *
     * @param address an address returned by this arena
     * @return the chunk's buffer
     * @throws IllegalStateException if the arena is closed
     */
    public ByteBuffer buffer(long address) {
        ByteBuffer[] c = chunks;
        int index = (int) (address >>> 32);
        if (index >= c.length) {
            throw new IllegalStateException(c == CLOSED ? "arena is closed" : "bad arena address " + address);
        }
        return c[index];
    }

    /**
     * The index of an address inside its chunk's buffer.
     *
     * @param address an address returned by an arena
     * @return the offset in {@link #buffer(long)}
     */
    public static int offset(long address) {
        return (int) address;
    }

    /**
     * Reads an 8-byte little-endian field with acquire semantics.
     *
     * <p>Requires: {@code index} is a multiple of 8 inside an allocation of {@code buffer}.
     *
     * @param buffer a chunk buffer of an arena
     * @param index the absolute index of the field
     * @return the value
     */
    public static long getLongAcquire(ByteBuffer buffer, int index) {
        return (long) LONGS.getAcquire(buffer, index);
    }

    /**
     * Writes an 8-byte little-endian field with release semantics: every write the caller made
     * before is visible to a thread that reads this value with {@link #getLongAcquire}.
     *
     * <p>Requires: {@code index} is a multiple of 8 inside an allocation of {@code buffer}.
     *
     * @param buffer a chunk buffer of an arena
     * @param index the absolute index of the field
     * @param value the value
     */
    public static void setLongRelease(ByteBuffer buffer, int index, long value) {
        LONGS.setRelease(buffer, index, value);
    }

    /**
     * Writes an 8-byte little-endian field with no ordering, for memory not yet published.
     *
     * <p>Requires: {@code index} is a multiple of 8 inside an allocation of {@code buffer}.
     *
     * @param buffer a chunk buffer of an arena
     * @param index the absolute index of the field
     * @param value the value
     */
    public static void setLongPlain(ByteBuffer buffer, int index, long value) {
        LONGS.set(buffer, index, value);
    }

    /**
     * The approximate memory held for the data: see the class documentation. Any thread.
     *
     * @return bytes
     */
    public long memoryUsage() {
        return (long) MEMORY_USAGE.getAcquire(this);
    }

    /**
     * The direct memory held: every chunk in full. Any thread.
     *
     * @return bytes
     */
    public long reservedBytes() {
        return reservedPublished;
    }

    /**
     * The number of chunks allocated so far (regular and dedicated). Requires: the writer.
     *
     * @return the chunk count
     */
    int chunkCount() {
        return chunkCount;
    }

    /**
     * Tells whether {@link #close()} frees memory at once on this JVM (for tests).
     *
     * @return {@code false} only when memory is left to the garbage collector
     */
    boolean releasesDeterministically() {
        return NativeMemory.releasesOnClose();
    }

    /**
     * Names how this arena's memory is allocated and freed (for messages and tests).
     *
     * @return e.g. {@code "java.lang.foreign shared arena"}
     */
    String memoryMechanism() {
        return NativeMemory.mechanism();
    }

    /**
     * Tells whether the arena is closed. Any thread.
     *
     * @return {@code true} after {@link #close()}
     */
    public boolean isClosed() {
        return chunks == CLOSED;
    }

    private void checkOpen() {
        if (chunks == CLOSED) {
            throw new IllegalStateException("arena is closed");
        }
    }

    /**
     * Frees every chunk. Requires: no writer and no reader is using the arena any more (the
     * memtable's reference count guarantees it). Closing twice is harmless.
     */
    @Override
    public void close() {
        if (chunks == CLOSED) {
            return;
        }
        chunks = CLOSED;
        Arrays.fill(table, null);
        memory.close();
    }
}
