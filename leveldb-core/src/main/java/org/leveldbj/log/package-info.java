/**
 * The log format of LevelDB, shared by the write-ahead log ({@code nnnnnn.log}) and the
 * MANIFEST: a sequence of logical records, each an arbitrary byte string, written by
 * {@link org.leveldbj.log.LogWriter} and read back by {@link org.leveldbj.log.LogReader}. The
 * constants are in {@link org.leveldbj.log.LogFormat}. The bytes are those of C++ LevelDB, so
 * either can read the other's logs.
 *
 * <h2>Blocks</h2>
 * The file is a sequence of 32 KiB blocks ({@code BLOCK_SIZE = 32768}); only the last may be
 * shorter. A block holds physical records back to back. When fewer than 7 bytes remain in a
 * block, no header fits: the writer fills them with zeros and the reader skips them.
 *
 * <h2>Physical record</h2>
 * <pre>
 * offset  size  field
 *      0     4  checksum: masked CRC32C (fixed32, little-endian) of the type byte followed by
 *               the payload; mask(crc) = ((crc &gt;&gt;&gt; 15) | (crc &lt;&lt; 17)) + 0xa282ead8
 *      4     2  length of the payload (fixed16, little-endian)
 *      6     1  type: 1 FULL, 2 FIRST, 3 MIDDLE, 4 LAST (0 is preallocated space)
 *      7  length  payload
 * </pre>
 * A physical record never crosses a block boundary, so a payload holds at most
 * {@code 32768 - 7 = 32761} bytes.
 *
 * <h2>Logical record</h2>
 * A record that fits in the current block is one FULL physical record; an empty record is a
 * FULL record of length 0. A longer record is cut at block boundaries into a FIRST, zero or more
 * MIDDLE and a LAST physical record, each filling its block to the end except the last. When
 * exactly 7 bytes remain in a block, a record starts there with an empty FIRST fragment. For
 * example, a 50,000-byte record written at offset 0 is
 * <pre>
 * [FIRST 32761][LAST 17239]         two blocks: 7 + 32761 = 32768, then 7 + 17239
 * </pre>
 * and a 100-byte record written 32,740 bytes into a block is
 * <pre>
 * [FIRST 21] | [LAST 79]            7 + 21 = 28 bytes end the block
 * </pre>
 * while at 32,763 bytes into a block it is
 * <pre>
 * [5 zero bytes] | [FULL 100]
 * </pre>
 *
 * <h2>Reading damaged logs</h2>
 * The reader checks each physical record's length against its block and (optionally) its
 * checksum. A damaged record makes it drop the rest of that block, since a damaged length
 * cannot be trusted to find the next header; a logical record missing a fragment is dropped
 * whole. Every drop is reported to a {@link org.leveldbj.log.LogReader.Reporter} with the byte
 * count, the offset and the reason, and never thrown. The end of the file, even inside a header
 * or a payload, is the end of the log: after a crash the last record may be torn, and that is
 * not corruption. A header of zeros (length 0, type 0) marks preallocated space: the rest of
 * its block is skipped without a report. In a preallocated (memory-mapped) log a torn record is
 * followed by zeros instead of the end of the file: a record cut short, or failing its
 * checksum, with only zeros after it to the end of the file is torn too (see
 * {@link org.leveldbj.log.LogReader} for the exact rules).
 *
 * <h2>Appending to an existing log</h2>
 * A writer created with the length of an existing file continues in the block that length
 * ends in ({@code length % 32768} bytes into it), so appending to a reused log or MANIFEST
 * produces the same bytes as if one writer had written everything.
 *
 * <h2>Thread safety and lifetime</h2>
 * A {@code LogWriter} and a {@code LogReader} are each used by one thread at a time; the engine
 * serializes access (the log writer is driven by the write queue's leader). Each owns the file
 * handle it was given and closes it. A record returned by the reader stays valid only until the
 * next read; the writer has handed a record to the operating system when {@code addRecord}
 * returns and made it durable when {@code sync} returns.
 */
package org.leveldbj.log;
