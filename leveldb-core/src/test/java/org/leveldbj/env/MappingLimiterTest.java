package org.leveldbj.env;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MappingLimiterTest {
    @Test
    void limiterHandsOutAtMostItsPermits() {
        MappingLimiter limiter = new MappingLimiter(2);
        assertTrue(limiter.tryAcquire());
        assertTrue(limiter.tryAcquire());
        assertFalse(limiter.tryAcquire());
        assertEquals(0, limiter.available());
        limiter.release();
        assertEquals(1, limiter.available());
        assertTrue(limiter.tryAcquire());
        assertFalse(new MappingLimiter(0).tryAcquire());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MappingLimiter(-3));
        assertTrue(e.getMessage().contains("-3"), e.getMessage());
    }
}
