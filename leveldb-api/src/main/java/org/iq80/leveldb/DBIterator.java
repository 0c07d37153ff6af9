package org.iq80.leveldb;

import java.io.Closeable;
import java.util.Iterator;
import java.util.Map;

/**
 * A cursor over the entries of a database in key order, readable in both directions.
 *
 * <p>Entries are {@link Map.Entry} objects holding fresh copies of key and value; they do not
 * change when the cursor moves. {@link Iterator#remove()} is not supported.
 *
 * <h2>Cursor semantics</h2>
 *
 * <p>These are the semantics of leveldbjni 1.8, kept because existing applications were written
 * and tested against them. The cursor sits <em>on</em> an entry (or past the last one):
 *
 * <ul>
 *   <li>{@link #hasNext()} tells whether the cursor is on an entry; {@link #peekNext()} returns
 *       that entry without moving; {@link #next()} returns it and moves the cursor to the
 *       following entry (or past the end).
 *   <li>{@link #prev()} steps the cursor back one entry and returns the entry it lands on. So
 *       right after {@code next()} returned X, {@code prev()} returns X again, and the cursor is
 *       on X once more. {@link #peekPrev()} returns the entry {@code prev()} would return without
 *       moving.
 *   <li>{@link #hasPrev()} tells whether {@code prev()} would return an entry: it is
 *       {@code true} when the cursor is on an entry that is not the first one. It is
 *       {@code false} on the first entry and also when the cursor is past the end; to scan
 *       backwards from the end, start with {@code seekToLast()}.
 *   <li>{@link #seekToFirst()} puts the cursor on the first entry; {@link #seekToLast()} puts it
 *       <em>on</em> the last entry, so {@code hasNext()} is {@code true} and {@code peekNext()}
 *       returns the last entry; {@link #seek(byte[])} puts it on the first entry whose key is
 *       greater than or equal to the given key (past the end if there is none).
 * </ul>
 *
 * <p>{@code next()}, {@code peekNext()}, {@code prev()} and {@code peekPrev()} throw
 * {@link java.util.NoSuchElementException} when there is no entry to return, and then leave the
 * cursor where it was. A new iterator starts on the first entry, as if {@code seekToFirst()} had
 * been called; leveldbjni 1.8 left it unpositioned, so code that must also run there calls a seek
 * method first.
 *
 * <h2>Worked example</h2>
 *
 * <p>For a database holding the keys {@code a}, {@code b} and {@code c}:
 *
 * <pre>{@code
 * it.seekToFirst();  // cursor on a:  hasNext() true,  hasPrev() false, peekNext() a
 * it.next();         // returns a;    cursor on b,     hasPrev() true,  peekPrev() a
 * it.next();         // returns b;    cursor on c
 * it.prev();         // returns b;    cursor on b (stepped back from c)
 * it.next();         // returns b again; cursor on c
 * it.next();         // returns c;    cursor past the end: hasNext() false, hasPrev() false
 * it.seekToLast();   // cursor on c:  hasNext() true,  peekNext() c,   hasPrev() true
 * it.prev();         // returns b;    cursor on b
 * it.prev();         // returns a;    cursor on a:     hasPrev() false
 * it.seek(new byte[] {'b', 'b'}); // cursor on c, the first key >= "bb"
 * }</pre>
 *
 * <p>So a full backward scan reads the last entry with {@code peekNext()} and then calls
 * {@code prev()} while {@code hasPrev()} is {@code true}:
 *
 * <pre>{@code
 * it.seekToLast();
 * if (it.hasNext()) {
 *     visit(it.peekNext());
 *     while (it.hasPrev()) {
 *         visit(it.prev());
 *     }
 * }
 * }</pre>
 *
 * <p>Thread safety: an iterator is not safe for concurrent use; one thread uses it at a time.
 * Lifetime: an iterator reads a consistent snapshot of the database and holds resources (files,
 * cached blocks) until it is {@linkplain Closeable#close() closed}; every iterator must be closed
 * before its database. Using it after it, or its database, is closed fails with a
 * {@link DBException}.
 */
public interface DBIterator extends Iterator<Map.Entry<byte[], byte[]>>, Closeable {

    /**
     * Moves the cursor to the first entry whose key is greater than or equal to {@code key} in
     * the database's order, or past the end when there is none.
     *
     * @param key the key to look for
     */
    void seek(byte[] key);

    /** Moves the cursor to the first entry, or past the end when the database is empty. */
    void seekToFirst();

    /**
     * Returns the entry under the cursor without moving the cursor.
     *
     * @return the entry {@link #next()} would return
     * @throws java.util.NoSuchElementException if the cursor is past the end
     */
    Map.Entry<byte[], byte[]> peekNext();

    /**
     * Tells whether {@link #prev()} would return an entry: whether the cursor is on an entry
     * other than the first one.
     *
     * @return {@code true} when there is an entry before the cursor's entry
     */
    boolean hasPrev();

    /**
     * Moves the cursor back one entry and returns the entry it lands on. Right after
     * {@link #next()} returned an entry, this returns that same entry.
     *
     * @return the entry before the cursor's previous position, now under the cursor
     * @throws java.util.NoSuchElementException if {@link #hasPrev()} is {@code false}
     */
    Map.Entry<byte[], byte[]> prev();

    /**
     * Returns the entry {@link #prev()} would return, without moving the cursor.
     *
     * @return the entry just before the one under the cursor
     * @throws java.util.NoSuchElementException if {@link #hasPrev()} is {@code false}
     */
    Map.Entry<byte[], byte[]> peekPrev();

    /**
     * Moves the cursor onto the last entry, so that {@link #hasNext()} is {@code true} and
     * {@link #peekNext()} returns the last entry; past the end when the database is empty.
     */
    void seekToLast();
}
