package org.leveldbj.table;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.iterator.EmptyIterator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.iterator.TwoLevelIterator;

/**
 * An open table file: its footer, index block and filter are read when it is opened; data
 * blocks are read on demand, through the block cache when one is configured. Uncompressed data
 * blocks of a memory-mapped file are served as views of the mapping (no copy). An iterator
 * stepping back through a mapped file warms the bytes below its block first (see
 * {@link BackwardPrefetch}).
 *
 * <p>Opening checks the checksums of the index, metaindex and filter blocks. A damaged
 * metaindex or filter block does not prevent opening: as in C++ LevelDB, the table is then read
 * without its filter ({@link #filterError()} tells why). The same holds for the prefix filter
 * ({@link #prefixFilterError()}): a table whose prefix filter cannot be read is read without
 * it, never skipping a block.
 *
 * <p>Prefix filter: with {@link TableOptions#prefixFilter()} set, the table's filter block of
 * that exact metaindex name (if any) is read at open. An iterator made for a
 * {@link PrefixScan} then finds, in the index, the run of data blocks that may hold keys of the
 * scan's range and asks the filter of each of those blocks about the prefix, before reading any
 * data block: if none may hold it, the iterator is empty and reads no data block. Otherwise it
 * is the table's ordinary iterator. (The index's separators bound each block's keys, so the run
 * is the blocks holding keys of the range plus at most one at each end; since the keys of one
 * prefix are contiguous, a run that has a block with the prefix has no block to leave out
 * between them.)
 *
 * <p>Entry counts: {@link #entryCounts()} reads the stats block ({@link StatsBlock}) on its
 * first call and keeps the result, so that a table open in the table cache answers later calls
 * from memory. A table without the block has no counts; a damaged block gives none either (the
 * table stays readable) and {@link #entryCountsError()} tells why. {@link #sampleEntries()} counts
 * one data block instead, for tables that record nothing.
 *
 * <p>Errors: malformed bytes raise {@link CorruptionException} naming the file and the offset;
 * I/O failures raise {@link DBException} naming the file.
 *
 * <p>Thread safety: safe for concurrent use by any number of threads; each iterator is confined
 * to one thread.
 *
 * <p>Lifetime: the table reads the {@link Env.RandomAccessFile} it was opened on but does not
 * own it: the owner closes the file, and only after the table and every iterator and every
 * buffer obtained from it are no longer used (buffers of a mapped file become invalid then).
 */
public final class Table {
    private final String fileName;
    private final Env.RandomAccessFile file;
    private final TableOptions options;
    private final long cacheId;
    /** Whether {@link #file} is memory-mapped: its uncompressed blocks are read in place, never cached. */
    private final boolean mapped;
    /**
     * Whether this table has put a block in the block cache (under {@link #cacheId}, its own):
     * until it has, a lookup can only miss. Racy by design: a reader that sees it late reads
     * the block itself, as on a miss.
     */
    private volatile boolean cachedBlocks;
    private final Block indexBlock;
    private final BlockHandle metaindexHandle;
    private final FilterBlockReader filter;
    private final CorruptionException filterError;
    private final FilterBlockReader prefixFilter;
    private final CorruptionException prefixFilterError;
    // Atomic adds rather than LongAdders, whose code changes path once threads contend on them
    // (a scan and a compaction reading the same table), making the JIT discard the scan's
    // compiled loop into which the count was inlined (see ClockShard's misses).
    private final AtomicLong filterSkips = new AtomicLong();
    private final AtomicLong blockReads = new AtomicLong();
    private final AtomicLong prefixTableSkips = new AtomicLong();
    /** The stats block as read by the first {@link #entryCounts()}, {@code null} before. */
    private volatile StatsRead stats;

    /** What reading the stats block gave: counts, or none and why (a damaged block). */
    private record StatsRead(EntryCounts counts, CorruptionException error) {
    }

