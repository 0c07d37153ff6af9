package org.leveldbj.kafka.streams;

import java.util.Map;
import org.apache.kafka.streams.state.VersionedKeyValueStore;

/**
 * Reads and writes one key's versions in the {@link VersionLayout}, through a {@link View} of
 * the data: the database itself for the store's own writes, a readable batch for restoration.
 * The same code serves both, so a restored store holds what the live one held.
 *
 * <p>Invariant, kept by every put: a key's versions tile time from its oldest version on, each
 * valid from its validFrom up to the next one's, the latest (value or tombstone) at its key in
 * the latest region, the others in the history region. The compaction filter may remove versions that expired (see {@link VersionExpiryFilter});
 * what remains is then a contiguous run ending at the latest version, plus expired leftovers
 * that reads skip, and a put never needs what was removed.
 *
 * <p>Thread safety: stateless; the caller serializes writes to a key.
 */
final class VersionHistory {
    private VersionHistory() {
    }

    /** The data a put or a get reads and writes. */
    interface View {
        /**
         * @param key a data key
         * @return its value, or {@code null}
         */
        byte[] get(byte[] key);

        /**
         * @param from the smallest key wanted
         * @param to the key above every key wanted
         * @return the first entry in {@code [from, to)}, or {@code null}
         */
        Map.Entry<byte[], byte[]> first(byte[] from, byte[] to);

        /**
         * @param key a data key
         * @param value its new value, or {@code null} to delete it
         */
        void put(byte[] key, byte[] value);
    }

    /**
     * One version, as a get finds it.
     *
     * @param entry the entry's value ({@link VersionLayout}), checked
     * @param validTo the end of its validity, or {@link Long#MAX_VALUE} meaning none (the latest)
     * @param latest whether it is the latest version
     */
    record Version(byte[] entry, long validTo, boolean latest) {
        boolean isTombstone() {
            return VersionLayout.isTombstone(entry);
        }

        long validFrom() {
            return VersionLayout.validFrom(entry);
        }
    }

    /**
     * Puts a version, splitting the one it falls in. The caller has checked the grace period.
     *
     * @param storeName the store, for messages
     * @param view the data
     * @param userKey the key
     * @param value the value, or {@code null} for a tombstone
     * @param timestamp the version's validFrom
     * @return the new version's validTo, or
     *     {@link VersionedKeyValueStore#PUT_RETURN_CODE_VALID_TO_UNDEFINED} when it is the latest
     */
    static long put(String storeName, View view, byte[] userKey, byte[] value, long timestamp) {
        byte[] group = VersionLayout.group(userKey);
        byte[] latestKey = VersionLayout.latestKey(group);
        byte[] newEntry = VersionLayout.entry(value, timestamp);
        byte[] latest = view.get(latestKey);
        if (latest == null) {
            // No version, or only ones that ended before: after an expired latest tombstone, or
            // a tombstone at the latest value's timestamp (see deleteLatest). The new one is
            // the latest.
            view.put(latestKey, newEntry);
            return VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED;
        }
        long latestFrom = VersionLayout.validFrom(VersionLayout.checked(storeName, latest));
        if (value == null && timestamp == latestFrom && !VersionLayout.isTombstone(latest)) {
            return deleteLatest(storeName, view, group, latestKey, newEntry, timestamp);
        }
        if (timestamp >= latestFrom) {
            if (timestamp > latestFrom) {
                view.put(VersionLayout.historyKey(group, timestamp), latest); // valid up to the new one
            }
            view.put(latestKey, newEntry);
            return VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED;
        }
        // timestamp < latestFrom, so timestamp + 1 does not overflow.
        Map.Entry<byte[], byte[]> found = view.first(VersionLayout.historyKey(group, timestamp + 1),
                VersionLayout.historyEnd(group));
        if (found == null || !VersionLayout.inHistory(found.getKey(), group)) {
            // Before the latest version, after every older one: valid up to the latest.
            view.put(VersionLayout.historyKey(group, latestFrom), newEntry);
            return latestFrom;
        }
        byte[] foundEntry = VersionLayout.checked(storeName, found.getValue());
        long foundFrom = VersionLayout.validFrom(foundEntry);
        long foundTo = VersionLayout.validTo(found.getKey());
        if (foundFrom == timestamp) {
            view.put(found.getKey(), newEntry); // replaces it
            return foundTo;
        }
        if (foundFrom < timestamp) {
            view.put(VersionLayout.historyKey(group, timestamp), foundEntry); // its first part
            view.put(found.getKey(), newEntry); // the rest is the new version's
            return foundTo;
        }
        // Before every version still held: valid up to the oldest one.
        view.put(VersionLayout.historyKey(group, foundFrom), newEntry);
        return foundFrom;
    }

    /**
     * A tombstone at the latest value's own timestamp, as Kafka's versioned store has it: the
     * value goes, and no version starts at that timestamp of its own. The key is deleted from
     * where the version before ended: at this timestamp when that version is a value (the
     * tombstone takes the latest key), from that version's start when it is itself a tombstone
     * (it becomes the latest); with no version before, the key has none left.
     */
    private static long deleteLatest(String storeName, View view, byte[] group, byte[] latestKey, byte[] tombstone,
                                     long timestamp) {
        byte[] beforeKey = VersionLayout.historyKey(group, timestamp);
        byte[] before = view.get(beforeKey);
        if (before == null) {
            view.put(latestKey, null);
        } else if (VersionLayout.isTombstone(VersionLayout.checked(storeName, before))) {
            view.put(beforeKey, null);
            view.put(latestKey, before);
        } else {
            view.put(latestKey, tombstone);
        }
        return VersionedKeyValueStore.PUT_RETURN_CODE_VALID_TO_UNDEFINED;
    }

    /**
     * @param view the data
     * @param userKey the key
     * @return its latest version, or {@code null}
     */
    static Version latest(String storeName, View view, byte[] userKey) {
        byte[] latest = view.get(VersionLayout.latestKey(VersionLayout.group(userKey)));
        return latest == null ? null : new Version(VersionLayout.checked(storeName, latest), Long.MAX_VALUE, true);
    }

    /**
     * The version valid at a time (value or tombstone), if any is held. The caller applies the
     * history retention rule.
     *
     * @param view the data
     * @param userKey the key
     * @param asOf the time
     * @return the version whose validity holds {@code asOf}, or {@code null}
     */
    static Version asOf(String storeName, View view, byte[] userKey, long asOf) {
        byte[] group = VersionLayout.group(userKey);
        byte[] latestKey = VersionLayout.latestKey(group);
        byte[] latest = view.get(latestKey);
        if (latest == null) {
            return null; // nothing, or only expired versions (see put)
        }
        Version l = new Version(VersionLayout.checked(storeName, latest), Long.MAX_VALUE, true);
        if (l.validFrom() <= asOf) {
            return l;
        }
        Map.Entry<byte[], byte[]> found = view.first(VersionLayout.historyKey(group, asOf + 1),
                VersionLayout.historyEnd(group));
        if (found == null || !VersionLayout.inHistory(found.getKey(), group)) {
            return null;
        }
        Version v = new Version(VersionLayout.checked(storeName, found.getValue()), VersionLayout.validTo(found.getKey()),
                false);
        return v.validFrom() <= asOf ? v : null;
    }
}
