package org.leveldbj.table;

import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.KeyComparator;

/**
 * The settings a table is built and read with. The database derives them from its own options;
 * {@link #DEFAULTS} matches C++ LevelDB's defaults with bytewise keys and no filter.
 *
 * @param comparator the key order
 * @param blockSize the uncompressed size at which a data block is closed (approximate)
 * @param blockRestartInterval entries per restart point in data and metaindex blocks (index
 *     blocks always use 1)
 * @param compressionType the codec for blocks: 0 none, 1 snappy, 2 zstd; a block is stored
 *     compressed only if that saves at least 1/8 of its size
 * @param filterPolicy the filter written with each table and consulted by reads, or
 *     {@code null} for none
 * @param filterKeyExtractor which part of each key the filter sees
 * @param verifyChecksums when {@code true}, every block read checks its checksum whatever the
 *     read asks for (C++ LevelDB's paranoid checks); index, metaindex and filter blocks are
 *     always checked when a table is opened
 * @param blockCache the cache of uncompressed blocks, {@link BlockCache#NONE} for none
 * @param prefixFilter the prefix filter written with each table and consulted by bounded scans
 *     of one prefix, or {@code null} for none
 * @param entryClassifier with it, each table gets a stats block ({@link StatsBlock}) counting its
 *     entries and the deletions among them as this tells them apart; {@code null} for none
 *     (the table is then byte for byte what C++ LevelDB writes); reading does not use it
 *     except to count the deletions of a sampled block ({@link Table#sampleEntries()})
 */
public record TableOptions(KeyComparator comparator, int blockSize, int blockRestartInterval,
                           int compressionType, FilterPolicy filterPolicy,
                           FilterKeyExtractor filterKeyExtractor, boolean verifyChecksums,
                           BlockCache blockCache, PrefixFilterOptions prefixFilter,
                           EntryClassifier entryClassifier) {
    /** Bytewise keys, 4 KiB blocks, restart interval 16, snappy, no filter, no cache, no stats block. */
    public static final TableOptions DEFAULTS = new TableOptions(BytewiseComparator.INSTANCE, 4096, 16,
            BlockCompression.SNAPPY, null, FilterKeyExtractor.WHOLE_KEY, false, BlockCache.NONE, null, null);

    /**
     * Checks the settings.
     *
     * @param comparator the key order
     * @param blockSize the block size
     * @param blockRestartInterval the restart interval
     * @param compressionType the codec id
     * @param filterPolicy the filter policy or {@code null}
     * @param filterKeyExtractor the filter key extractor
     * @param verifyChecksums whether every read checks checksums
     * @param blockCache the block cache
     * @param prefixFilter the prefix filter settings or {@code null}
     * @param entryClassifier what tells deletions apart for the stats block, or {@code null}
     *     for no stats block
     */
    public TableOptions {
        if (comparator == null || filterKeyExtractor == null || blockCache == null) {
            throw new NullPointerException("comparator, filterKeyExtractor and blockCache are required");
        }
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be positive: " + blockSize);
        }
        if (blockRestartInterval < 1) {
            throw new IllegalArgumentException("blockRestartInterval must be positive: " + blockRestartInterval);
        }
        if (compressionType < 0 || compressionType > 255) {
            throw new IllegalArgumentException("compressionType must fit in a byte: " + compressionType);
        }
    }

    /**
     * Settings without a prefix filter.
     *
     * @param comparator the key order
     * @param blockSize the data block size
     * @param blockRestartInterval the restart interval
     * @param compressionType the compression's persistent id
     * @param filterPolicy the whole-key filter policy, or {@code null}
     * @param filterKeyExtractor which part of each key the whole-key filter sees
     * @param verifyChecksums whether reads check checksums
     * @param blockCache the block cache
     */
    public TableOptions(KeyComparator comparator, int blockSize, int blockRestartInterval,
                        int compressionType, FilterPolicy filterPolicy,
                        FilterKeyExtractor filterKeyExtractor, boolean verifyChecksums,
                        BlockCache blockCache) {
        this(comparator, blockSize, blockRestartInterval, compressionType, filterPolicy, filterKeyExtractor,
                verifyChecksums, blockCache, null, null);
    }

    /**
     * These settings with another prefix filter.
     *
     * @param value the prefix filter settings, or {@code null} for none
     * @return the settings
     */
    public TableOptions withPrefixFilter(PrefixFilterOptions value) {
        return new TableOptions(comparator, blockSize, blockRestartInterval, compressionType, filterPolicy,
                filterKeyExtractor, verifyChecksums, blockCache, value, entryClassifier);
    }

    /**
     * Returns a copy with another comparator.
     *
     * @param value the comparator
     * @return the new options
     */
    public TableOptions withComparator(KeyComparator value) {
        return new TableOptions(value, blockSize, blockRestartInterval, compressionType, filterPolicy,
                filterKeyExtractor, verifyChecksums, blockCache, prefixFilter, entryClassifier);
    }

    /**
     * Returns a copy with another block size.
     *
     * @param value the block size
     * @return the new options
     */
    public TableOptions withBlockSize(int value) {
        return new TableOptions(comparator, value, blockRestartInterval, compressionType, filterPolicy,
                filterKeyExtractor, verifyChecksums, blockCache, prefixFilter, entryClassifier);
    }

    /**
     * Returns a copy with another restart interval.
     *
     * @param value the restart interval
     * @return the new options
     */
    public TableOptions withBlockRestartInterval(int value) {
        return new TableOptions(comparator, blockSize, value, compressionType, filterPolicy,
                filterKeyExtractor, verifyChecksums, blockCache, prefixFilter, entryClassifier);
    }

    /**
     * Returns a copy with another codec.
     *
     * @param value the codec id
     * @return the new options
     */
    public TableOptions withCompressionType(int value) {
        return new TableOptions(comparator, blockSize, blockRestartInterval, value, filterPolicy,
                filterKeyExtractor, verifyChecksums, blockCache, prefixFilter, entryClassifier);
    }

    /**
     * Returns a copy with another filter.
     *
     * @param policy the filter policy, or {@code null} for none
     * @param extractor which part of each key the filter sees
     * @return the new options
     */
    public TableOptions withFilter(FilterPolicy policy, FilterKeyExtractor extractor) {
        return new TableOptions(comparator, blockSize, blockRestartInterval, compressionType, policy,
                extractor, verifyChecksums, blockCache, prefixFilter, entryClassifier);
    }

    /**
     * Returns a copy with checksum checking on every read switched on or off.
     *
     * @param value whether every read checks checksums
     * @return the new options
     */
    public TableOptions withVerifyChecksums(boolean value) {
        return new TableOptions(comparator, blockSize, blockRestartInterval, compressionType, filterPolicy,
                filterKeyExtractor, value, blockCache, prefixFilter, entryClassifier);
    }

    /**
     * Returns a copy with another block cache.
     *
     * @param value the cache
     * @return the new options
     */
    public TableOptions withBlockCache(BlockCache value) {
        return new TableOptions(comparator, blockSize, blockRestartInterval, compressionType, filterPolicy,
                filterKeyExtractor, verifyChecksums, value, prefixFilter, entryClassifier);
    }

    /**
     * Returns a copy that writes a stats block with each table, or none.
     *
     * @param value what tells deletions apart, or {@code null} for no stats block
     * @return the new options
     */
    public TableOptions withEntryClassifier(EntryClassifier value) {
        return new TableOptions(comparator, blockSize, blockRestartInterval, compressionType, filterPolicy,
                filterKeyExtractor, verifyChecksums, blockCache, prefixFilter, value);
    }
}
