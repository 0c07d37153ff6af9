package org.leveldbj.env;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.Locale;
import org.iq80.leveldb.Env;
import org.leveldbj.util.MemoryScope;
import org.leveldbj.util.NativeMemory;

/**
 * A write-ahead log written through a memory mapping: an append is a copy into the mapped
 * region, so every record reaches the operating system's page cache (and survives the death of
 * the process) without a system call per record, which is what a buffered file would need to
 * give the same guarantee.
 *
 * <p>Layout on disk while open: the file is extended ahead of the data, in regions of
 * {@link #FIRST_REGION} bytes doubling up to {@link #MAX_REGION}, by writing zeros (so the
 * blocks are allocated and a full disk shows up as an {@link IOException} from the write
 * rather than as a fault on a mapped page). The bytes past the appended data are therefore
 * zeros, which the log format reads as preallocated space and skips (as C++ LevelDB's reader
 * does). {@link #close()} truncates the file to the bytes appended; after a crash the zero tail
 * stays and is harmless.
 *
 * <p>How the zeros are written decides what a sync costs: the kernel caches a large write in
 * large page-cache units (folios, on Linux 6.x's ext4), and a sync writes the whole of every unit
 * a record touched. The first region, and every region after one in which the log was synced,
 * is therefore filled a page at a time ({@link #SYNCED_FILL_CHUNK}), so that a synced record
 * costs the device a page; a log that is not being synced gets its zeros in
 * {@link #FILL_CHUNK}-byte writes, 16 times fewer system calls. (Measured on Linux 6.18, ext4, a
 * 128-byte record and a sync at a time through a 1 MiB mapping: 82-84 microseconds with the
 * region filled a page at a time, 93-95 with 64 KiB writes, 230-250 with one 1 MiB write.)
 *
 * <p>Durability: {@link #flush()} has nothing to do. {@link #sync()} forces the channel
 * ({@code fdatasync}): on Linux the page cache is one, so that writes every page dirtied through
 * the mapping, and the file's length, with one device flush. Elsewhere it first forces the
 * current mapping ({@code msync}), since only that is sure to cover mapped pages there; on
 * Linux that {@code msync} would be a second full sync of the file (a second device flush).
 *
 * <p>Thread safety: not safe for concurrent use; one thread writes at a time.
 *
 * <p>Lifetime: {@link #close()} unmaps, truncates and closes; it is idempotent, and later calls
 * throw an {@link IOException} naming the file. A failure while extending or mapping leaves the
 * file unusable: every later call throws.
 */
final class MappedLogFile implements Env.WritableFile {
    /**
     * The size of the first mapped region: small, since it is filled a page at a time and a
     * small database's log (opened, written a little, closed) may never need more.
     */
    static final int FIRST_REGION = 16 << 10;
    /** The largest mapped region. */
    static final int MAX_REGION = 1 << 20;
    /** The size of each write of zeros extending a log that is not being synced. */
    static final int FILL_CHUNK = 64 << 10;
    /** The size of each write of zeros extending a log that is synced: one page. */
    static final int SYNCED_FILL_CHUNK = 4 << 10;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(FILL_CHUNK).asReadOnlyBuffer();
    /** Whether {@code fdatasync} alone writes pages dirtied through a mapping. */
    private static final boolean LINUX =
            System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux");

    private final Path file;
    private final FileChannel channel;
    /** Bytes appended so far: the file's logical length. */
    private long size;
    /** Owns the current region's mapping, or null when none is mapped. */
    private MemoryScope scope;
    /** The current region, positioned at the next byte to write. */
    private ByteBuffer region;
    /** The size of the next region to map. */
    private int nextRegionSize = FIRST_REGION;
    /** Whether the next region is filled a page at a time: first, and after a sync. */
    private boolean fillByPage = true;
    private IOException failure;
    private boolean closed;

    /**
     * Takes over an open channel on an empty file.
     *
     * @param file the file, for messages
     * @param channel a channel open for reading and writing, owned by this object from now on
     */
    MappedLogFile(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    @Override
    public void append(ByteBuffer data) throws IOException {
        ensureUsable();
        try {
            while (data.hasRemaining()) {
                if (region == null || !region.hasRemaining()) {
                    mapNextRegion();
                }
                int n = Math.min(data.remaining(), region.remaining());
                region.put(region.position(), data, data.position(), n);
                region.position(region.position() + n);
                data.position(data.position() + n);
                size += n;
            }
        } catch (InternalError e) {
            // The JVM reports a fault on a mapped page (the file was truncated behind our back,
            // or the device failed) this way.
            throw fail(new IOException("fault writing mapped log at offset " + size, e));
        }
    }

    @Override
    public void flush() throws IOException {
        ensureUsable();
    }

    @Override
    public void sync() throws IOException {
        ensureUsable();
        try {
            if (scope != null && !LINUX) {
                scope.force();
            }
            channel.force(false);
            fillByPage = true;
        } catch (IOException e) {
            throw fail(IoErrors.withPath(file, e));
        }
    }

    /** The size of the writes of zeros that will extend the file by the next region. */
    int nextFillChunk() {
        return fillByPage ? SYNCED_FILL_CHUNK : FILL_CHUNK;
    }

    /** Unmaps the current region, extends the file by the next one and maps it. */
    private void mapNextRegion() throws IOException {
        unmap();
        long start = size;
        int length = nextRegionSize;
        nextRegionSize = Math.min(MAX_REGION, nextRegionSize * 2);
        int chunk = nextFillChunk();
        fillByPage = false;
        try {
            for (long p = start; p < start + length; ) {
                ByteBuffer zeros = ZEROS.duplicate().limit((int) Math.min(chunk, start + length - p));
                p += channel.write(zeros, p);
            }
            MemoryScope s = NativeMemory.open();
            try {
                region = s.mapWritable(channel, start, length);
            } catch (IOException | RuntimeException e) {
                s.close();
                throw e;
            }
            scope = s;
        } catch (IOException e) {
            throw fail(IoErrors.withPath(file, e));
        }
    }

    private void unmap() {
        if (scope != null) {
            region = null;
            scope.close();
            scope = null;
        }
    }

    private IOException fail(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }

    private void ensureUsable() throws IOException {
        if (closed) {
            throw IoErrors.closed(file);
        }
        if (failure != null) {
            throw new IOException(file + ": unusable after an earlier failure: " + failure.getMessage(), failure);
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        unmap();
        IOException error = null;
        try {
            channel.truncate(size);
        } catch (IOException e) {
            error = IoErrors.withPath(file, e);
        }
        try {
            channel.close();
        } catch (IOException e) {
            if (error == null) {
                error = IoErrors.withPath(file, e);
            } else {
                error.addSuppressed(e);
            }
        }
        if (error != null) {
            throw error;
        }
    }

    @Override
    public String toString() {
        return "MappedLogFile[" + file + ", size=" + size + "]";
    }
}
