package org.leveldbj.compress;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * The kinds of buffers codecs must accept, each placing the bytes at a non-zero position among
 * guard bytes so that reads and writes outside position..limit are caught.
 *
 * <p>Thread safety: immutable.
 */
enum BufferKind {
    HEAP,
    /** A heap slice with a non-zero array offset as well as a non-zero position. */
    HEAP_OFFSET,
    READ_ONLY_HEAP,
    DIRECT,
    /** Like a slice of a read-only memory-mapped file. */
    READ_ONLY_DIRECT;

    static final List<BufferKind> WRITABLE = List.of(HEAP, HEAP_OFFSET, DIRECT);

    static final byte GUARD = (byte) 0xA5;
    static final int LEAD = 7;
    static final int TRAIL = 11;

    /** A buffer whose remaining bytes are {@code data}, surrounded by guard bytes. */
    ByteBuffer holding(byte[] data) {
        ByteBuffer buffer = allocate(data.length);
        buffer.duplicate().put(data);
        return this == READ_ONLY_HEAP || this == READ_ONLY_DIRECT ? buffer.asReadOnlyBuffer() : buffer;
    }

    /** A writable buffer with {@code length} bytes remaining, all guards around and inside. */
    ByteBuffer allocate(int length) {
        int capacity = LEAD + length + TRAIL;
        ByteBuffer whole;
        switch (this) {
            case HEAP:
            case READ_ONLY_HEAP:
                whole = ByteBuffer.allocate(capacity);
                break;
            case HEAP_OFFSET:
                whole = ByteBuffer.wrap(new byte[capacity + 3], 3, capacity).slice();
                break;
            default:
                whole = ByteBuffer.allocateDirect(capacity);
                break;
        }
        byte[] guards = new byte[capacity];
        Arrays.fill(guards, GUARD);
        whole.put(guards).clear();
        return whole.position(LEAD).limit(LEAD + length);
    }

    /** Whether bytes outside [LEAD, LEAD + written) of a buffer from {@link #allocate} are intact. */
    static boolean guardsIntact(ByteBuffer buffer, int written) {
        ByteBuffer whole = buffer.duplicate().clear();
        for (int i = 0; i < whole.capacity(); i++) {
            boolean inside = i >= LEAD && i < LEAD + written;
            if (!inside && whole.get(i) != GUARD) {
                return false;
            }
        }
        return true;
    }
}
