/**
 * Value files: the opt-in home of large values ({@code Options.valueThreshold}), written once
 * and referenced from the tree instead of being copied by every compaction (WiscKey's value log,
 * RocksDB's blob files).
 *
 * <h2>What lives here</h2>
 * <ul>
 *   <li>{@link org.leveldbj.vlog.ValueFileWriter}: appends records to one value file; used by
 *       one thread at a time (the write leader).
 *   <li>{@link org.leveldbj.vlog.ValueReference}: where a value lives; the tree stores its
 *       encoding as the value of an entry of type {@code VALUE_REFERENCE}.
 *   <li>{@link org.leveldbj.vlog.ValueFiles}: reads values by reference from the database's
 *       value files, for any number of threads: into a new array ({@code read}), or lent in place
 *       as a {@link org.leveldbj.vlog.LentValue} whose file stays open until the loan is released
 *       (iterators, which release it when they move on).
 *   <li>{@link org.leveldbj.vlog.ValueFileScanner}: reads a value file from start to end, past
 *       damage (verification, dumps).
 * </ul>
 *
 * <h2>Byte layout</h2>
 * <pre>
 * file      := magic record*
 * magic     := the 8 ASCII bytes "LJVLOG01"
 * record    := fixed32 masked-crc32c   varint32 key-length   varint32 value-length   key   value
 * reference := varint64 file-number   varint64 record-offset   varint32 record-size   varint32 value-length
 * </pre>
 * The checksum (masked as LevelDB masks its checksums) covers everything after it: both
 * lengths, the key and the value. A value file is named {@code NNNNNN.vlog}; its number comes
 * from the database's file numbers, like a table's. The key is kept beside the value so that a
 * value file alone tells which entries it can restore (repair) and what it holds (dumps).
 *
 * <h2>Durability</h2>
 * A record is appended, and flushed to the operating system, before the log record that refers
 * to it; a synced write syncs the value file before the log. After a crash, a reference whose
 * record is missing or damaged can only come from a log record written after it (an unsynced
 * write lost with the machine), which recovery treats as the log's torn end. A value file is
 * never appended to after the database that wrote it closes or crashes: a reopened database
 * starts a new one.
 *
 * <h2>Errors</h2>
 * A damaged record or reference throws {@link org.iq80.leveldb.CorruptionException} naming the
 * file and the record's offset; a failed read throws {@link org.iq80.leveldb.IOErrorException}.
 */
package org.leveldbj.vlog;
