package org.leveldbj.comparator;

import java.nio.ByteBuffer;

/**
 * A total order over the keys stored in tables, with the two key-shortening operations that
 * keep index blocks small. Tables are agnostic of what their keys mean: a database stores
 * internal keys (user key plus an 8-byte trailer) and passes an internal-key comparator; a
 * standalone table may use {@link BytewiseComparator} directly.
 *
 * <p>The {@link #name()} is recorded by the database (not by the table) and checked when the
 * database is reopened, so a comparator whose order changes must change its name.
 *
 * <p>Thread safety: implementations must be stateless or otherwise safe for concurrent use;
 * one instance serves every reader of a table.
 */
public interface KeyComparator {
    /**
     * The name identifying this order, e.g. {@code "leveldb.BytewiseComparator"}.
     *
     * @return the name; never {@code null}
     */
    String name();

    /**
     * Compares two keys held in buffer ranges (absolute indexes; positions are not moved).
     * Must not allocate: this is called for every key visited by a seek.
     *
     * @param a the buffer holding the first key
     * @param aOffset the index of its first byte
     * @param aLength its length
     * @param b the buffer holding the second key
     * @param bOffset the index of its first byte
     * @param bLength its length
     * @return negative, zero or positive as the first key sorts before, with or after the second
     */
    int compare(ByteBuffer a, int aOffset, int aLength, ByteBuffer b, int bOffset, int bLength);

    /**
     * Tells whether this order compares keys first as unsigned byte strings of all but their
     * last few bytes, and how many: 0 for the bytewise order, 8 for internal keys over it. A
     * result of {@code t >= 0} promises that whenever those parts of two keys differ, the keys
     * compare as the parts do. Lets searches compare a few bytes at a time without calling
     * {@link #compare}.
     *
     * @return the number of trailing bytes not compared bytewise first, or -1 when the order
     *     makes no such promise (the default)
     */
    default int bytewisePrefixTrim() {
        return -1;
    }

    /**
     * Compares the remaining bytes of two buffers.
     *
     * @param a the first key
     * @param b the second key
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    default int compare(ByteBuffer a, ByteBuffer b) {
        return compare(a, a.position(), a.remaining(), b, b.position(), b.remaining());
    }

    /**
     * Compares two keys held in arrays; the bytewise order compares the arrays directly.
     *
     * @param a the first key's array
     * @param aOffset where it starts
     * @param aLength its length
     * @param b the second key's array
     * @param bOffset where it starts
     * @param bLength its length
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    default int compare(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
        return compare(ByteBuffer.wrap(a), aOffset, aLength, ByteBuffer.wrap(b), bOffset, bLength);
    }

    /**
     * Compares two arrays holding keys.
     *
     * @param a the first key
     * @param b the second key
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    default int compare(byte[] a, byte[] b) {
        return compare(ByteBuffer.wrap(a), 0, a.length, ByteBuffer.wrap(b), 0, b.length);
    }

    /**
     * Returns a key, as short as convenient, that is at or after {@code start} and before
     * {@code limit}: an index entry separating two data blocks. Returning {@code start}
     * unchanged is always correct.
     *
     * <p>Requires: {@code compare(start, limit) < 0}.
     *
     * @param start the last key of a block
     * @param limit the first key of the next block
     * @return {@code start} itself or a new array; the arguments are not modified
     */
    byte[] findShortestSeparator(byte[] start, byte[] limit);

    /**
     * Returns a key, as short as convenient, that is at or after {@code key}: the index entry
     * of the last data block. Returning {@code key} unchanged is always correct.
     *
     * @param key the last key of a table
     * @return {@code key} itself or a new array; the argument is not modified
     */
    byte[] findShortSuccessor(byte[] key);
}