    /** Receives the entry a point lookup finds. */
    @FunctionalInterface
    public interface EntryHandler {
        /**
         * Called with the entry found.
         *
         * @param key the entry's key; a view valid only during the call
         * @param value the entry's value; a view valid only during the call
         */
        void accept(ByteBuffer key, ByteBuffer value);
    }

    private Table(String fileName, Env.RandomAccessFile file, TableOptions options, Footer footer,
                  Block indexBlock) {
        this.fileName = fileName;
        this.file = file;
        this.options = options;
        this.cacheId = options.blockCache().newId();
        this.mapped = file.isMapped();
        this.indexBlock = indexBlock;
        this.metaindexHandle = footer.metaindex();
        FilterBlockReader f = null;
        CorruptionException error = null;
        FilterBlockReader pf = null;
        CorruptionException prefixError = null;
        if (options.filterPolicy() != null || options.prefixFilter() != null) {
            Block meta = null;
            try {
                meta = readMetaindex(footer.metaindex());
            } catch (CorruptionException e) {
                error = options.filterPolicy() != null ? e : null;
                prefixError = options.prefixFilter() != null ? e : null;
            }
            if (meta != null && options.filterPolicy() != null) {
                try {
                    f = readFilter(meta, ("filter." + options.filterPolicy().name()).getBytes(StandardCharsets.UTF_8),
                            options.filterPolicy(), options.filterKeyExtractor());
                } catch (CorruptionException e) {
                    error = e;
                }
            }
            if (meta != null && options.prefixFilter() != null) {
                try {
                    pf = readFilter(meta, options.prefixFilter().metaindexKey(), options.prefixFilter().policy(),
                            FilterKeyExtractor.WHOLE_KEY);
                } catch (CorruptionException e) {
                    prefixError = e;
                }
            }
        }
        this.filter = f;
        this.filterError = error;
        this.prefixFilter = pf;
        this.prefixFilterError = prefixError;
    }

