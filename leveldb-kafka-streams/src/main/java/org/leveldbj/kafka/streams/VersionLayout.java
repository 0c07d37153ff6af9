package org.leveldbj.kafka.streams;

import java.util.Arrays;
import org.apache.kafka.streams.errors.ProcessorStateException;

/**
 * The byte layout of a versioned store's data (the keys and values {@link StoreDatabase} holds
 * after its data namespace byte): every version of a key, value or tombstone, is one entry, keyed
 * by the end of its validity.
 *
 * <pre>
 * key   = escaped user key, 0x00 0x00, suffix (9 bytes)
 *           escaped user key: each 0x00 byte written as 0x00 0xFF, every other byte as is
 *           suffix, a version that a newer one replaced: 0x00, validTo (8 bytes, big-endian,
 *                                                        sign bit flipped)
 *           suffix, the latest version:                  0x01, 8 zero bytes
 * value = kind (1 byte: 0x00 value, 0x01 tombstone), validFrom (8 bytes, big-endian),
 *         the value's bytes (none for a tombstone)
 * </pre>
 *
 * <p>Why so. The escaping keeps the user keys apart and in their unsigned byte order: no escaped
 * key contains 0x00 0x00, so the terminator ends every key's versions before those of any key
 * it is a prefix of ({@code a} before {@code a\0}, whose escaped form continues 0x00 0xFF). A
 * key's versions follow each other in ascending validTo, the latest (validTo infinite) last, and
 * tile time: each version is valid from its validFrom (its record's timestamp, inclusive) up to
 * the validFrom of the next one (exclusive). So:
 * <ul>
 *   <li>the latest version is at a fixed key: {@code get(key)} is one point lookup;</li>
 *   <li>the version valid at {@code asOf} is the first entry at or after validTo = asOf + 1:
 *       {@code get(key, asOf)} is the point lookup, and one seek when the latest version
 *       started after asOf;</li>
 *   <li>a version's validTo is in its key, so the compaction filter ({@link VersionExpiryFilter})
 *       drops expired versions without decoding values;</li>
 *   <li>a put in time order rewrites the previous latest version under its new validTo and
 *       writes the new one at the latest key: two writes in one batch, whatever the number of
 *       versions.</li>
 * </ul>
 * The fixed-length suffix lets the filter read it from the end of a key.
 *
 * <p>Thread safety: stateless.
 */
final class VersionLayout {
    /** Suffix kind of a version a newer one replaced. */
    static final byte HISTORY = 0x00;
    /** Suffix kind of the latest version. */
    static final byte LATEST = 0x01;
    /** Value kind of a value. */
    static final byte VALUE = 0x00;
    /** Value kind of a tombstone. */
    static final byte TOMBSTONE = 0x01;
    /** Length of a key's suffix. */
    static final int SUFFIX_LENGTH = 9;
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
     * @return the smallest key above all its versions' keys
     */
    static byte[] groupEnd(byte[] group) {
        byte[] end = group.clone();
        end[end.length - 1] = 1;
        return end;
    }

    /**
     * @param group a key's {@link #group}
     * @param validTo the end of a replaced version's validity
     * @return the key of that version
     */
    static byte[] historyKey(byte[] group, long validTo) {
        byte[] k = Arrays.copyOf(group, group.length + SUFFIX_LENGTH);
        k[group.length] = HISTORY;
        putLong(k, group.length + 1, validTo ^ Long.MIN_VALUE);
        return k;
    }

    /**
     * @param group a key's {@link #group}
     * @return the key of its latest version
     */
    static byte[] latestKey(byte[] group) {
        byte[] k = Arrays.copyOf(group, group.length + SUFFIX_LENGTH);
        k[group.length] = LATEST;
        return k;
    }

    /**
     * @param key a version's key (without the namespace byte)
     * @param group the group it should belong to
     * @return whether it is a version of that group's user key
     */
    static boolean inGroup(byte[] key, byte[] group) {
        return key.length == group.length + SUFFIX_LENGTH
                && Arrays.equals(key, 0, group.length, group, 0, group.length);
    }

    /**
     * @param key a version's key (read from its end: the namespace byte may be there or not)
     * @return whether it is the latest version's key
     */
    static boolean isLatest(byte[] key) {
        return key[key.length - SUFFIX_LENGTH] == LATEST;
    }

    /**
     * @param key a replaced version's key (read from its end)
     * @return its validTo
     */
    static long validTo(byte[] key) {
        return getLong(key, key.length - 8) ^ Long.MIN_VALUE;
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
