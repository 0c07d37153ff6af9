package org.leveldbj.kafka.streams;

import java.util.Arrays;
import org.apache.kafka.streams.errors.ProcessorStateException;

/**
 * The byte layout of a versioned store's data (the keys and values {@link StoreDatabase} holds
 * after its data namespace byte): every version of a key, value or tombstone, is one entry. The
 * latest versions have a region of their own, keyed by the user key; the versions newer ones
 * replaced are in another, keyed by the user key and the end of their validity.
 *
 * <pre>
 * latest version:    key   = 0x00, escaped user key
 * replaced version:  key   = 0x01, escaped user key, 0x00 0x00, validTo (8 bytes, big-endian,
 *                            sign bit flipped)
 *                    escaped user key: each 0x00 byte written as 0x00 0xFF, every other byte as is
 * both:              value = kind (1 byte: 0x00 value, 0x01 tombstone), validFrom (8 bytes,
 *                            big-endian), the value's bytes (none for a tombstone)
 * </pre>
 *
 * <p>Why so. The escaping keeps user keys apart and in their unsigned byte order: no escaped key
 * contains 0x00 0x00, so the terminator ends a key's replaced versions before those of any key
 * it is a prefix of ({@code a} before {@code a\0}, whose escaped form continues 0x00 0xFF). A
 * key's versions tile time: each is valid from its validFrom (its record's timestamp, inclusive)
 * up to the validFrom of the next one (exclusive), the latest forever. So:
 * <ul>
 *   <li>{@code get(key)} is one point lookup, in a region as dense as a plain key-value store:
 *       history does not dilute the blocks (and the block cache) that latest values live in;</li>
 *   <li>{@code get(key, asOf)} is that lookup when the latest version started at or before
 *       asOf (a join's common case), else one seek: the version valid at asOf is the first
 *       replaced version at or after validTo = asOf + 1;</li>
 *   <li>a version's validTo is in its key, so the compaction filter ({@link VersionExpiryFilter})
 *       drops expired versions without decoding values;</li>
 *   <li>a put in time order rewrites the previous latest version into the history region under
 *       its validTo and overwrites the latest: two writes in one batch, whatever the number of
 *       versions.</li>
 * </ul>
 *
 * <p>Thread safety: stateless.
 */
final class VersionLayout {
    /** Region of the latest versions. */
    static final byte LATEST = 0x00;
    /** Region of the versions newer ones replaced. */
    static final byte HISTORY = 0x01;
    /** Value kind of a value. */
    static final byte VALUE = 0x00;
    /** Value kind of a tombstone. */
    static final byte TOMBSTONE = 0x01;
    /** Length of a replaced version's key after its group: the validTo. */
    static final int VALID_TO_LENGTH = 8;
    /** Length of the header before a value's bytes. */
    static final int HEADER_LENGTH = 9;
    private static final int TERMINATOR_LENGTH = 2;

    private VersionLayout() {
    }

    /**
     * @param userKey a user key
     * @return the prefix of all its versions' keys: the escaped key and the terminator
     */
    static byte[] group(byte[] userKey) {
        int zeros = 0;
        for (byte b : userKey) {
            if (b == 0) {
                zeros++;
            }
        }
        byte[] g = new byte[userKey.length + zeros + TERMINATOR_LENGTH];
        int j = 0;
        for (byte b : userKey) {
            g[j++] = b;
            if (b == 0) {
                g[j++] = (byte) 0xff;
            }
        }
        return g; // the terminator's two bytes are already 0
    }

    /**
     * @param group a key's {@link #group}
     * @return the smallest key of its replaced versions' range
     */
    static byte[] historyStart(byte[] group) {
        byte[] k = new byte[1 + group.length];
        k[0] = HISTORY;
        System.arraycopy(group, 0, k, 1, group.length);
        return k;
    }

    /**
     * @param group a key's {@link #group}
     * @return the smallest key above all its replaced versions' keys
     */
    static byte[] historyEnd(byte[] group) {
        byte[] k = historyStart(group);
        k[k.length - 1] = 1;
        return k;
    }

