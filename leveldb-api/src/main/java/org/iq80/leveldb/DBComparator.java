package org.iq80.leveldb;

import java.util.Comparator;

/**
 * The order of the keys of a database, when unsigned lexicographic byte order is not wanted.
 * Set with {@link Options#comparator(DBComparator)}.
 *
 * <p>The order is part of the database's format: a database must always be opened with a
 * comparator of the same {@linkplain #name() name} and the same order, and opening it with a
 * comparator of another name fails. Besides comparing, a comparator helps shorten the keys stored
 * in table indexes through {@link #findShortestSeparator} and {@link #findShortSuccessor};
 * returning the argument unchanged is always correct, only less compact.
 *
 * <p>Thread safety: the database calls a comparator from many threads at once, so an
 * implementation must be safe for concurrent use (a stateless one is).
 */
public interface DBComparator extends Comparator<byte[]> {

    /**
     * Returns the name recorded in the database when it is created and checked each time it is
     * opened. Change the name whenever the order changes. Names starting with {@code "leveldb."}
     * are reserved.
     *
     * @return the comparator's name
     */
    String name();

    /**
     * Returns a key, as short as convenient, that is at least {@code start} and less than
     * {@code limit} in this order. The database uses it to separate two table blocks.
     *
     * @param start a key; the result must not sort before it
     * @param limit a key after {@code start}; the result must sort before it
     * @return a key {@code k} with {@code start <= k < limit}; {@code start} itself is always
     *     acceptable
     */
    byte[] findShortestSeparator(byte[] start, byte[] limit);

    /**
     * Returns a key, as short as convenient, that is at least {@code key} in this order. The
     * database uses it to mark the end of the last block of a table.
     *
     * @param key a key
     * @return a key {@code k} with {@code key <= k}; {@code key} itself is always acceptable
     */
    byte[] findShortSuccessor(byte[] key);
}
