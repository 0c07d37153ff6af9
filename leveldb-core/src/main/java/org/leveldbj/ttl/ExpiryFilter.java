package org.leveldbj.ttl;

import java.time.InstantSource;
import org.iq80.leveldb.CompactionFilter;

/**
 * The compaction filter of a TTL database: removes the values whose expiry
 * ({@link TtlValues}) the clock has reached, keeps the others. A value too short to hold the
 * suffix is kept (it is not this filter's to judge; readers report it as corrupt).
 *
 * <p>Thread safety: safe for concurrent use if the clock is (the system clock is).
 */
public final class ExpiryFilter implements CompactionFilter {
    /** The filter's name, in the database's info log. */
    public static final String NAME = "leveldbj.TtlExpiry";

    private final InstantSource clock;

    /**
     * @param clock the clock expiry is judged by; must not go back
     */
    public ExpiryFilter(InstantSource clock) {
        this.clock = java.util.Objects.requireNonNull(clock, "clock");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision filter(int level, byte[] key, byte[] value) {
        if (!TtlValues.isWellFormed(value)) {
            return Decision.KEEP;
        }
        return TtlValues.expired(value, clock.millis()) ? Decision.REMOVE : Decision.KEEP;
    }
}
