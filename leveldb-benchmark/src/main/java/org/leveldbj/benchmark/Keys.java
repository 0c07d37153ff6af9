package org.leveldbj.benchmark;

/** db_bench's keys: the decimal number zero-padded to 16 digits ({@code %016d}). */
final class Keys {
    static final int SIZE = 16;

    private Keys() {
    }

    /** The key of entry {@code k} (non-negative). */
    static byte[] key(int k) {
        return format(k, SIZE);
    }

    /**
     * A key that is never written: entry {@code k}'s key followed by a '.', which sorts after
     * it and before the next entry's key.
     */
    static byte[] missingKey(int k) {
        byte[] key = format(k, SIZE + 1);
        key[SIZE] = '.';
        return key;
    }

    private static byte[] format(int k, int length) {
        if (k < 0) {
            throw new IllegalArgumentException("negative key number " + k);
        }
        byte[] key = new byte[length];
        int value = k;
        for (int i = SIZE - 1; i >= 0; i--) {
            key[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return key;
    }
}
