/**
 * Sorted tables: the immutable {@code .ldb}/{@code .sst} files of C++ LevelDB, written by
 * {@link org.leveldbj.table.TableBuilder} and read by {@link org.leveldbj.table.Table}, byte for
 * byte compatible with C++ LevelDB (doc/table_format.md).
 *
 * <h2>Table file</h2>
 * <pre>
 *   data block 0 | trailer
 *   ...
 *   data block N-1 | trailer
 *   filter block | trailer          (only with a filter policy; never compressed)
 *   prefix filter block | trailer   (only with a prefix filter; never compressed)
 *   stats block | trailer           (only with an entry classifier; never compressed)
 *   metaindex block | trailer
 *   index block | trailer
 *   footer                          (48 bytes, at file size - 48)
 * </pre>
 * All blocks except the filter blocks have the block layout below and may be compressed. The
 * index block has one entry per data block: key = a key at or after the block's last key and
 * before the next block's first key (a shortened separator, or a short successor of the
 * table's last key for the last block), value = the data block's handle. The index block is
 * built with a restart interval of 1. The metaindex block maps meta block names to handles:
 * {@code "filter." + policy name} (e.g. {@code filter.leveldb.BuiltinBloomFilter2}) for the
 * whole-key filter and, with a prefix filter ({@link org.leveldbj.table.PrefixFilterOptions}),
 * {@code "leveldbj.prefix." + extractor name + "." + policy name} for the prefix filter block,
 * which has the filter block layout below over the prefixes of the keys instead of the keys
 * and, with an {@link org.leveldbj.table.EntryClassifier} (every table a database writes),
 * {@code "leveldbj.stats"} for the stats block below (C++ LevelDB and goleveldb ignore names
 * they do not know). A table without a filter or stats block has an empty metaindex block
 * (8 bytes: one restart point at 0, restart count 1).
 *
 * <h2>Block handle</h2>
 * <pre>
 *   offset: varint64    offset of the block's first byte in the file
 *   size:   varint64    bytes of block contents, trailer excluded (at most 20 bytes in all)
 * </pre>
 *
 * <h2>Block trailer (5 bytes after every block)</h2>
 * <pre>
 *   type: 1 byte        0 none, 1 snappy, 2 zstd (the stored contents' compression)
 *   crc:  fixed32       masked CRC32C of the stored contents followed by the type byte
 * </pre>
 * The builder stores a block compressed only if the compressed form is smaller than
 * {@code raw - raw / 8}; otherwise it stores the raw bytes with type 0.
 *
 * <h2>Footer (48 bytes)</h2>
 * <pre>
 *   metaindex handle    varint64 offset, varint64 size
 *   index handle        varint64 offset, varint64 size
 *   padding             zero bytes up to byte 40
 *   magic: fixed64      0xdb4775248b80fb57, little-endian (bytes 57 fb 80 8b 24 75 47 db)
 * </pre>
 *
 * <h2>Block (uncompressed)</h2>
 * <pre>
 *   entry*
 *   restart: fixed32 * num_restarts     offsets of the entries that store whole keys
 *   num_restarts: fixed32
 * entry:
 *   shared: varint32        bytes of the key shared with the previous entry's key
 *   non_shared: varint32    bytes of the key that follow
 *   value_length: varint32
 *   key_delta: byte[non_shared]     the key is previous_key[0, shared) + key_delta
 *   value: byte[value_length]
 * </pre>
 * Every {@code block_restart_interval}-th entry (0, k, 2k, ...) is a restart point: its
 * {@code shared} is 0 and its offset is listed in the restart array, so that a reader can
 * binary-search the restart points. Restart point 0 is offset 0; an empty block has one restart
 * point. Keys are in increasing comparator order.
 *
 * <h2>Filter block (not compressed)</h2>
 * <pre>
 *   filter 0 ... filter N-1             the policy's filters, back to back
 *   offset of filter i: fixed32 * N     where each filter starts in the block
 *   offset of the offset array: fixed32 (also the end of the last filter)
 *   base_lg: 1 byte                     11: filter i covers data blocks starting at file
 *                                       offsets [i * 2^11, (i + 1) * 2^11)
 * </pre>
 * Filter {@code i} summarizes the keys (or the part of them a
 * {@link org.leveldbj.table.FilterKeyExtractor} picks, e.g. the user key of an internal key) of
 * every data block that starts in its range; a range with no block start gets an empty filter
 * (two equal offsets), which matches nothing. The bloom filter encoding is described in
 * {@link org.leveldbj.table.BloomFilterPolicy}.
 *
 * <h2>Stats block (not compressed)</h2>
 * <pre>
 *   entries:   varint64     every entry of the table, values and deletions
 *   deletions: varint64     the entries that are deletions (at most entries)
 *   settled:   varint64     the deletions whose hidden older value the writer dropped (a
 *                           compaction merged them; at most deletions)
 *   then, in blocks written since distinct keys are counted (a block of the first layout ends here):
 *   keys:      varint64     distinct user keys (at most entries)
 *   live:      varint64     those whose newest version is a value
 *   tombstones: varint64    those whose oldest version is a deletion not settled
 *   novel:     varint64     the live keys the writer took to be new to the database (at most live)
 *   ...                     later fields, if any: readers ignore bytes they do not know
 * </pre>
 * Written by {@link org.leveldbj.table.TableBuilder} from what it was given; read lazily, once
 * per open table, by {@link org.leveldbj.table.Table#entryCounts()}. A missing block means the
 * counts are unknown (a table of C++ LevelDB, goleveldb or an older leveldbj); a damaged one
 * (checksum, malformed varint, a count above the one it is part of) too, reported by
 * {@link org.leveldbj.table.Table#entryCountsError()} naming the file and the block's offset,
 * and never making the table unreadable. See {@link org.leveldbj.table.StatsBlock}.
 *
 * <h2>Errors</h2>
 * Malformed bytes raise {@link org.iq80.leveldb.CorruptionException} naming the file and the
 * offset ({@code "block checksum mismatch"}, {@code "truncated block read"},
 * {@code "bad block handle"}, {@code "bad block contents"}, {@code "bad entry in block"},
 * {@code "not an sstable (bad magic number)"}, {@code "file is too short to be an sstable"});
 * never an index or buffer exception.
 *
 * <h2>Thread safety and lifetime</h2>
 * Builders are confined to one thread. {@link org.leveldbj.table.Table},
 * {@link org.leveldbj.table.Block} and {@link org.leveldbj.table.FilterBlockReader} are
 * immutable and safe for concurrent use; iterators are confined to one thread. Blocks of a
 * memory-mapped file are views of the mapping: they, and every buffer obtained from them, are
 * valid only while the file is open. The owner of a table closes its file.
 */
package org.leveldbj.table;
