package org.leveldbj.comparator;

import org.iq80.leveldb.DBException;

/**
 * An application's {@link org.iq80.leveldb.DBComparator} threw instead of comparing. The
 * comparator's exception is the cause; the message names the comparator.
 *
 * <p>What it leaves behind depends on where it struck: a read that meets it fails and changes
 * nothing; a write that meets it while inserting into the memtable has already reached the
 * write-ahead log and may be applied in part, so the database records it as its background
 * error and refuses every later write (reads go on, and may see part of that batch) until it
 * is reopened, when the log is replayed with the comparator again; a compaction that meets it
 * stops, is recorded the same way, and leaves the files as they were.
 */
public final class ComparatorFailure extends DBException {
    private static final long serialVersionUID = 1L;

    /**
     * @param comparatorName the comparator's name
     * @param cause what it threw
     */
    public ComparatorFailure(String comparatorName, RuntimeException cause) {
        super("comparator " + comparatorName + " failed: " + cause, cause);
    }

    private ComparatorFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * The same failure, met while a write was applied to the memtable.
     *
     * @return a failure whose message says what became of the write, with the same cause
     */
    public ComparatorFailure duringWrite() {
        return new ComparatorFailure(getMessage() + " while applying a write: the write is in the log and may be"
                + " applied in part; writes are refused until the database is reopened", getCause());
    }
}
