package org.leveldbj.log;

import static org.leveldbj.log.LogFormat.BLOCK_SIZE;
import static org.leveldbj.log.LogFormat.FIRST_TYPE;
import static org.leveldbj.log.LogFormat.FULL_TYPE;
import static org.leveldbj.log.LogFormat.HEADER_SIZE;
import static org.leveldbj.log.LogFormat.LAST_TYPE;
import static org.leveldbj.log.LogFormat.LENGTH_OFFSET;
import static org.leveldbj.log.LogFormat.MIDDLE_TYPE;
import static org.leveldbj.log.LogFormat.TYPE_OFFSET;
import static org.leveldbj.log.LogFormat.ZERO_TYPE;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.iq80.leveldb.Env;
import org.leveldbj.util.ByteSink;
import org.leveldbj.util.Coding;
import org.leveldbj.util.Crc32c;

/**
 * Reads the logical records of a log file (a write-ahead log or a MANIFEST) in order, a block
 * at a time, reassembling records that span blocks; see the package documentation for the
 * layout.
 *
 * <p>Damage never raises an exception: the reader tells its {@link Reporter} how many bytes it
 * dropped and why, and resynchronises on the next intact record. The reasons are
 * {@code "checksum mismatch"}, {@code "bad record length"}, {@code "unknown record type N"},
 * {@code "missing start of fragmented record"}, {@code "partial record without end"} and
 * {@code "error in middle of record"}.
 *
 * <p>A torn last write, as a crash leaves it, is not damage and is dropped without a report:
 * <ul>
 *   <li>the end of the file in the middle of a header or a record;
 *   <li>a record whose fragments stop at preallocated space (a block whose remaining bytes
 *       begin with a zero header) that runs to the end of the file: a writer that died between
 *       two fragments of a memory-mapped log;
 *   <li>a damaged record after which the file holds zeros, and only zeros, to its end (after
 *       the record's claimed end for a checksum mismatch, after its header for a bad length,
 *       whose payload a torn copy has not reached): a writer killed while copying the record
 *       into a memory-mapped, zero-preallocated log leaves its header, part of its payload and
 *       then zeros, where a plain file would simply end. Damage at the very end of a file, with no
 *       zeros after it, is still reported.
 * </ul>
 * Preallocated space followed by more records is skipped without a report.
 *
 * <p>With an initial offset the reader returns only records that start at or after it, and
 * reports nothing about the bytes before it: fragments of a record that began earlier are
 * skipped silently.
 *
 * <p>Two details differ from C++ LevelDB's reader, both only where it would report something
 * wrong: every type byte other than 1 to 4 is an unknown type (C++ mistakes 5 and 6 for its
 * internal end-of-file and bad-record codes), and skipping the intact records before an
 * initial offset does not end the skipping of the fragments of a record that began before it
 * (C++ then reports those fragments as a missing start).
 *
 * <p>Thread safety: not safe for concurrent use; one thread reads a log.
 *
 * <p>Lifetime: the reader owns the file it is given and closes it in {@link #close()}. A
 * record returned by {@link #readRecord()} is valid until the next call to it or to
 * {@code close()}.
 */
public final class LogReader implements Closeable {

    /**
     * Receives the corruption a {@link LogReader} finds and skips. A caller that wants to stop
     * at the first corruption (a paranoid recovery) remembers the call and acts on it after
     * {@link LogReader#readRecord()} returns.
     *
     * <p>Only the byte count and reason need implementing; override
     * {@link #corruption(long, long, String)} to learn where the dropped bytes were as well.
     *
     * <p>Thread safety: called on the thread that calls {@link LogReader#readRecord()}.
     */
    @FunctionalInterface
    public interface Reporter {
        /**
         * Reports bytes dropped because of corruption.
         *
         * @param bytes how many bytes were dropped (see {@link #corruption(long, long, String)})
         * @param reason what was wrong, e.g. {@code "checksum mismatch"}
         */
        void corruption(long bytes, String reason);

        /**
         * Reports bytes dropped because of corruption, with where they start. The reader calls
         * this method; by default it forwards to {@link #corruption(long, String)}.
         *
         * <p>For a damaged physical record ({@code "checksum mismatch"}, {@code "bad record
         * length"}) the reader drops the rest of the block: {@code offset} is the damaged
         * record's header and {@code bytes} counts everything from there to the end of the
         * block. For a logical record given up (the other reasons), {@code bytes} counts the
         * payload bytes dropped, not their headers, and {@code offset} is the header of the
         * first physical record they came from.
         *
         * @param offset the file offset where the dropped region starts
         * @param bytes how many bytes were dropped
         * @param reason what was wrong
         */
        default void corruption(long offset, long bytes, String reason) {
            corruption(bytes, reason);
        }
    }

