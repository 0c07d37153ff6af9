package org.leveldbj.table;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
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
 * {@link TableOptions#prefixFilter()} is set), the stats block (if
 * {@link TableOptions#entryClassifier()} is set: the entries and deletions added and the distinct
 * user keys among them, see {@link StatsBlock} and {@link KeyCounts}), the metaindex block, the
 * index block and the footer (layout in the package documentation). Each index entry's key is a short separator between
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
 * <p>Compression on another thread: built with an {@link Executor}, the builder gathers closed
 * data blocks into batches of about {@value #BATCH_BYTES} bytes, hands each batch to the
 * executor to be compressed, and goes on with the next blocks. Batches are written in order, at
 * most {@value #MAX_PENDING_BATCHES} waiting (the oldest is written first, waiting for its
 * compression when needed). The filters get each block's keys when the block is written, so
 * the file is byte for byte the one built without the executor. {@link #fileSize()} then counts
 * only the blocks written so far, until {@link #finish()}.
 *
 * <p>Thread safety: confined to one thread (a compression task touches only its own batch).
 */
public final class TableBuilder {
    /** Raw bytes of data blocks per compression task: enough work to outweigh handing it over. */
    static final int BATCH_BYTES = 512 << 10;
    /** Batches closed and not yet written, at most. */
    static final int MAX_PENDING_BATCHES = 3;

    private final TableOptions options;
    private final Env.WritableFile file;
    private final BlockBuilder dataBlock;
    private final BlockBuilder indexBlock;
    private final FilterBlockBuilder filterBlock;
    private final FilterBlockBuilder prefixBlock;
    private final ByteSink compressed = new ByteSink(4096);
    private final byte[] trailer = new byte[BlockReader.TRAILER_SIZE];
    /** Where data blocks are compressed, or {@code null}: on this thread, as they close. */
    private final Executor compressor;
    /** With a compressor: batches handed to it and not yet written, oldest first. */
    private final ArrayDeque<Batch> pending = new ArrayDeque<>();
    /** With a compressor: the closed blocks not yet handed over. */
    private List<ClosedBlock> gathering = new ArrayList<>();
    private int gatheredBytes;
    /** With a compressor: the keys of the data block being built, for the filters. */
    private final ByteSink blockKeys = new ByteSink(4096);
    private int[] blockKeyStarts = new int[64];
    private int blockKeyCount;

    /** A closed data block: its raw contents, its keys (for the filters) and its index key. */
    private static final class ClosedBlock {
        final byte[] raw;
        final byte[] keys;
        final int[] keyStarts;
        final int keyCount;
        /** The block's index key, once the next block's first key is known. */
        byte[] indexKey;
        /** Set by the compression task: the contents as stored, and their compression type. */
        ByteBuffer stored;
        int type;

        ClosedBlock(byte[] raw, byte[] keys, int[] keyStarts, int keyCount) {
            this.raw = raw;
            this.keys = keys;
            this.keyStarts = keyStarts;
            this.keyCount = keyCount;
        }
    }

    /** Blocks compressed by one task. */
    private record Batch(List<ClosedBlock> blocks, CompletableFuture<Void> compressed) {
    }

    private long offset;
    private long entries;
    /** The entries the classifier called deletions (0 without one). */
    private long deletions;
    /** The deletions the writer settled ({@link #settleDeletion()}). */
    private long settledDeletions;
    private final EntryClassifier classifier;
    /**
     * With a classifier: the distinct user keys added, those whose newest version is a value,
     * and those whose oldest version was an unsettled deletion (the current key not included:
     * its oldest version may be yet to come).
     */
    private long keys;
    private long liveKeys;
    private long tombstoneKeys;
    /** The length of the last key's user key, and whether its last version added is an unsettled deletion. */
    private int lastUserKeyLength;
    private boolean lastIsUnsettledDeletion;
    /** The share of the live keys taken to be new to the database ({@link #setNovelShare}), or NaN: all. */
    private double novelShare = Double.NaN;
    private boolean closed;
    private IOException failure;

    /** The last key added. */
    private byte[] lastKey = new byte[64];
    private ByteBuffer lastKeyView = ByteBuffer.wrap(lastKey);
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
        this(options, file, null);
    }

    /**
     * Starts a table whose data blocks are compressed on an executor's thread (see the class
     * description).
     *
     * @param options the settings (comparator, block size, restart interval, compression,
     *     filter)
     * @param file the empty file to write; owned by the caller
     * @param compressor where to compress data blocks, or {@code null} for this thread
     */
    public TableBuilder(TableOptions options, Env.WritableFile file, Executor compressor) {
        this.options = options;
        this.file = file;
        this.compressor = options.compressionType() == BlockCompression.NONE ? null : compressor;
        this.dataBlock = new BlockBuilder(options.blockRestartInterval(), options.comparator());
        this.indexBlock = new BlockBuilder(1, options.comparator());
        this.classifier = options.entryClassifier();
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
            ClosedBlock newest = newestUnwritten();
            if (newest == null) {
                addIndexEntry(separator);
            } else {
                newest.indexKey = separator;
                pendingIndexEntry = false;
            }
        }
        if (compressor == null) {
            addToFilters(key);
        } else if (filterBlock != null || prefixBlock != null) {
            if (blockKeyCount == blockKeyStarts.length) {
                blockKeyStarts = Arrays.copyOf(blockKeyStarts, 2 * blockKeyCount);
            }
            blockKeyStarts[blockKeyCount++] = blockKeys.length();
            blockKeys.put(key, key.position(), keyLength);
        }
        if (classifier != null) {
            countKey(key);
        }
        if (lastKey.length < keyLength) {
            lastKey = new byte[Math.max(keyLength, 2 * lastKey.length)];
            lastKeyView = ByteBuffer.wrap(lastKey);
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
     * Counts an entry about to be added: a deletion or not, and a new user key (compared, as
     * bytes, with the last key's, which {@link #lastKey} still holds) or another version of the
     * last one.
     */
    private void countKey(ByteBuffer key) {
        boolean deletion = classifier.isDeletion(key);
        if (deletion) {
            deletions++;
        }
        int userLength = classifier.userKeyLength(key);
        boolean sameKey = entries > 0 && userLength == lastUserKeyLength
                && BytewiseComparator.compareBytes(key, key.position(), userLength, lastKeyView, 0, userLength) == 0;
        if (!sameKey) {
            if (lastIsUnsettledDeletion) {
                tombstoneKeys++;
            }
            keys++;
            if (!deletion) {
                liveKeys++; // the first version of a key is its newest
            }
            lastUserKeyLength = userLength;
        }
        lastIsUnsettledDeletion = deletion;
    }

    private void addToFilters(ByteBuffer key) {
        if (filterBlock != null) {
            filterBlock.addKey(key);
        }
        if (prefixBlock != null) {
            int n = options.prefixFilter().prefixLength(key);
            if (n >= 0) {
                prefixBlock.addPart(key, key.position(), n);
            }
        }
    }

    /** The newest closed block not yet written, or {@code null}. */
    private ClosedBlock newestUnwritten() {
        if (!gathering.isEmpty()) {
            return gathering.get(gathering.size() - 1);
        }
        if (!pending.isEmpty()) {
            List<ClosedBlock> blocks = pending.peekLast().blocks();
            return blocks.get(blocks.size() - 1);
        }
        return null;
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
        if (compressor != null) {
            closeBlockForCompression();
            return;
        }
        pendingHandle = writeBlock(dataBlock);
        pendingIndexEntry = true;
        startFilterBlocks();
    }

    private void startFilterBlocks() {
        if (filterBlock != null) {
            filterBlock.startBlock(offset);
        }
        if (prefixBlock != null) {
            prefixBlock.startBlock(offset);
        }
    }

    /** Gathers the closed data block; hands a full batch over, writing the oldest beyond the limit. */
    private void closeBlockForCompression() throws IOException {
        ByteBuffer raw = dataBlock.finish();
        byte[] copy = Arrays.copyOfRange(raw.array(), raw.arrayOffset() + raw.position(), raw.arrayOffset() + raw.limit());
        dataBlock.reset();
        gathering.add(new ClosedBlock(copy, blockKeys.toByteArray(), Arrays.copyOf(blockKeyStarts, blockKeyCount),
                blockKeyCount));
        blockKeys.reset();
        blockKeyCount = 0;
        pendingIndexEntry = true;
        gatheredBytes += copy.length;
        if (gatheredBytes >= BATCH_BYTES) {
            handOver();
            while (pending.size() > MAX_PENDING_BATCHES) {
                writeBatch(pending.pollFirst());
            }
        }
    }

    private void handOver() {
        List<ClosedBlock> blocks = gathering;
        gathering = new ArrayList<>(blocks.size());
        gatheredBytes = 0;
        int type = options.compressionType();
        pending.addLast(new Batch(blocks, CompletableFuture.runAsync(() -> compressAll(type, blocks), compressor)));
    }

    /** Compresses each block if that saves at least an eighth (C++ LevelDB's rule), else keeps it. */
    private static void compressAll(int type, List<ClosedBlock> blocks) {
        ByteSink out = new ByteSink(4096);
        for (ClosedBlock b : blocks) {
            BlockCompression.compress(type, b.raw, b.raw.length, out);
            if (out.length() < b.raw.length - b.raw.length / 8) {
                b.stored = ByteBuffer.wrap(out.toByteArray());
                b.type = type;
            } else {
                b.stored = ByteBuffer.wrap(b.raw);
                b.type = BlockCompression.NONE;
            }
        }
    }

    /** Writes a batch's blocks in order: each block's keys to the filters, its bytes, its index entry. */
    private void writeBatch(Batch batch) throws IOException {
        try {
            batch.compressed().join(); // also orders this thread's reads after the task's writes
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
        for (ClosedBlock b : batch.blocks()) {
            for (int i = 0; i < b.keyCount; i++) {
                int end = i + 1 < b.keyCount ? b.keyStarts[i + 1] : b.keys.length;
                addToFilters(ByteBuffer.wrap(b.keys, b.keyStarts[i], end - b.keyStarts[i]));
            }
            pendingHandle = writeRawBlock(b.stored, b.type);
            startFilterBlocks();
            if (b.indexKey != null) {
                // Whether the newest closed block awaits its index key is not this block's business.
                boolean newestAwaits = pendingIndexEntry;
                addIndexEntry(b.indexKey);
                pendingIndexEntry = newestAwaits;
            }
            // Otherwise this is the newest closed block: the next add, or finish, makes its index
            // entry with pendingHandle.
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
        if (!gathering.isEmpty()) {
            handOver();
        }
        while (!pending.isEmpty()) {
            writeBatch(pending.pollFirst());
        }
        closed = true;
        BlockHandle filterHandle = null;
        if (filterBlock != null) {
            filterHandle = writeRawBlock(filterBlock.finish(), BlockCompression.NONE);
        }
        BlockHandle prefixHandle = null;
        if (prefixBlock != null) {
            prefixHandle = writeRawBlock(prefixBlock.finish(), BlockCompression.NONE);
        }
        BlockHandle statsHandle = null;
        if (classifier != null) {
            statsHandle = writeRawBlock(StatsBlock.encode(entryCounts()), BlockCompression.NONE);
        }
        BlockBuilder metaindex = new BlockBuilder(options.blockRestartInterval(), BytewiseComparator.INSTANCE);
        // Metaindex keys in byte-wise order: "filter." sorts before "leveldbj.prefix.", which
        // sorts before "leveldbj.stats".
        if (filterHandle != null) {
            byte[] name = ("filter." + options.filterPolicy().name()).getBytes(StandardCharsets.UTF_8);
            metaindex.add(name, filterHandle.encode());
        }
        if (prefixHandle != null) {
            metaindex.add(options.prefixFilter().metaindexKey(), prefixHandle.encode());
        }
        if (statsHandle != null) {
            metaindex.add(StatsBlock.KEY, statsHandle.encode());
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
     * The entries added and the deletions among them, as the stats block records them.
     *
     * @return the counts; no deletions without {@link TableOptions#entryClassifier()}
     */
    public EntryCounts entryCounts() {
        if (classifier == null) {
            return new EntryCounts(entries, deletions, settledDeletions);
        }
        KeyCounts k = new KeyCounts(keys, liveKeys, tombstoneKeys + (lastIsUnsettledDeletion ? 1 : 0), liveKeys);
        return new EntryCounts(entries, deletions, settledDeletions,
                Double.isNaN(novelShare) ? k : k.withNovelShare(novelShare));
    }

    /**
     * The distinct user keys added so far whose newest version is a value ({@link KeyCounts});
     * 0 without {@link TableOptions#entryClassifier()}.
     *
     * @return the live keys
     */
    public long liveKeys() {
        return liveKeys;
    }

    /**
     * Sets the share of the live keys that the writer takes to be new to the database (not live
     * in older data), recorded in the stats block as {@link KeyCounts#novelLiveKeys()}. Without a
     * call, every live key is taken to be new. Requires: not finished or abandoned.
     *
     * @param share the share, 0 to 1 (clamped; NaN means every key)
     */
    public void setNovelShare(double share) {
        assert !closed : "table already finished or abandoned";
        novelShare = share;
    }

    /**
     * Notes that a deletion already added hid an older value of its key that the writer dropped
     * instead of adding (see {@link EntryCounts}); at most once per deletion. Requires: not
     * finished or abandoned, and fewer settled deletions than deletions so far (asserted; the
     * counts are advisory, so a call beyond that is ignored rather than failing the table).
     */
    public void settleDeletion() {
        assert !closed : "table already finished or abandoned";
        assert settledDeletions < deletions : "settling " + (settledDeletions + 1) + " of " + deletions + " deletions";
        if (settledDeletions < deletions) {
            settledDeletions++;
            // The settled deletion is the last entry added, the current key's oldest version so far.
            lastIsUnsettledDeletion = false;
        }
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
