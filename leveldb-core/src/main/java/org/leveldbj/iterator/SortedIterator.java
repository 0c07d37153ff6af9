package org.leveldbj.iterator;

import java.nio.ByteBuffer;

/**
 * A cursor over entries sorted by key, the engine's internal iterator (as opposed to the
 * user-facing {@code DBIterator}): it can be positioned with the {@code seek} methods and moved
 * both ways, and it exposes the current entry's key and value as buffer views without copying.
 *
 * <p>Cursor model: the iterator is either positioned on an entry ({@link #valid()} is
 * {@code true}) or not positioned. A new iterator is not positioned. {@link #next()} and
 * {@link #prev()} move one entry and leave the iterator unpositioned when they step off an end.
 *
 * <p>Errors: a move that meets malformed bytes throws
 * {@link org.iq80.leveldb.CorruptionException} (naming the file and offset when the iterator
 * knows them) and leaves the iterator unpositioned; an I/O failure throws
 * {@link org.iq80.leveldb.DBException}. A later {@code seek} may be tried.
 *
 * <p>Thread safety: confined to one thread at a time; use one iterator per thread.
 *
 * <p>Lifetime: the buffers returned by {@link #key()} and {@link #value()} are views owned by the
 * iterator and valid only until the next call that moves it (or {@link #close()}); copy them to
 * keep them. Callers must not change their position, limit or content. The iterator must be
 * closed; closing releases what it pins (e.g. cached blocks). Closing twice is harmless.
 */
public interface SortedIterator extends AutoCloseable {
    /**
     * Tells whether the iterator is positioned on an entry.
     *
     * @return {@code true} when {@link #key()} and {@link #value()} may be called
     */
    boolean valid();

    /** Positions the iterator on the first entry, or unpositions it when there is none. */
    void seekToFirst();

    /** Positions the iterator on the last entry, or unpositions it when there is none. */
    void seekToLast();

    /**
     * Positions the iterator on the first entry whose key is at or after {@code target}, or
     * unpositions it when there is none.
     *
     * @param target the key sought: the bytes between its position and limit (the buffer's
     *     position is not moved)
     */
    void seek(ByteBuffer target);

    /** Moves to the next entry. Requires: {@link #valid()}. */
    void next();

    /** Moves to the previous entry. Requires: {@link #valid()}. */
    void prev();

    /**
     * The key of the current entry. Requires: {@link #valid()}.
     *
     * @return a read-only view whose remaining bytes are the key; valid until the iterator moves
     */
    ByteBuffer key();

    /**
     * The value of the current entry. Requires: {@link #valid()}.
     *
     * @return a read-only view whose remaining bytes are the value; valid until the iterator
     *     moves
     */
    ByteBuffer value();

    /** Releases what the iterator holds; it must not be used afterwards. */
    @Override
    void close();

    /**
     * Identifies the run the current entry belongs to. A run is a stretch of consecutive entries
     * (a table's data block) whose keys are all at most {@link #runLimit()}; the stamp changes
     * whenever the iterator moves into another run, and may change more often (a seek). A merge
     * that has found a run's limit before every other child's key then steps through the run
     * without comparing keys. Requires: {@link #valid()}.
     *
     * @return the current run's stamp; iterators that keep no runs always return {@code 0}
     */
    default long runStamp() {
        return 0;
    }

    /**
     * A key at or after the key of every entry of the current run (see {@link #runStamp()}).
     * Requires: {@link #valid()}.
     *
     * @return a view valid until the iterator moves, or {@code null} when the iterator keeps no
     *     runs
     */
    default ByteBuffer runLimit() {
        return null;
    }

    /**
     * Names the file the current entry was read from, for error messages: a table file's name,
     * or {@code null} when the entry is not from a file (a memtable) or the iterator cannot tell.
     * Requires: {@link #valid()}.
     *
     * @return the file name, or {@code null}
     */
    default String source() {
        return null;
    }

    /**
     * The offset in {@link #source()} of the block holding the current entry, for error
     * messages. Requires: {@link #valid()}.
     *
     * @return the offset, or {@code -1} when unknown
     */
    default long sourceOffset() {
        return -1;
    }
}