    /** Result of {@link #readPhysicalRecord()}: the end of the file. */
    private static final int EOF = -1;
    /** Result of {@link #readPhysicalRecord()}: damaged bytes were dropped (or zeros skipped). */
    private static final int BAD_RECORD = -2;
    /** Result of {@link #readPhysicalRecord()}: a zero header, preallocated space; the block's rest is skipped. */
    private static final int ZEROS = -4;
    /** Result of {@link #readPhysicalRecord()}: an intact record before the initial offset. */
    private static final int BEFORE_INITIAL_OFFSET = -3;
    /**
     * Result of {@link #readPhysicalRecord()}: a damaged record followed by zeros to the end of
     * its block, held in {@link #heldOffset} until the file shows whether only zeros follow.
     */
    private static final int HELD_DAMAGE = -5;

    private final Env.SequentialFile file;
    private final Reporter reporter;
    private final boolean checksum;
    private final long initialOffset;

    /** The current block; bytes {@code [start, end)} are not parsed yet. */
    private final byte[] block = new byte[BLOCK_SIZE];
    private final ByteBuffer blockBuffer = ByteBuffer.wrap(block);
    private final ByteBuffer blockView = blockBuffer.asReadOnlyBuffer();
    private int start;
    private int end;
    /** The file offset of {@code block[0]}. */
    private long blockOffset;
    /** The file offset just past the last byte read from the file. */
    private long endOfBufferOffset;
    /** The last read came back short: no block follows the current one. */
    private boolean eof;

    /** Where the last physical record returned by {@link #readPhysicalRecord()} lies. */
    private int fragmentStart;
    private int fragmentLength;
    private long fragmentOffset;

    /** The payload of a fragmented record being reassembled. */
    private final ByteSink scratch = new ByteSink(BLOCK_SIZE);

    /**
     * A damaged record not reported yet because only zeros have followed it so far: a torn
     * last write if the zeros run to the end of the file, damage (reported then) if anything
     * else follows; {@code -1} when none is held.
     */
    private long heldOffset = -1;
    private long heldBytes;
    private String heldReason;
    /** At least one zero byte follows the held damage. */
    private boolean heldBeforeZeros;

    private boolean positioned;
    /** Skipping fragments of a record that began before the initial offset. */
    private boolean resyncing;
    private long lastRecordOffset;
    private long lastRecordEnd;
    private int lastRecordFragments;
    private boolean closed;

    /**
     * Creates a reader that starts at the beginning of the log and verifies checksums.
     *
     * @param file the log file, positioned at its start; the reader takes ownership
     * @param reporter receives the corruption found, or {@code null} to ignore it
     */
    public LogReader(Env.SequentialFile file, Reporter reporter) {
        this(file, reporter, true, 0);
    }

    /**
     * Creates a reader.
     *
     * @param file the log file, positioned at its start; the reader takes ownership
     * @param reporter receives the corruption found, or {@code null} to ignore it
     * @param checksum whether to verify each physical record's checksum
     * @param initialOffset the file offset of the first record wanted: records that start
     *     before it are skipped
     * @throws IllegalArgumentException if {@code initialOffset} is negative
     */
    public LogReader(Env.SequentialFile file, Reporter reporter, boolean checksum, long initialOffset) {
        assert file != null;
        if (initialOffset < 0) {
            throw new IllegalArgumentException("initialOffset=" + initialOffset + " is negative");
        }
        this.file = file;
        this.reporter = reporter;
        this.checksum = checksum;
        this.initialOffset = initialOffset;
        this.resyncing = initialOffset > 0;
    }

