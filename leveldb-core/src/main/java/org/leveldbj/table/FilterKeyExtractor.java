package org.leveldbj.table;

/**
 * Chooses the part of each table key that filters see: a prefix of the key, whose length this
 * function computes from the key's length. A database stores internal keys (user key plus an
 * 8-byte trailer) but looks keys up by user key, so it filters on the user key:
 * {@code FilterKeyExtractor.dropSuffix(8)}; a standalone table filters on whole keys.
 *
 * <p>Thread safety: implementations must be stateless.
 */
@FunctionalInterface
public interface FilterKeyExtractor {
    /** Filters see whole keys. */
    FilterKeyExtractor WHOLE_KEY = keyLength -> keyLength;

    /**
     * Returns how many leading bytes of a key the filter sees.
     *
     * @param keyLength the key's length
     * @return the length of the prefix, between 0 and {@code keyLength}
     */
    int filterKeyLength(int keyLength);

    /**
     * Filters see keys without their last {@code suffixLength} bytes (keys shorter than that
     * become empty).
     *
     * @param suffixLength how many trailing bytes to drop, e.g. 8 for internal keys
     * @return the extractor
     */
    static FilterKeyExtractor dropSuffix(int suffixLength) {
        if (suffixLength < 0) {
            throw new IllegalArgumentException("suffixLength must not be negative: " + suffixLength);
        }
        return keyLength -> Math.max(0, keyLength - suffixLength);
    }
}