    /**
     * Opens a table.
     *
     * @param fileName the file's name, used in error reports
     * @param file the file, owned by the caller (see the class documentation)
     * @param size the file's size in bytes
     * @param options the settings the table was built with (comparator, filter policy) and the
     *     read settings (checksums, cache)
     * @return the table
     * @throws CorruptionException if the file is not a table or its footer or index block is
     *     damaged (the index's checksum is checked when {@link TableOptions#verifyChecksums()})
     * @throws DBException if reading fails
     */
    public static Table open(String fileName, Env.RandomAccessFile file, long size, TableOptions options) {
        if (size < Footer.ENCODED_LENGTH) {
            throw new CorruptionException("file is too short to be an sstable", fileName, 0);
        }
        long footerOffset = size - Footer.ENCODED_LENGTH;
        ByteBuffer buf;
        try {
            buf = file.read(footerOffset, Footer.ENCODED_LENGTH);
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + fileName + ": reading the footer: " + e.getMessage(), e);
        }
        Footer footer;
        try {
            footer = Footer.decode(buf, buf.position(), buf.remaining());
        } catch (CorruptionException e) {
            throw e.at(fileName, footerOffset);
        }
        BlockHandle indexHandle = footer.index();
        // The index's checksum is checked as the data blocks' are (C++ LevelDB checks it only with
        // paranoid_checks): a table cache smaller than the database's tables reopens tables
        // for a few reads each, and checking a 40 KB index at every open took a tenth of their
        // time. Filters and the metaindex are always checked: read once, and a damaged filter
        // would hide keys silently.
        BlockContents contents = BlockReader.read(file, fileName, indexHandle, options.verifyChecksums());
        Block index = new Block(contents.data(), fileName, indexHandle.offset(), contents.decompressed());
        return new Table(fileName, file, options, footer, index);
    }

    private Block readMetaindex(BlockHandle metaindex) {
        BlockContents contents = BlockReader.read(file, fileName, metaindex, true);
        return new Block(contents.data(), fileName, metaindex.offset(), contents.decompressed());
    }

    private FilterBlockReader readFilter(Block meta, byte[] name, FilterPolicy policy, FilterKeyExtractor extractor) {
        BlockIterator it = meta.iterator(BytewiseComparator.INSTANCE);
        ByteBuffer target = ByteBuffer.wrap(name);
        it.seek(target);
        if (!it.valid() || !it.key().equals(target)) {
            return null;
        }
        BlockHandle handle = decodeHandle(it.value(), meta);
        BlockContents filterContents = BlockReader.read(file, fileName, handle, true);
        return new FilterBlockReader(policy, extractor, filterContents.data());
    }

    /**
     * The file's name as given to {@link #open}.
     *
     * @return the name
     */
    public String fileName() {
        return fileName;
    }

    /**
     * Tells whether reads consult a filter.
     *
     * @return {@code true} when a filter policy is set and the table has a readable filter for it
     */
    public boolean hasFilter() {
        return filter != null;
    }

    /**
     * Why the table's filter could not be read, if it could not.
     *
     * @return the corruption that made the table open without its filter, or {@code null}
     */
    public CorruptionException filterError() {
        return filterError;
    }

    /**
     * Tells whether prefix scans consult a prefix filter.
     *
     * @return {@code true} when a prefix filter is configured and the table has a readable one
     *     under its name
     */
    public boolean hasPrefixFilter() {
        return prefixFilter != null;
    }

    /**
     * Why the table's prefix filter could not be read, if it could not.
     *
     * @return the corruption that made the table open without its prefix filter, or {@code null}
     */
    public CorruptionException prefixFilterError() {
        return prefixFilterError;
    }

    /**
     * The counts the table's stats block records, read from the file on the first call (the
     * metaindex and the block, checksums checked) and kept. Concurrent first calls may each read
     * the block; they agree.
     *
     * @return the counts, or {@code null} when the table has no stats block or a damaged one
     *     ({@link #entryCountsError()})
     * @throws DBException if reading the file fails (nothing is kept: the next call reads again)
     */
    public EntryCounts entryCounts() {
        StatsRead s = stats;
        if (s == null) {
            s = readStats();
            stats = s;
        }
        return s.counts();
    }

    /**
     * Why the table has no counts although it may have a stats block.
     *
     * @return the damage found in the metaindex or the stats block, naming the file and offset,
     *     or {@code null} (counts read, no block, or not read yet)
     */
    public CorruptionException entryCountsError() {
        StatsRead s = stats;
        return s == null ? null : s.error();
    }

    private StatsRead readStats() {
        try {
            Block meta = readMetaindex(metaindexHandle);
            BlockIterator it = meta.iterator(BytewiseComparator.INSTANCE);
            ByteBuffer target = ByteBuffer.wrap(StatsBlock.KEY);
            it.seek(target);
            if (!it.valid() || !it.key().equals(target)) {
                return new StatsRead(null, null);
            }
            BlockHandle handle = decodeHandle(it.value(), meta);
            BlockContents contents = BlockReader.read(file, fileName, handle, true);
            return new StatsRead(StatsBlock.decode(contents.data(), fileName, handle.offset()), null);
        } catch (CorruptionException e) {
            return new StatsRead(null, e);
        }
    }

    /**
     * Counts the entries of one data block, the one in the middle of the index, and its size:
     * the density of a table that records no counts. Deletions are told apart by
     * {@link TableOptions#entryClassifier()} (none without one). The block is read without
     * filling the cache.
     *
     * @return the sample, or {@code null} for a table without data blocks
     * @throws CorruptionException if the index entry or the block is damaged (naming the file)
     * @throws DBException if reading the file fails
     */
    public EntrySample sampleEntries() {
        BlockIterator index = indexBlock.iterator(options.comparator());
        int blocks = 0;
        for (index.seekToFirst(); index.valid(); index.next()) {
            blocks++;
        }
        if (blocks == 0) {
            return null;
        }
        index.seekToFirst();
        for (int i = 0; i < blocks / 2; i++) {
            index.next();
        }
        BlockHandle handle = decodeHandle(index, indexBlock);
        Block block = dataBlock(handle, TableReadOptions.of(true, false));
        EntryClassifier classifier = options.entryClassifier() == null ? EntryClassifier.NO_DELETIONS
                : options.entryClassifier();
        long entries = 0;
        long deletions = 0;
        BlockIterator it = block.iterator(options.comparator());
        for (it.seekToFirst(); it.valid(); it.next()) {
            entries++;
            if (classifier.isDeletion(it.key())) {
                deletions++;
            }
        }
        return new EntrySample(new EntryCounts(entries, deletions), handle.size() + BlockReader.TRAILER_SIZE);
    }

    /**
     * How many iterators of prefix scans the prefix filter made empty, without reading a data
     * block.
     *
     * @return the count since the table was opened
     */
    public long prefixTableSkips() {
        return prefixTableSkips.get();
    }

    /**
     * How many point lookups the filter answered without reading a data block.
     *
     * @return the count since the table was opened
     */
    public long filterSkips() {
        return filterSkips.get();
    }

    /**
     * How many data blocks were read from the file (cache hits not counted).
     *
     * @return the count since the table was opened
     */
    public long blockReads() {
        return blockReads.get();
    }

    /**
     * Returns an iterator over the entries of every data block that can be read, for repair: a
     * block whose handle, checksum or compression is damaged is reported and passed over, and
     * the iteration goes on with the next block.
     *
     * @param readOptions whether to check checksums and fill the cache
     * @param skipped receives the failure of each block passed over
     * @return an unpositioned iterator, to be closed by the caller
     */
    public SortedIterator salvagingIterator(TableReadOptions readOptions, Consumer<CorruptionException> skipped) {
        return new TwoLevelIterator(indexBlock.iterator(options.comparator()),
                (indexValue, reuse) -> {
                    Block block;
                    try {
                        block = dataBlock(decodeHandle(indexValue, indexBlock), readOptions);
                    } catch (CorruptionException e) {
                        skipped.accept(e);
                        return EmptyIterator.INSTANCE;
                    }
                    return block.iterator(options.comparator());
                }, fileName, indexValue -> decodeHandle(indexValue, indexBlock).offset());
    }

    /**
     * Returns an iterator over every entry of the table.
     *
     * @param readOptions whether to check checksums and fill the cache
     * @return an unpositioned iterator, to be closed by the caller
     */
    public SortedIterator iterator(TableReadOptions readOptions) {
        return iterator(readOptions, null);
    }

    /**
     * Returns an iterator over every entry of the table that runs an action once when closed.
     *
     * @param readOptions whether to check checksums and fill the cache
     * @param onClose run once when the iterator is closed (after it has let go of its blocks),
     *     or {@code null}
     * @return an unpositioned iterator, to be closed by the caller
     */
    public SortedIterator iterator(TableReadOptions readOptions, Runnable onClose) {
        PrefixScan scan = readOptions.prefixScan();
        if (scan != null && prefixFilter != null
                && scan.extractorName().equals(options.prefixFilter().extractor().name())
                && !scanMayMatch(scan)) {
            prefixTableSkips.incrementAndGet();
            return EmptyIterator.closing(onClose);
        }
        BackwardPrefetch prefetch = file.isMapped() ? new BackwardPrefetch(file) : null;
        return new TwoLevelIterator(indexBlock.iterator(options.comparator()),
                (indexValue, reuse) -> {
                    BlockHandle handle = decodeHandle(indexValue, indexBlock);
                    if (prefetch != null) {
                        prefetch.beforeRead(handle.offset(), handle.size());
                    }
                    if (reuse instanceof BlockIterator) {
                        // The iterator has moved on from its block: a block it owned lends its
                        // array to the next one.
                        BlockIterator it = (BlockIterator) reuse;
                        Block block = dataBlock(handle, readOptions, it.block().readerOwnedArray());
                        it.reset(block);
                        return it;
                    }
                    Block block = dataBlock(handle, readOptions, null);
                    return block.iterator(options.comparator());
                }, fileName, indexValue -> decodeHandle(indexValue, indexBlock).offset(), onClose);
    }

    /**
     * Tells whether the prefix filter lets through any data block of the run that may hold keys
     * of a scan's range, reading only the index and the filter.
     *
     * @return {@code false} if no block of the run may hold the prefix
     */
    private boolean scanMayMatch(PrefixScan scan) {
        ByteBuffer prefixKey = ByteBuffer.wrap(scan.prefix());
        int suffix = options.prefixFilter().suffixLength();
        byte[] lower = scan.lower();
        byte[] target = java.util.Arrays.copyOf(lower, lower.length + suffix);
        // An all-ones trailer sorts before every entry of the user key (the largest sequence).
        java.util.Arrays.fill(target, lower.length, target.length, (byte) 0xff);
        BlockIterator index = indexBlock.iterator(options.comparator());
        index.seek(ByteBuffer.wrap(target));
        ByteBuffer upper = ByteBuffer.wrap(scan.upper());
        while (index.valid()) {
            if (prefixFilter.keyMayMatch(decodeHandle(index, indexBlock).offset(), prefixKey)) {
                return true;
            }
            // The index key is at or after its block's last key and before the next block's
            // first: once its user key reaches the upper bound, later blocks are past the range.
            ByteBuffer k = index.key();
            int userLength = Math.max(0, k.remaining() - suffix);
            if (BytewiseComparator.INSTANCE.compare(k, k.position(), userLength, upper, 0, upper.remaining()) >= 0) {
                break;
            }
            index.next();
        }
        return false;
    }

    /**
     * Looks a key up: finds the one data block that may hold {@code key}, asks the filter first
     * when there is one, and hands the first entry of that block at or after {@code key} to
     * {@code handler}. If the table holds an entry whose key equals {@code key}, that entry is
     * the one handed over; otherwise the handler may see a later entry or be called not at all.
     *
     * @param key the key sought (remaining bytes; position not moved)
     * @param readOptions whether to check checksums and fill the cache
     * @param handler receives the entry
     * @return {@code true} if the handler was called
     */
    public boolean get(ByteBuffer key, TableReadOptions readOptions, EntryHandler handler) {
        LookupIterators its = LOOKUP_ITERATORS.get();
        if (its.busy) {
            // Only a handler that looks up again gets here; it gets iterators of its own.
            return get(key, readOptions, handler, new LookupIterators());
        }
        its.busy = true;
        try {
            return get(key, readOptions, handler, its);
        } finally {
            its.release();
        }
    }

    private boolean get(ByteBuffer key, TableReadOptions readOptions, EntryHandler handler, LookupIterators its) {
        BlockIterator index = its.index(options.comparator(), indexBlock);
        index.seek(key);
        if (!index.valid()) {
            return false;
        }
        BlockHandle handle = decodeHandle(index, indexBlock);
        if (filter != null && !filter.keyMayMatch(handle.offset(), key)) {
            filterSkips.incrementAndGet();
            return false;
        }
        Block block = dataBlock(handle, readOptions, its.blockArray);
        byte[] owned = block.readerOwnedArray();
        if (owned != null) {
            its.blockArray = owned; // grown by this read: keep the larger array
        }
        BlockIterator data = its.data(options.comparator(), block);
        data.seek(key);
        if (!data.valid()) {
            return false;
        }
        handler.accept(data.key(), data.value());
        return true;
    }

    /**
     * Looks several keys up at once, each as {@link #get} would, sharing the work keys in one
     * block have in common: the index is searched forward from the previous key's place (not
     * from its start), and a data block is read, and decompressed, once for all the keys it may
     * hold (only if the filter lets at least one of them through). The filter is asked per key.
     *
     * <p>Requires: the keys numbered {@code which[0..count)} ascend in the table's order.
     *
     * @param which the numbers of the keys to look up, in ascending key order
     * @param count how many of {@code which} to use
     * @param readOptions whether to check checksums and fill the cache
     * @param batch supplies the keys and receives the entries found
     */
    public void getAll(int[] which, int count, TableReadOptions readOptions, KeyBatch batch) {
        LookupIterators its = LOOKUP_ITERATORS.get();
        if (its.busy) {
            getAll(which, count, readOptions, batch, new LookupIterators());
            return;
        }
        its.busy = true;
        try {
            getAll(which, count, readOptions, batch, its);
        } finally {
            its.release();
        }
    }

    private void getAll(int[] which, int count, TableReadOptions readOptions, KeyBatch batch, LookupIterators its) {
        KeyComparator comparator = options.comparator();
        BlockIterator index = its.index(comparator, indexBlock);
        BlockHandle handle = null;
        BlockIterator data = null; // positioned in the block at handle, once that was read
        for (int n = 0; n < count; n++) {
            int i = which[n];
            ByteBuffer key = batch.key(i);
            assert n == 0 || comparator.compare(batch.key(which[n - 1]), key) <= 0 : "keys out of order";
            // The block of a key is the first whose index key is at or after it: the previous
            // key's block, as long as its index key is not before this key.
            if (handle == null || comparator.compare(index.key(), key) < 0) {
                index.seek(key);
                if (!index.valid()) {
                    return; // this key and every later one are past the table's last block
                }
                handle = decodeHandle(index, indexBlock);
                data = null;
            }
            if (filter != null && !filter.keyMayMatch(handle.offset(), key)) {
                filterSkips.incrementAndGet();
                continue;
            }
            if (data == null) {
                Block block = dataBlock(handle, readOptions, its.blockArray);
                byte[] owned = block.readerOwnedArray();
                if (owned != null) {
                    its.blockArray = owned; // grown by this read: keep the larger array
                }
                data = its.data(comparator, block);
            }
            data.seek(key); // forward from the previous key's entry when in the same block
            if (data.valid()) {
                batch.accept(i, data.key(), data.value());
            }
        }
    }

    /**
     * The two block iterators of a point lookup and the array it decompresses blocks the cache
     * does not want into, kept per thread so that lookups allocate no iterators and no block. They hold blocks only during a lookup ({@link #release()} drops them, so a
     * thread's iterators never keep an evicted block or an unmapped file's view reachable).
     */
    private static final class LookupIterators {
        private BlockIterator index;
        private BlockIterator data;
        /** Where blocks the cache does not want are decompressed; {@code null} until needed. */
        byte[] blockArray;
        boolean busy;

        BlockIterator index(KeyComparator comparator, Block block) {
            if (index == null) {
                index = new BlockIterator(comparator, block);
            } else {
                index.reset(comparator, block);
            }
            return index;
        }

        BlockIterator data(KeyComparator comparator, Block block) {
            if (data == null) {
                data = new BlockIterator(comparator, block);
            } else {
                data.reset(comparator, block);
            }
            return data;
        }

        void release() {
            busy = false;
            if (index != null) {
                index.detach();
            }
            if (data != null) {
                data.detach();
            }
        }
    }

    /** Lent when there is nothing to lend: every block is too large for it, so one is allocated. */
    private static final byte[] NO_ARRAY = new byte[0];

    private static final ThreadLocal<LookupIterators> LOOKUP_ITERATORS = ThreadLocal.withInitial(LookupIterators::new);

    /**
     * Returns the approximate offset in the file where the data for {@code key} begins (or
     * would begin): the offset of the data block that may hold it, or, past the last key, the
     * offset of the metaindex block (close to the file's end).
     *
     * @param key the key (remaining bytes; position not moved)
     * @return a file offset; never decreasing as the key increases
     */
    public long approximateOffsetOf(ByteBuffer key) {
        BlockIterator index = indexBlock.iterator(options.comparator());
        index.seek(key);
        if (index.valid()) {
            try {
                return decodeHandle(index, indexBlock).offset();
            } catch (CorruptionException e) {
                return metaindexHandle.offset();
            }
        }
        return metaindexHandle.offset();
    }

    /** Loads a data block through the block cache. */
    private Block dataBlock(BlockHandle handle, TableReadOptions readOptions) {
        return dataBlock(handle, readOptions, null);
    }

    /**
     * The block at a handle: from the cache, or read. A block read in place from a mapped file
     * (stored uncompressed) never enters the cache, so a mapped table that has put no block in
     * the cache looks there only for compressed blocks, after reading the stored bytes (a view)
     * to tell: its uncompressed blocks are neither looked up (nor counted as misses) nor offered
     * to the cache. A block the cache wants (see {@link BlockCache#admit}) is read into bytes of
     * its own and inserted; any other is decompressed into {@code lend} when it fits (else into
     * a new array) and comes back {@linkplain Block#readerOwned reader-owned}, for the caller to
     * reuse its array.
     */
    private Block dataBlock(BlockHandle handle, TableReadOptions readOptions, byte[] lend) {
        BlockCache cache = options.blockCache();
        boolean lookedUp = !mapped || cachedBlocks;
        if (lookedUp) {
            Block block = cache.lookup(cacheId, handle.offset());
            if (block != null) {
                return block;
            }
        }
        boolean verify = readOptions.verifyChecksums() || options.verifyChecksums();
        ByteBuffer stored = BlockReader.readStored(file, fileName, handle);
        boolean cachable = !mapped || BlockReader.isCompressed(stored);
        if (cachable && !lookedUp) {
            Block block = cache.lookup(cacheId, handle.offset()); // another reader may just have put it there
            if (block != null) {
                return block;
            }
        }
        boolean keep = cachable && readOptions.fillCache() && cache.admit(cacheId, handle.offset(), handle.size());
        if (!keep) {
            BlockContents contents = BlockReader.decode(stored, mapped, fileName, handle.offset(), verify,
                    lend != null ? lend : NO_ARRAY);
            blockReads.incrementAndGet();
            if (contents.decompressed()) {
                return Block.readerOwned(contents.data(), fileName, handle.offset());
            }
            return new Block(contents.data(), fileName, handle.offset(), false);
        }
        BlockContents contents = BlockReader.decode(stored, mapped, fileName, handle.offset(), verify, null);
        blockReads.incrementAndGet();
        Block block = new Block(contents.data(), fileName, handle.offset(), contents.decompressed());
        if (contents.cachable()) {
            cache.insert(cacheId, handle.offset(), block);
            if (!cachedBlocks) {
                cachedBlocks = true;
            }
        }
        return block;
    }

    /**
     * Decodes the block handle that is the current value of {@code index}, an iterator over
     * {@code holder}, in place; a malformed handle is reported at its place in that block.
     */
    private static BlockHandle decodeHandle(BlockIterator index, Block holder) {
        int at = index.valueOffset();
        try {
            return BlockHandle.decode(holder.data(), at, index.valueLength());
        } catch (CorruptionException e) {
            throw holder.corruption(e.reason(), at + (int) Math.max(0, e.offset()));
        }
    }

    /**
     * Decodes a block handle stored as a value of {@code holder} (the index or metaindex
     * block); a malformed handle is reported at its place in that block.
     */
    private static BlockHandle decodeHandle(ByteBuffer value, Block holder) {
        try {
            return BlockHandle.decode(value);
        } catch (CorruptionException e) {
            throw holder.corruption(e.reason(), value.position() + (int) Math.max(0, e.offset()));
        }
    }
}