    /**
     * Reads the next logical record.
     *
     * @return a read-only buffer whose position is {@code 0} and whose remaining bytes are the
     *     record, valid until the next call; or {@code null} at the end of the log
     * @throws IOException if reading the file fails
     */
    public ByteBuffer readRecord() throws IOException {
        if (closed) {
            throw new IllegalStateException("log reader is closed");
        }
        if (!positioned) {
            skipToInitialBlock();
            positioned = true;
        }
        scratch.reset();
        boolean inFragmentedRecord = false;
        long recordOffset = 0;
        int fragments = 0;
        // A fragmented record interrupted by preallocated zeros: a writer that died between
        // fragments if only zeros follow to the end of the file (dropped silently, as a torn
        // write), damage if anything else follows (reported then).
        long unfinishedOffset = -1;
        long unfinishedBytes = 0;
        while (true) {
            int type = readPhysicalRecord();
            if (unfinishedOffset >= 0 && type != ZEROS && type != HELD_DAMAGE && type != EOF) {
                report(unfinishedOffset, unfinishedBytes, "error in middle of record");
                unfinishedOffset = -1;
            }
            if (resyncing) {
                if (type == MIDDLE_TYPE || type == BEFORE_INITIAL_OFFSET) {
                    continue;
                } else if (type == LAST_TYPE) {
                    resyncing = false;
                    continue;
                }
                resyncing = false;
            }
            switch (type) {
                case FULL_TYPE:
                    if (inFragmentedRecord) {
                        reportPartialRecord(recordOffset);
                    }
                    scratch.reset();
                    lastRecordOffset = fragmentOffset;
                    lastRecordEnd = blockOffset + start;
                    lastRecordFragments = 1;
                    return blockView.slice(fragmentStart, fragmentLength);
                case FIRST_TYPE:
                    if (inFragmentedRecord) {
                        reportPartialRecord(recordOffset);
                    }
                    recordOffset = fragmentOffset;
                    scratch.reset();
                    scratch.put(block, fragmentStart, fragmentLength);
                    inFragmentedRecord = true;
                    fragments = 1;
                    break;
                case MIDDLE_TYPE:
                    if (!inFragmentedRecord) {
                        report(fragmentOffset, fragmentLength, "missing start of fragmented record");
                    } else {
                        scratch.put(block, fragmentStart, fragmentLength);
                        fragments++;
                    }
                    break;
                case LAST_TYPE:
                    if (!inFragmentedRecord) {
                        report(fragmentOffset, fragmentLength, "missing start of fragmented record");
                        break;
                    }
                    scratch.put(block, fragmentStart, fragmentLength);
                    lastRecordOffset = recordOffset;
                    lastRecordEnd = blockOffset + start;
                    lastRecordFragments = fragments + 1;
                    return ByteBuffer.wrap(scratch.array(), 0, scratch.length()).asReadOnlyBuffer();
                case EOF:
                    // A record cut short by the end of the file is a torn last write, not damage.
                    scratch.reset();
                    return null;
                case ZEROS:
                case HELD_DAMAGE:
                    if (inFragmentedRecord) {
                        unfinishedOffset = recordOffset;
                        unfinishedBytes = scratch.length();
                        inFragmentedRecord = false;
                        scratch.reset();
                    }
                    break;
                case BAD_RECORD:
                case BEFORE_INITIAL_OFFSET:
                    if (inFragmentedRecord) {
                        report(recordOffset, scratch.length(), "error in middle of record");
                        inFragmentedRecord = false;
                        scratch.reset();
                    }
                    break;
                default:
                    if (inFragmentedRecord) {
                        report(recordOffset, (long) fragmentLength + scratch.length(), "unknown record type " + type);
                    } else {
                        report(fragmentOffset, fragmentLength, "unknown record type " + type);
                    }
                    inFragmentedRecord = false;
                    scratch.reset();
                    break;
            }
        }
    }

    /**
     * The file offset of the first header of the last record {@link #readRecord()} returned;
     * {@code 0} before it returned one.
     *
     * @return the offset of the last record returned
     */
    public long lastRecordOffset() {
        return lastRecordOffset;
    }

    /**
     * The file offset just past the last physical record of the last record
     * {@link #readRecord()} returned; {@code 0} before it returned one. Bytes between it and
     * the end of the file that yield no further record are a torn write or padding.
     *
     * @return the end offset of the last record returned
     */
    public long lastRecordEnd() {
        return lastRecordEnd;
    }

    /**
     * How many physical records (fragments) the last record {@link #readRecord()} returned was
     * assembled from: {@code 1} for a {@code FULL} record, otherwise a {@code FIRST}, any number
     * of {@code MIDDLE} and a {@code LAST} fragment; {@code 0} before it returned one.
     *
     * @return the fragment count of the last record returned
     */
    public int lastRecordFragments() {
        return lastRecordFragments;
    }

