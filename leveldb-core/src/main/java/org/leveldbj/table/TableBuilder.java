package org.leveldbj.table;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.Coding;
import org.leveldbj.util.Crc32c;

/**
 * Writes a table file: data blocks closed at about {@link TableOptions#blockSize()}, then the
 * filter block (if a filter policy is set), the prefix filter block (if
 * {@link TableOptions#prefixFilter()} is set), the metaindex block, the index block and the footer
 * (layout in the package documentation). Each index entry's key is a short separator between
 * the last key of its block and the first key of the next ({@link
 * org.leveldbj.comparator.KeyComparator#findShortestSeparator}), or a short successor of the table's last key.
 *
 * <p>Protocol: {@link #add} entries in increasing key order, then {@link #finish()} (the file is
 * complete) or {@link #abandon()} (the caller deletes it). The builder does not sync or close
 * the file; the caller does.
 *
 * <p>Errors: an {@link IOException} from the file is thrown and remembered; every later call
 * throws it again.
 *
 * <p>Thread safety: confined to one thread.
 */
public final class TableBuilder {
    private final TableOptions options;
    private final Env.WritableFile file;
    private final BlockBuilder dataBlock;
    private final BlockBuilder indexBlock;
    private final FilterBlockBuilder filterBlock;
    private final FilterBlockBuilder prefixBlock;
    private final ByteSink compressed = new ByteSink(4096);
    private final byte[] trailer = new byte[BlockReader.TRAILER_SIZE];

    private long offset;
    private long entries;
    private boolean closed;
    private IOException failure;

    /** The last key added. */
    private byte[] lastKey = new byte[64];
    private int lastKeyLength;
    /** Set when a data block was written and its index entry awaits the next block's first key. */
    private boolean pendingIndexEntry;
    private BlockHandle pendingHandle;

    /**
     * Starts a table.
     *
     * @param options the settings (comparator, block size, restart interval, compression,
     *     filter)
     * @param file the empty file to write; owned by the caller
     */
    public TableBuilder(TableOptions options, Env.WritableFile file) {
        this.options = options;
        this.file = file;
        this.dataBlock = new BlockBuilder(options.blockRestartInterval(), options.comparator());
        this.indexBlock = new BlockBuilder(1, options.comparator());
        if (options.filterPolicy() != null) {
            filterBlock = new FilterBlockBuilder(options.filterPolicy(), options.filterKeyExtractor());
            filterBlock.startBlock(0);
        } else {
            filterBlock = null;
        }
        if (options.prefixFilter() != null) {
            prefixBlock = new FilterBlockBuilder(options.prefixFilter().policy(), FilterKeyExtractor.WHOLE_KEY);
            prefixBlock.startBlock(0);
        } else {
            prefixBlock = null;
        }
    }

    /**
     * Adds an entry. Requires: not finished or abandoned, and {@code key} after every key added
     * before in the comparator's order.
     *
     * @param key the key (remaining bytes; position not moved)
     * @param value the value (remaining bytes; position not moved)
     * @throws IOException if writing a finished block fails
     */
    public void add(ByteBuffer key, ByteBuffer value) throws IOException {
        assert !closed : "table already finished or abandoned";
        checkFailure();
        int keyLength = key.remaining();
        assert entries == 0 || options.comparator().compare(key, key.position(), keyLength,
                ByteBuffer.wrap(lastKey), 0, lastKeyLength) > 0 : "keys must be added in increasing order";
        if (pendingIndexEntry) {
            assert dataBlock.isEmpty();
            byte[] separator = options.comparator().findShortestSeparator(
                    Arrays.copyOf(lastKey, lastKeyLength), toArray(key));
            addIndexEntry(separator);
        }
        if (filterBlock != null) {
            filterBlock.addKey(key);
        }
        if (prefixBlock != null) {
            int n = options.prefixFilter().prefixLength(key);
            if (n >= 0) {
                prefixBlock.addPart(key, key.position(), n);
            }
        }
        if (lastKey.length < keyLength) {
            lastKey = new byte[Math.max(keyLength, 2 * lastKey.length)];
        }
        key.get(key.position(), lastKey, 0, keyLength);
        lastKeyLength = keyLength;
        entries++;
        dataBlock.add(key, value);
        if (dataBlock.currentSizeEstimate() >= options.blockSize()) {
            flush();
        }
    }

    /**
     * Adds an entry held in arrays; see {@link #add(ByteBuffer, ByteBuffer)}.
     *
     * @param key the key
     * @param value the value
     * @throws IOException if writing a finished block fails
     */
    public void add(byte[] key, byte[] value) throws IOException {
        add(ByteBuffer.wrap(key), ByteBuffer.wrap(value));
    }

