package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.leveldbj.util.Coding;

/**
 * A compact search aid for a block with many restart points (an index block): for each restart
 * key, the eight bytes that follow the prefix the restart keys share (all but the last, which
 * may be a short successor sharing nothing: see {@link #build}), as one big-endian
 * {@code long}. A seek compares these longs first and reads the block's own bytes only on a
 * tie, so a binary search touches one small array instead of two cache lines of the block per
 * step.
 *
 * <p>Which orders: those whose {@link KeyComparator#bytewisePrefixTrim()} is not negative, that
 * is, orders that compare keys first as unsigned byte strings of all but their last
 * {@code trim} bytes (the bytewise order with trim 0; an internal-key order over the bytewise
 * user order with trim 8). Windows are taken of those compared bytes, padded with zeros.
 *
 * <p>Why a strict comparison of windows decides: let window(k) be the padded bytes of k from
 * the shared prefix on. If window(a) &lt; window(b) as unsigned longs, at the first byte where
 * they differ either both bytes are real (so a's compared bytes sort before b's) or a's byte is
 * padding (a's compared bytes end there, a proper prefix of b's); b's byte cannot be padding,
 * since padding is zero and no byte is below zero. Either way a sorts before b, whatever their
 * trailers. Equal windows decide nothing, and the caller compares the keys themselves.
 *
 * <p>Thread safety: immutable once built.
 */
final class SearchWindows {
    /** Blocks with fewer restart points are searched without windows. */
    static final int MIN_RESTARTS = 32;

    private final int trim;
    /** The bytes every restart key's compared part starts with. */
    private final byte[] prefix;
    private final long[] windows;

    private SearchWindows(int trim, byte[] prefix, long[] windows) {
        this.trim = trim;
        this.prefix = prefix;
        this.windows = windows;
    }

    /**
     * Builds the windows of a block's restart keys.
     *
     * @param data the block's bytes
     * @param restartPoints the offset of each restart entry
     * @param entriesEnd where the entries end (the restart array's offset)
     * @param trim the comparator's {@link KeyComparator#bytewisePrefixTrim()}, at least 0
     * @return the windows, or {@code null} when a restart entry is malformed (the caller's
     *     ordinary search then reports it)
     */
    static SearchWindows build(ByteBuffer data, int[] restartPoints, int entriesEnd, int trim) {
        int n = restartPoints.length;
        int[] starts = new int[n];
        int[] lengths = new int[n];
        for (int i = 0; i < n; i++) {
            int p = restartPoints[i];
            try {
                long packed = Coding.getVarint32(data, p, entriesEnd);
                int shared = Coding.value(packed);
                packed = Coding.getVarint32(data, Coding.next(packed), entriesEnd);
                int nonShared = Coding.value(packed);
                packed = Coding.getVarint32(data, Coding.next(packed), entriesEnd);
                int keyAt = Coding.next(packed);
                if (shared != 0 || nonShared < trim || nonShared > entriesEnd - keyAt) {
                    return null;
                }
                starts[i] = keyAt;
                lengths[i] = nonShared - trim;
            } catch (RuntimeException e) {
                return null;
            }
        }
        // The prefix is the one every key but the last shares: the last key of an index block
        // is usually the short successor of the table's last key ("1" after keys
        // "0000...", say), which shares nothing with the others and would leave no prefix.
        int last = n - 1;
        int common = lengths[0];
        for (int i = 1; i < last && common > 0; i++) {
            common = sharedLength(data, starts[0], starts[i], Math.min(common, lengths[i]));
        }
        byte[] prefix = new byte[common];
        data.get(starts[0], prefix);
        long[] windows = new long[n];
        for (int i = 0; i < last; i++) {
            windows[i] = window(data, starts[i] + common, lengths[i] - common);
        }
        boolean lastShares = lengths[last] >= common
                && sharedLength(data, starts[0], starts[last], common) == common;
        // A last key without the prefix sorts after every key with it (it is not below the key
        // before it, and differs from the prefix at some byte), so after every target that has
        // the prefix: the largest window says so, or ties with a target window of all ones.
        windows[last] = lastShares ? window(data, starts[last] + common, lengths[last] - common) : -1L;
        return new SearchWindows(trim, prefix, windows);
    }

    /** How many of the first {@code max} bytes at {@code a} and at {@code b} are equal. */
    private static int sharedLength(ByteBuffer data, int a, int b, int max) {
        int diff = data.slice(a, max).mismatch(data.slice(b, max));
        return diff < 0 ? max : diff;
    }

    /** The first eight of {@code length} bytes at {@code at}, big-endian, padded with zeros. */
    private static long window(ByteBuffer b, int at, int length) {
        long w = 0;
        int n = Math.min(length, Long.BYTES);
        for (int i = 0; i < n; i++) {
            w |= (long) (b.get(at + i) & 0xff) << (Long.SIZE - Byte.SIZE * (i + 1));
        }
        return w;
    }

    /**
     * The window of a target key, when the target starts with the shared prefix.
     *
     * @param target buffer holding the key
     * @param offset index of its first byte
     * @param length its length
     * @param out receives the window in {@code out[0]}
     * @return {@code false} when the target does not start with the shared prefix (or is too
     *     short to hold a trailer), and windows cannot be used for it
     */
    boolean targetWindow(ByteBuffer target, int offset, int length, long[] out) {
        int compared = length - trim;
        if (compared < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (target.get(offset + i) != prefix[i]) {
                return false;
            }
        }
        out[0] = window(target, offset + prefix.length, compared - prefix.length);
        return true;
    }

    /**
     * Compares restart key {@code i} with a target by their windows.
     *
     * @return negative or positive when the windows decide, 0 when the keys must be compared
     */
    int compare(int i, long targetWindow) {
        return Long.compareUnsigned(windows[i], targetWindow);
    }

    /** For tests: the length of the shared prefix. */
    int prefixLength() {
        return prefix.length;
    }

    @Override
    public String toString() {
        return "SearchWindows[" + windows.length + " keys, prefix " + prefix.length + " bytes, trim " + trim
                + ", first " + Arrays.toString(Arrays.copyOf(windows, Math.min(2, windows.length))) + "]";
    }
}
