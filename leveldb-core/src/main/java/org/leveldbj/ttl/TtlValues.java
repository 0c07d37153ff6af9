package org.leveldbj.ttl;

import org.iq80.leveldb.CorruptionException;

/**
 * The byte layout of a TTL database's values: the application's value, then its expiry as an
 * 8-byte big-endian signed count of milliseconds since 1970-01-01T00:00:00Z
 * ({@link #NEVER}, {@link Long#MAX_VALUE}, for a value that does not expire). An entry is
 * expired at a clock reading {@code now} (milliseconds) when {@code now >= expiry}.
 *
 * <pre>
 *   +---------------------------+---------------------------------+
 *   | value (n bytes)           | expiry (8 bytes, big-endian)     |
 *   +---------------------------+---------------------------------+
 * </pre>
 *
 * <p>Thread safety: stateless.
 */
public final class TtlValues {
    /** The length of the expiry suffix. */
    public static final int SUFFIX_LENGTH = 8;
    /** The expiry of a value that never expires. */
    public static final long NEVER = Long.MAX_VALUE;

    private TtlValues() {
    }

    /**
     * Appends an expiry to a value.
     *
     * @param value the application's value
     * @param expiryMillis when it expires, in milliseconds since the epoch
     * @return the stored form: {@code value} then the suffix
     */
    public static byte[] encode(byte[] value, long expiryMillis) {
        byte[] stored = new byte[value.length + SUFFIX_LENGTH];
        System.arraycopy(value, 0, stored, 0, value.length);
        for (int i = 0; i < SUFFIX_LENGTH; i++) {
            stored[value.length + i] = (byte) (expiryMillis >>> (56 - 8 * i));
        }
        return stored;
    }

    /**
     * Whether a stored value is long enough to hold the suffix.
     *
     * @param stored a stored value
     * @return {@code true} when it has at least {@value #SUFFIX_LENGTH} bytes
     */
    public static boolean isWellFormed(byte[] stored) {
        return stored.length >= SUFFIX_LENGTH;
    }

    /**
     * The expiry of a stored value.
     *
     * @param stored a stored value, at least {@value #SUFFIX_LENGTH} bytes
     * @return the expiry in milliseconds since the epoch
     * @throws CorruptionException if the value is too short to hold the suffix
     */
    public static long expiry(byte[] stored) {
        requireWellFormed(stored);
        long expiry = 0;
        for (int i = stored.length - SUFFIX_LENGTH; i < stored.length; i++) {
            expiry = (expiry << 8) | (stored[i] & 0xff);
        }
        return expiry;
    }

    /**
     * The application's value of a stored value.
     *
     * @param stored a stored value, at least {@value #SUFFIX_LENGTH} bytes
     * @return a copy of the bytes before the suffix
     * @throws CorruptionException if the value is too short to hold the suffix
     */
    public static byte[] value(byte[] stored) {
        requireWellFormed(stored);
        return java.util.Arrays.copyOf(stored, stored.length - SUFFIX_LENGTH);
    }

    /**
     * Whether a stored value has expired.
     *
     * @param stored a stored value
     * @param nowMillis the clock's reading, milliseconds since the epoch
     * @return {@code true} when {@code nowMillis >= expiry}
     * @throws CorruptionException if the value is too short to hold the suffix
     */
    public static boolean expired(byte[] stored, long nowMillis) {
        return nowMillis >= expiry(stored);
    }

    /**
     * The expiry a time to live gives, from a clock reading; saturates at {@link #NEVER}.
     *
     * @param nowMillis the clock's reading
     * @param ttlMillis the time to live, positive
     * @return {@code nowMillis + ttlMillis}, or {@link #NEVER} on overflow
     */
    static long expiryAfter(long nowMillis, long ttlMillis) {
        long sum = nowMillis + ttlMillis;
        return ((nowMillis ^ sum) & (ttlMillis ^ sum)) < 0 ? NEVER : sum;
    }

    private static void requireWellFormed(byte[] stored) {
        if (stored.length < SUFFIX_LENGTH) {
            throw new CorruptionException("TTL value of " + stored.length
                    + " bytes is shorter than its " + SUFFIX_LENGTH + "-byte expiry suffix");
        }
    }
}
