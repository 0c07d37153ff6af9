package org.leveldbj.version;

import java.nio.ByteBuffer;
import java.util.List;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.table.TableReadOptions;

/**
 * The entries of one level above 0, whose files are sorted and disjoint: the concatenation of
 * their tables, each opened only when the iteration reaches it and closed when it moves on.
 * This is C++ LevelDB's two-level iterator over a file list, with the file list searched
 * directly instead of through an index iterator of encoded file numbers, so a step costs one
 * call into the current table's iterator.
 *
 * <p>Tables that hold no entry are skipped in both directions. A failure to open a table leaves
 * this iterator unpositioned and propagates.
 *
 * <p>Thread safety: confined to one thread, like every {@link SortedIterator}.
 *
 * <p>Lifetime: owns the current table's iterator and closes it when closed (closing twice is
 * harmless). The file list must stay unchanged while this iterator lives (a version's lists
 * never change).
 */
final class LevelIterator implements SortedIterator {
    private final InternalKeyComparator icmp;
    private final List<FileMetaData> files;
    private final TableSource tables;
    private final TableReadOptions readOptions;
    /** The index in {@link #files} of {@link #table}'s file; {@code files.size()} when none. */
    private int file;
    /** The current file's table iterator, or {@code null}. */
    private SortedIterator table;
    /** How many table iterators this iterator has opened: the high half of the run stamp. */
    private int opened;
    /** Bytes of the last seek target, reused for the file search. */
    private byte[] target = new byte[32];

    /**
     * Creates an iterator.
     *
     * @param icmp the internal-key order
     * @param files the level's files, sorted and disjoint
     * @param tables opens table iterators
     * @param readOptions checksum and cache settings of the reads
     */
    LevelIterator(InternalKeyComparator icmp, List<FileMetaData> files, TableSource tables,
                  TableReadOptions readOptions) {
        this.icmp = icmp;
        this.files = files;
        this.tables = tables;
        this.readOptions = readOptions;
        this.file = files.size();
    }

    @Override
    public boolean valid() {
        return table != null && table.valid();
    }

    @Override
    public void seekToFirst() {
        if (open(0)) {
            table.seekToFirst();
        }
        skipEmptyForward();
    }

    @Override
    public void seekToLast() {
        if (open(files.size() - 1)) {
            table.seekToLast();
        }
        skipEmptyBackward();
    }

    @Override
    public void seek(ByteBuffer target) {
        int n = target.remaining();
        if (this.target.length < n) {
            this.target = new byte[Math.max(n, 2 * this.target.length)];
        }
        target.get(target.position(), this.target, 0, n);
        if (open(Version.findFile(icmp, files, this.target, n))) {
            table.seek(target);
        }
        skipEmptyForward();
    }

    @Override
    public void next() {
        assert valid();
        table.next();
        if (!table.valid()) {
            skipEmptyForward();
        }
    }

    @Override
    public void prev() {
        assert valid();
        table.prev();
        if (!table.valid()) {
            skipEmptyBackward();
        }
    }

    @Override
    public ByteBuffer key() {
        assert valid();
        return table.key();
    }

    @Override
    public ByteBuffer value() {
        assert valid();
        return table.value();
    }

    /** A run is a run of the current table's; the stamp also counts the tables opened. */
    @Override
    public long runStamp() {
        assert valid();
        return ((long) opened << 32) + (table.runStamp() & 0xffff_ffffL);
    }

    @Override
    public ByteBuffer runLimit() {
        assert valid();
        return table.runLimit();
    }

    @Override
    public String source() {
        return table != null ? table.source() : SortedIterator.super.source();
    }

    @Override
    public long sourceOffset() {
        return table != null ? table.sourceOffset() : SortedIterator.super.sourceOffset();
    }

    @Override
    public void close() {
        drop();
        file = files.size();
    }

    /** Moves to the first entry of the following non-empty table, or becomes unpositioned. */
    private void skipEmptyForward() {
        while (table != null && !table.valid()) {
            if (open(file + 1)) {
                table.seekToFirst();
            }
        }
    }

    /** Moves to the last entry of the preceding non-empty table, or becomes unpositioned. */
    private void skipEmptyBackward() {
        while (table != null && !table.valid()) {
            if (open(file - 1)) {
                table.seekToLast();
            }
        }
    }

    /**
     * Makes the table of file {@code index} current, keeping the current one when it is that
     * file's.
     *
     * @return {@code true} when positioned on a file, {@code false} (and nothing open) when
     *     {@code index} is outside the list
     */
    private boolean open(int index) {
        if (index < 0 || index >= files.size()) {
            drop();
            file = files.size();
            return false;
        }
        if (table != null && index == file) {
            return true;
        }
        drop();
        file = files.size();
        FileMetaData f = files.get(index);
        table = tables.iterator(f.number(), f.fileSize(), readOptions);
        opened++;
        file = index;
        return true;
    }

    private void drop() {
        SortedIterator old = table;
        table = null;
        if (old != null) {
            old.close();
        }
    }
}
