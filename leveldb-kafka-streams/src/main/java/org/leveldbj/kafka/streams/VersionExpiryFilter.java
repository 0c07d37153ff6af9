package org.leveldbj.kafka.streams;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.iq80.leveldb.CompactionFilter;

/**
 * Removes a versioned store's expired versions as compactions rewrite them: a replaced version
 * whose validTo is at or before {@code streamTime - historyRetention} (no get within history
 * retention can return it, and no accepted put falls in it), and a latest tombstone whose
 * validFrom is (every version before it expired too, and a missing latest version reads as
 * deleted). A latest value never expires.
 *
 * <p>Which stream time: only one that every crash keeps. Writes skip the write-ahead log, so
 * after a crash the store reopens with the stream time of its last durable commit and the
 * changelog is replayed from there; had the filter used a later in-memory stream time, the
 * replay could put versions beside ones it removed too early. So the filter starts from the
 * stream time the store read when it opened (every readable entry then was in a table file)
 * and learns later ones only from the store's stream-time entry as compactions read it from
 * table files. It is behind the store's own stream time by up to a commit and a flush, which
 * only delays removal; reads apply the exact rule themselves.
 *
 * <p>Thread safety: runs on background threads; the stream time is an atomic maximum.
 */
final class VersionExpiryFilter implements CompactionFilter {
    /** The store's entry holding its observed stream time, as {@link StoreDatabase} keys it. */
    static final String STREAM_TIME = "stream-time";
    private static final byte[] STREAM_TIME_KEY = StoreDatabase.storeMetaKey(STREAM_TIME);
    private static final byte DATA = StoreDatabase.dataKey(new byte[0])[0];
    /** The namespace byte, the region byte, the terminator and the validTo. */
    private static final int MIN_HISTORY_KEY = 1 + 1 + 2 + VersionLayout.VALID_TO_LENGTH;

    private final String storeName;
    private final long historyRetention;
    private final AtomicLong durableStreamTime = new AtomicLong(Long.MIN_VALUE);

    /**
     * @param storeName the store's name
     * @param historyRetention its history retention, in milliseconds
     */
    VersionExpiryFilter(String storeName, long historyRetention) {
        this.storeName = storeName;
        this.historyRetention = historyRetention;
    }

    /**
     * Raises the stream time the filter relies on.
     *
     * @param streamTime a stream time that every crash keeps
     */
    void durable(long streamTime) {
        durableStreamTime.accumulateAndGet(streamTime, Math::max);
    }

    /** @return the stream time the filter relies on, {@link Long#MIN_VALUE} before any */
    long durableStreamTime() {
        return durableStreamTime.get();
    }

    @Override
    public String name() {
        return "leveldbj-versioned-expiry(" + storeName + ")";
    }

    @Override
    public Decision filter(int level, byte[] key, byte[] value) {
        if (key.length < 2 || key[0] != DATA) {
            if (value.length == Long.BYTES && Arrays.equals(key, STREAM_TIME_KEY)) {
                durable(VersionLayout.getLong(value, 0));
            }
            return Decision.KEEP;
        }
        long streamTime = durableStreamTime.get();
        if (streamTime == Long.MIN_VALUE) {
            return Decision.KEEP;
        }
        long horizon = streamTime < Long.MIN_VALUE + historyRetention ? Long.MIN_VALUE : streamTime - historyRetention;
        if (!VersionLayout.isLatest(key, 1)) {
            boolean expired = key[1] == VersionLayout.HISTORY && key.length >= MIN_HISTORY_KEY
                    && VersionLayout.validTo(key) <= horizon;
            return expired ? Decision.REMOVE : Decision.KEEP;
        }
        boolean expiredTombstone = value.length >= VersionLayout.HEADER_LENGTH && VersionLayout.isTombstone(value)
                && VersionLayout.validFrom(value) <= horizon;
        return expiredTombstone ? Decision.REMOVE : Decision.KEEP;
    }
}