    /**
     * Closes the current data block, if it has entries, and appends it to the file. The file's
     * own buffering decides when bytes reach the operating system (a table is synced once, when
     * it is complete), so a table is written in large chunks rather than a system call per
     * block. Requires: not finished or abandoned.
     *
     * @throws IOException if writing fails
     */
    public void flush() throws IOException {
        assert !closed : "table already finished or abandoned";
        checkFailure();
        if (dataBlock.isEmpty()) {
            return;
        }
        assert !pendingIndexEntry;
        pendingHandle = writeBlock(dataBlock);
        pendingIndexEntry = true;
        if (filterBlock != null) {
            filterBlock.startBlock(offset);
        }
        if (prefixBlock != null) {
            prefixBlock.startBlock(offset);
        }
    }

    /**
     * Writes the last data block, the filter, metaindex and index blocks and the footer.
     * Requires: not finished or abandoned. Afterwards {@link #fileSize()} is the file's size.
     *
     * @throws IOException if writing fails
     */
    public void finish() throws IOException {
        flush();
        closed = true;
        BlockHandle filterHandle = null;
        if (filterBlock != null) {
            filterHandle = writeRawBlock(filterBlock.finish(), BlockCompression.NONE);
        }
        BlockHandle prefixHandle = null;
        if (prefixBlock != null) {
            prefixHandle = writeRawBlock(prefixBlock.finish(), BlockCompression.NONE);
        }
        BlockBuilder metaindex = new BlockBuilder(options.blockRestartInterval(), BytewiseComparator.INSTANCE);
        // Metaindex keys in byte-wise order: "filter." sorts before "leveldbj.prefix.".
        if (filterHandle != null) {
            byte[] name = ("filter." + options.filterPolicy().name()).getBytes(StandardCharsets.UTF_8);
            metaindex.add(name, filterHandle.encode());
        }
        if (prefixHandle != null) {
            metaindex.add(options.prefixFilter().metaindexKey(), prefixHandle.encode());
        }
        BlockHandle metaindexHandle = writeBlock(metaindex);
        if (pendingIndexEntry) {
            addIndexEntry(options.comparator().findShortSuccessor(Arrays.copyOf(lastKey, lastKeyLength)));
        }
        BlockHandle indexHandle = writeBlock(indexBlock);
        byte[] footer = new Footer(metaindexHandle, indexHandle).encode();
        append(ByteBuffer.wrap(footer));
        offset += footer.length;
    }

    /** Gives up on the table; the caller deletes the file. Requires: not finished or abandoned. */
    public void abandon() {
        assert !closed : "table already finished or abandoned";
        closed = true;
    }

    /**
     * The number of entries added.
     *
     * @return the entry count
     */
    public long numEntries() {
        return entries;
    }

    /**
     * The last key added.
     *
     * @return a copy, empty when nothing was added
     */
    public byte[] lastKey() {
        return Arrays.copyOf(lastKey, lastKeyLength);
    }

    /**
     * The number of bytes written so far; after {@link #finish()}, the file's size.
     *
     * @return the size in bytes
     */
    public long fileSize() {
        return offset;
    }

    private void addIndexEntry(byte[] key) {
        ByteSink handle = new ByteSink(BlockHandle.MAX_ENCODED_LENGTH);
        pendingHandle.encodeTo(handle);
        indexBlock.add(ByteBuffer.wrap(key), handle.view());
        pendingIndexEntry = false;
    }

    /**
     * Finishes a block, compresses it if that pays (saving at least an eighth, as C++ LevelDB
     * requires), writes it and resets the builder.
     *
     * @throws DBException if the options ask for a codec that has no usable implementation
     */
    private BlockHandle writeBlock(BlockBuilder block) throws IOException {
        ByteBuffer raw = block.finish();
        int type = options.compressionType();
        ByteBuffer contents = raw;
        if (type != BlockCompression.NONE) {
            int n = raw.remaining();
            BlockCompression.compress(type, raw.array(), n, compressed);
            if (compressed.length() < n - n / 8) {
                contents = compressed.view();
            } else {
                type = BlockCompression.NONE;
            }
        }
        BlockHandle handle = writeRawBlock(contents, type);
        compressed.reset();
        block.reset();
        return handle;
    }

    /** Writes block contents and their trailer (type byte and masked CRC32C of both). */
    private BlockHandle writeRawBlock(ByteBuffer contents, int type) throws IOException {
        BlockHandle handle = new BlockHandle(offset, contents.remaining());
        CRC32C crc = new CRC32C();
        crc.update(contents.duplicate());
        crc.update(type);
        trailer[0] = (byte) type;
        Coding.putFixed32(trailer, 1, Crc32c.mask((int) crc.getValue()));
        append(contents);
        append(ByteBuffer.wrap(trailer));
        offset += handle.size() + BlockReader.TRAILER_SIZE;
        return handle;
    }

    private void append(ByteBuffer data) throws IOException {
        try {
            file.append(data);
        } catch (IOException e) {
            throw fail(e);
        }
    }

    private IOException fail(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }

    private void checkFailure() throws IOException {
        if (failure != null) {
            throw new IOException("table builder failed earlier: " + failure.getMessage(), failure);
        }
    }

    private static byte[] toArray(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(b.position(), out);
        return out;
    }
}