    /**
     * Closes the file. Closing twice does nothing.
     *
     * @throws IOException if closing the file fails
     */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            file.close();
        }
    }

    /** Skips the whole blocks before the one that can hold the first record wanted. */
    private void skipToInitialBlock() throws IOException {
        long inBlock = initialOffset % BLOCK_SIZE;
        long first = initialOffset - inBlock;
        if (inBlock > BLOCK_SIZE - HEADER_SIZE) {
            // The offset lies in a block's tail, where no header can start.
            first += BLOCK_SIZE;
        }
        if (first > 0) {
            file.skip(first);
        }
        blockOffset = first;
        endOfBufferOffset = first;
    }

    /**
     * Parses the next physical record of the current block, reading the next block when this
     * one has no room left for a header.
     *
     * @return its type (any byte value), or {@link #EOF}, {@link #BAD_RECORD} or
     *     {@link #BEFORE_INITIAL_OFFSET}; for a type, {@link #fragmentStart},
     *     {@link #fragmentLength} and {@link #fragmentOffset} describe it
     */
    private int readPhysicalRecord() throws IOException {
        while (end - start < HEADER_SIZE) {
            if (eof) {
                // Nothing, or a header cut short by the end of the file: a torn write; so is
                // held damage that only zeros followed.
                start = end;
                if (heldOffset >= 0 && !heldBeforeZeros) {
                    // Damage at the very end of the file, no zeros after it: nothing says torn.
                    report(heldOffset, heldBytes, heldReason);
                }
                heldOffset = -1;
                return EOF;
            }
            // Bytes left here are a zero-filled block tail.
            readBlock();
            if (heldOffset >= 0) {
                if (isZero(0, end)) {
                    heldBeforeZeros |= end > 0;
                    start = end;
                } else {
                    report(heldOffset, heldBytes, heldReason);
                    heldOffset = -1;
                }
            }
        }
        int h = start;
        int length = (block[h + LENGTH_OFFSET] & 0xff) | (block[h + LENGTH_OFFSET + 1] & 0xff) << 8;
        int type = block[h + TYPE_OFFSET] & 0xff;
        long headerOffset = blockOffset + h;
        if (HEADER_SIZE + length > end - h) {
            int dropped = end - h;
            start = end;
            if (eof) {
                // The payload is cut short by the end of the file: a torn write.
                return EOF;
            }
            // A length torn in the copy is followed by a payload not copied yet: zeros.
            return damaged(headerOffset, dropped, "bad record length", h + HEADER_SIZE);
        }
        if (type == ZERO_TYPE && length == 0) {
            // Preallocated space: nothing more is written in this block.
            start = end;
            return ZEROS;
        }
        if (checksum) {
            int expected = Crc32c.unmask(Coding.getFixed32(block, h));
            int actual = Crc32c.value(block, h + TYPE_OFFSET, 1 + length);
            if (actual != expected) {
                // The length may be what is damaged, so nothing after it in the block is trusted.
                int dropped = end - h;
                start = end;
                return damaged(headerOffset, dropped, "checksum mismatch", h + HEADER_SIZE + length);
            }
        }
        start = h + HEADER_SIZE + length;
        if (headerOffset < initialOffset) {
            return BEFORE_INITIAL_OFFSET;
        }
        fragmentStart = h + HEADER_SIZE;
        fragmentLength = length;
        fragmentOffset = headerOffset;
        return type;
    }

    /**
     * Reports a damaged record at once, or holds the report when the rest of the block from
     * {@code zerosFrom} is zeros (a torn copy into preallocated space, if the zeros run to the
     * end of the file).
     *
     * @param zerosFrom the index in {@link #block} from which a torn copy leaves only zeros:
     *     the claimed end of a record failing its checksum (its payload may be partly copied),
     *     the end of the header for a bad length (nothing after a torn length was copied)
     * @return {@link #BAD_RECORD} when reported, {@link #HELD_DAMAGE} when held
     */
    private int damaged(long offset, long bytes, String reason, int zerosFrom) {
        if (isZero(zerosFrom, end)) {
            heldOffset = offset;
            heldBytes = bytes;
            heldReason = reason;
            heldBeforeZeros = zerosFrom < end;
            return HELD_DAMAGE;
        }
        report(offset, bytes, reason);
        return BAD_RECORD;
    }

    private boolean isZero(int from, int to) {
        for (int i = from; i < to; i++) {
            if (block[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** Replaces the current block with the next one from the file. */
    private void readBlock() throws IOException {
        blockOffset = endOfBufferOffset;
        blockBuffer.clear();
        while (blockBuffer.hasRemaining()) {
            if (file.read(blockBuffer) <= 0) {
                break;
            }
        }
        start = 0;
        end = blockBuffer.position();
        endOfBufferOffset += end;
        if (end < BLOCK_SIZE) {
            eof = true;
        }
    }

    private void reportPartialRecord(long recordOffset) {
        // A zero-length FIRST at a block's end (which old writers emitted) drops nothing.
        if (scratch.length() > 0) {
            report(recordOffset, scratch.length(), "partial record without end");
        }
    }

    private void report(long offset, long bytes, String reason) {
        if (reporter != null && offset >= initialOffset) {
            reporter.corruption(offset, bytes, reason);
        }
    }
}
