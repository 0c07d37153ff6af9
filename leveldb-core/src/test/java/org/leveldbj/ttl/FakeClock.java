package org.leveldbj.ttl;

import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand: safe for concurrent use (compactions read it). */
final class FakeClock implements InstantSource {
    private final AtomicLong millis;

    FakeClock(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    void advance(long deltaMillis) {
        millis.addAndGet(deltaMillis);
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }
}
