package org.leveldbj.table;

/**
 * A scan of user keys in {@code [lower, upper)}, every one of which has the prefix
 * {@code prefix} under the extractor named {@code extractorName}: a table whose prefix filter was
 * built by that extractor may leave out the data blocks whose filter says the prefix is absent.
 * The caller guarantees that every key in the range has the prefix; the arrays are not copied
 * and must not change.
 *
 * @param extractorName the name of the extractor that cut {@code prefix}
 * @param prefix the prefix shared by every key in the range
 * @param lower the first user key of the range
 * @param upper the first user key after the range
 */
public record PrefixScan(String extractorName, byte[] prefix, byte[] lower, byte[] upper) {
    public PrefixScan {
        if (extractorName == null || prefix == null || lower == null || upper == null) {
            throw new NullPointerException("extractorName, prefix, lower and upper are required");
        }
    }
}