    /**
     * @param group a key's {@link #group}
     * @param validTo the end of a replaced version's validity
     * @return the key of that version
     */
    static byte[] historyKey(byte[] group, long validTo) {
        byte[] k = new byte[1 + group.length + VALID_TO_LENGTH];
        k[0] = HISTORY;
        System.arraycopy(group, 0, k, 1, group.length);
        putLong(k, 1 + group.length, validTo ^ Long.MIN_VALUE);
        return k;
    }

    /**
     * @param group a key's {@link #group}
     * @return the key of its latest version: the region byte and the escaped key
     */
    static byte[] latestKey(byte[] group) {
        byte[] k = new byte[group.length - 1]; // the region byte replaces the terminator's two
        k[0] = LATEST;
        System.arraycopy(group, 0, k, 1, group.length - 2);
        return k;
    }

    /**
     * @param key a data key
     * @param group the group it should belong to
     * @return whether it is a replaced version of that group's user key
     */
    static boolean inHistory(byte[] key, byte[] group) {
        return key.length == 1 + group.length + VALID_TO_LENGTH && key[0] == HISTORY
                && Arrays.equals(key, 1, 1 + group.length, group, 0, group.length);
    }

    /**
     * @param key a version's key
     * @param offset where it starts: 1 when the array still has the store's namespace byte
     * @return whether it is a latest version's key
     */
    static boolean isLatest(byte[] key, int offset) {
        return key[offset] == LATEST;
    }

    /**
     * @param key a replaced version's key (read from its end)
     * @return its validTo
     */
    static long validTo(byte[] key) {
        return getLong(key, key.length - VALID_TO_LENGTH) ^ Long.MIN_VALUE;
    }

    /**
     * @param value the record's value, or {@code null} for a tombstone
     * @param validFrom the record's timestamp
     * @return the entry's value
     */
    static byte[] entry(byte[] value, long validFrom) {
        byte[] e = new byte[HEADER_LENGTH + (value == null ? 0 : value.length)];
        e[0] = value == null ? TOMBSTONE : VALUE;
        putLong(e, 1, validFrom);
        if (value != null) {
            System.arraycopy(value, 0, e, HEADER_LENGTH, value.length);
        }
        return e;
    }

    /**
     * Checks an entry's value read from the database.
     *
     * @param storeName the store, for the message
     * @param entry the value
     * @return the value
     * @throws ProcessorStateException if it is not an entry of this layout
     */
    static byte[] checked(String storeName, byte[] entry) {
        if (entry.length < HEADER_LENGTH || (entry[0] != VALUE && entry[0] != TOMBSTONE)) {
            throw new ProcessorStateException("store " + storeName + ": corrupt version entry: "
                    + (entry.length < HEADER_LENGTH ? entry.length + " bytes, fewer than its " + HEADER_LENGTH
                    + "-byte header" : "unknown kind " + (entry[0] & 0xff)));
        }
        return entry;
    }

    /** @return whether a checked entry is a tombstone */
    static boolean isTombstone(byte[] entry) {
        return entry[0] == TOMBSTONE;
    }

    /** @return a checked entry's validFrom */
    static long validFrom(byte[] entry) {
        return getLong(entry, 1);
    }

    /** @return a checked value entry's value bytes */
    static byte[] value(byte[] entry) {
        return Arrays.copyOfRange(entry, HEADER_LENGTH, entry.length);
    }

    /**
     * @return a checked value entry as Kafka's {@code ValueAndTimestamp} bytes: the validFrom
     *     (8 bytes, big-endian), then the value's bytes
     */
    static byte[] valueAndTimestamp(byte[] entry) {
        return Arrays.copyOfRange(entry, 1, entry.length);
    }

    static void putLong(byte[] b, int at, long v) {
        for (int i = 7; i >= 0; i--) {
            b[at + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long getLong(byte[] b, int at) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[at + i] & 0xff);
        }
        return v;
    }
}
