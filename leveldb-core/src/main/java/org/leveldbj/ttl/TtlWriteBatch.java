package org.leveldbj.ttl;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.iq80.leveldb.WriteBatch;

/**
 * A batch of a {@link TtlDB}: its puts carry expiries (the database's default time to live from
 * the clock's reading at the put, or the put's own), written atomically by
 * {@link TtlDB#write}.
 *
 * <p>Thread safety: not safe for concurrent use, as batches are not. Lifetime: closed by its
 * user after being written.
 */
public final class TtlWriteBatch implements WriteBatch {
    private final WriteBatch raw;
    private final InstantSource clock;
    private final long defaultTtlMillis;

    TtlWriteBatch(WriteBatch raw, InstantSource clock, long defaultTtlMillis) {
        this.raw = raw;
        this.clock = clock;
        this.defaultTtlMillis = defaultTtlMillis;
    }

    @Override
    public TtlWriteBatch put(byte[] key, byte[] value) {
        TtlDB.requireNonNull(value, "value");
        raw.put(key, TtlValues.encode(value, TtlValues.expiryAfter(clock.millis(), defaultTtlMillis)));
        return this;
    }

    /**
     * Adds a put with its own time to live.
     *
     * @param key the key
     * @param value the value
     * @param ttl how long it lives from now, positive
     * @return this batch
     */
    public TtlWriteBatch put(byte[] key, byte[] value, Duration ttl) {
        TtlDB.requireNonNull(value, "value");
        raw.put(key, TtlValues.encode(value, TtlValues.expiryAfter(clock.millis(), TtlDB.ttlMillis(ttl))));
        return this;
    }

    /**
     * Adds a put that expires at a given instant.
     *
     * @param key the key
     * @param value the value
     * @param expiry when it expires ({@code Instant.MAX}: never)
     * @return this batch
     */
    public TtlWriteBatch putUntil(byte[] key, byte[] value, Instant expiry) {
        TtlDB.requireNonNull(value, "value");
        raw.put(key, TtlValues.encode(value, TtlDB.expiryMillis(expiry)));
        return this;
    }

    @Override
    public TtlWriteBatch delete(byte[] key) {
        raw.delete(key);
        return this;
    }

    @Override
    public int size() {
        return raw.size();
    }

    @Override
    public long approximateSize() {
        return raw.approximateSize();
    }

    /** @return the batch of stored values */
    WriteBatch raw() {
        return raw;
    }

    @Override
    public void close() throws java.io.IOException {
        raw.close();
    }
}
