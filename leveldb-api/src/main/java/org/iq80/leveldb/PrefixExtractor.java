package org.iq80.leveldb;

import java.nio.ByteBuffer;

/**
 * Cuts a key's prefix, the part of the key that prefix filters and prefix scans group keys by:
 * with {@link Options#prefixExtractor(PrefixExtractor)} set, every new table file keeps, next to
 * its whole-key filter, a filter on the prefixes of its keys, so that a scan of one prefix skips
 * the tables and blocks that hold none of its keys.
 *
 * <p>This is an extension of the 0.12 API, after RocksDB's {@code prefix_extractor}.
 *
 * <p>Contract, which the built-ins keep and an implementation must keep:
 * <ul>
 *   <li>{@link #prefix(byte[])} of a key in the {@linkplain #inDomain(byte[]) domain} is a leading
 *       part of that key (possibly all of it);</li>
 *   <li>a key that begins with the prefix {@code p} of a key in the domain is in the domain and
 *       its prefix is {@code p} too (so that the keys of one prefix are next to one another in
 *       byte-wise order);</li>
 *   <li>the answers depend on the key's bytes only, and never change for a given
 *       {@linkplain #name() name}: tables record the name, and a table written under another
 *       name is read as if it had no prefix filter.</li>
 * </ul>
 *
 * <p>Thread safety: implementations must be stateless or immutable; the engine calls them from
 * any thread.
 */
public interface PrefixExtractor {
    /**
     * Returns the extractor's stable name, recorded in table files beside the filter it built.
     * Two extractors with the same name must cut the same prefixes.
     *
     * @return the name, not empty
     */
    String name();

    /**
     * Tells whether a key has a prefix. Keys outside the domain are left out of prefix filters.
     *
     * @param key the key
     * @return {@code true} if {@link #prefix(byte[])} may be called on it
     */
    boolean inDomain(byte[] key);

    /**
     * Returns the prefix of a key in the domain: a leading part of the key.
     *
     * @param key a key for which {@link #inDomain(byte[])} is {@code true}
     * @return the prefix, a new array
     */
    byte[] prefix(byte[] key);

    /**
     * Returns the length of the prefix of a key given as bytes of a buffer, or {@code -1} if the
     * key is not in the domain. The engine calls this on every key it writes; the default copies
     * the bytes and calls {@link #inDomain(byte[])} and {@link #prefix(byte[])}, the built-ins
     * answer without copying.
     *
     * @param key the buffer holding the key (positions are absolute; the buffer is not moved)
     * @param offset where the key begins
     * @param length the key's length
     * @return the prefix's length, between {@code 0} and {@code length}, or {@code -1}
     */
    default int prefixLength(ByteBuffer key, int offset, int length) {
        byte[] copy = new byte[length];
        key.get(offset, copy);
        if (!inDomain(copy)) {
            return -1;
        }
        int n = prefix(copy).length;
        if (n > length) {
            throw new IllegalStateException("prefix extractor " + name() + " returned a prefix longer than the key");
        }
        return n;
    }

    /**
     * Returns the extractor whose prefix is a key's first {@code length} bytes; shorter keys are
     * outside its domain. Its name is {@code "leveldbj.FixedPrefix." + length}.
     *
     * @param length the prefix length, at least {@code 1}
     * @return the extractor
     * @throws IllegalArgumentException if {@code length} is less than {@code 1}
     */
    static PrefixExtractor fixedLength(int length) {
        Arguments.checkAtLeast(length, 1, "length");
        return new PrefixExtractors.FixedLength(length);
    }

    /**
     * Returns the extractor whose prefix is a key up to and including the first occurrence of
     * {@code delimiter}, e.g. {@code "order:"} of {@code "order:1:item:2"} for {@code ':'}; keys
     * without the byte are outside its domain. Its name is
     * {@code "leveldbj.DelimitedPrefix." + (delimiter & 0xff)}.
     *
     * @param delimiter the byte that ends a prefix
     * @return the extractor
     */
    static PrefixExtractor upToDelimiter(byte delimiter) {
        return new PrefixExtractors.Delimited(delimiter);
    }

    /**
     * Returns {@link #upToDelimiter(byte)} of a character's one-byte UTF-8 form.
     *
     * @param delimiter an ASCII character, such as {@code ':'}
     * @return the extractor
     * @throws IllegalArgumentException if {@code delimiter} is not ASCII
     */
    static PrefixExtractor upToDelimiter(char delimiter) {
        if (delimiter > 0x7f) {
            throw new IllegalArgumentException("delimiter must be an ASCII character: U+"
                    + String.format("%04X", (int) delimiter));
        }
        return upToDelimiter((byte) delimiter);
    }
}
