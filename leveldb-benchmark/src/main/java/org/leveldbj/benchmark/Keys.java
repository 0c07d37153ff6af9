package org.leveldbj.benchmark;

/**
 * db_bench's keys: the decimal key number zero-padded to a fixed number of digits, 16 by
 * default ({@code %016d}), fewer with {@code --key_size} (the SSDB measurements this runner's
 * scale workloads mirror used 10-digit keys). Immutable; the arrays returned are new.
 */
final class Keys {
    /** db_bench's key size, the default of {@code --key_size}. */
    static final int SIZE = 16;
    /** The most digits a key may have: a key number is an {@code int}, whose 10 digits fit. */
    static final int MAX_SIZE = SIZE;
    /** Keys of {@link #SIZE} digits. */
    static final Keys DEFAULT = new Keys(SIZE);

    private final int size;

    /**
     * @param size the digits of a key, 1 to {@link #MAX_SIZE}
     * @throws IllegalArgumentException if {@code size} is out of range
     */
    Keys(int size) {
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("key size " + size + " (1 to " + MAX_SIZE + ")");
        }
        this.size = size;
    }

    /** The bytes of a key. */
    int size() {
        return size;
    }

    /**
     * Whether every key number below {@code count} fits in this size's digits.
     *
     * @param count the number of keys
     * @return whether {@code count - 1} has at most {@link #size()} digits
     */
    boolean holds(long count) {
        return count <= 1 || Long.toString(count - 1).length() <= size;
    }

    /** The key of entry {@code k} (non-negative, with at most {@link #size()} digits). */
    byte[] key(int k) {
        return format(k, size);
    }

    /**
     * A key that is never written: entry {@code k}'s key followed by a '.', which sorts after
     * it and before the next entry's key.
     */
    byte[] missingKey(int k) {
        byte[] key = format(k, size + 1);
        key[size] = '.';
        return key;
    }

    private byte[] format(int k, int length) {
        if (k < 0) {
            throw new IllegalArgumentException("negative key number " + k);
        }
        byte[] key = new byte[length];
        int value = k;
        for (int i = size - 1; i >= 0; i--) {
            key[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        if (value != 0) {
            throw new IllegalArgumentException("key number " + k + " has more than " + size + " digits");
        }
        return key;
    }
}
