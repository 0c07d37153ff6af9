package org.leveldbj.benchmark;

import java.nio.ByteBuffer;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDBIterator;

/**
 * The scans of {@code --scan=buffers}: each entry's key and value copied into two buffers the
 * scan reuses ({@link ExtendedDBIterator#key(ByteBuffer)} and
 * {@link ExtendedDBIterator#value(ByteBuffer)}) instead of the two new arrays of
 * {@link DBIterator#next()}; a buffer too small for an entry is replaced by one that fits, and
 * the entry read again. Confined to the scanning thread.
 */
final class ScanBuffers {
    private final ExtendedDBIterator it;
    private ByteBuffer key = ByteBuffer.allocate(256);
    private ByteBuffer value = ByteBuffer.allocate(4096);

    private ScanBuffers(ExtendedDBIterator it) {
        this.it = it;
    }

    /**
     * The buffers of a scan, or {@code null} when the run scans entries ({@code --scan=entries}).
     *
     * @throws UnsupportedOperationException if the run asks for buffers and the implementation's
     *     iterator has none (a peer)
     */
    static ScanBuffers of(WorkloadContext context, DBIterator it) {
        if (!context.scanIntoBuffers) {
            return null;
        }
        if (!(it instanceof ExtendedDBIterator extended)) {
            throw new UnsupportedOperationException("--scan=buffers needs an ExtendedDBIterator (leveldbj)");
        }
        return new ScanBuffers(extended);
    }

    /** Reads the entry under the cursor into the buffers; returns its key and value bytes. */
    long read() {
        int keyLength = it.key(key.clear());
        if (keyLength > key.capacity()) {
            key = ByteBuffer.allocate(keyLength);
            it.key(key);
        }
        int valueLength = it.value(value.clear());
        if (valueLength > value.capacity()) {
            value = ByteBuffer.allocate(valueLength);
            it.value(value);
        }
        return (long) keyLength + valueLength;
    }

    /** Reads up to {@code steps} entries forward; tells whether the scan may go on. */
    boolean forward(int steps, ThreadState thread) {
        long bytes = 0;
        boolean more = true;
        for (int i = 0; i < steps; i++) {
            if (!it.hasNext()) {
                more = false;
                break;
            }
            bytes += read();
            it.moveNext();
            thread.stats.finishedSingleOp();
        }
        thread.stats.addBytes(bytes);
        return more;
    }

    /** Reads up to {@code steps} entries backward; tells whether the scan may go on. */
    boolean backward(int steps, ThreadState thread) {
        long bytes = 0;
        boolean more = true;
        for (int i = 0; i < steps; i++) {
            if (!it.hasPrev()) {
                more = false;
                break;
            }
            it.movePrev();
            bytes += read();
            thread.stats.finishedSingleOp();
        }
        thread.stats.addBytes(bytes);
        return more;
    }
}
