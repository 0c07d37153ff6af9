package org.leveldbj.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.engine.TestExecutionResult.Status;

class SeedExtensionTest {
    /** Seeds the fixture saw, in test order. */
    static final List<Long> SEEN = new ArrayList<>();

    @ExtendWith(SeedExtension.class)
    static class Fixture {
        private long fromBeforeEach;

        @BeforeEach
        void before(@Seed long seed) {
            fromBeforeEach = seed;
        }

        @Test
        void passes(@Seed long seed, Random random) {
            SEEN.add(seed);
            assertEquals(fromBeforeEach, seed, "one seed per test, also in @BeforeEach");
            assertEquals(new Random(seed).nextLong(), random.nextLong(), "the Random is seeded with the seed");
        }

        @Test
        void fails(@Seed long seed) {
            SEEN.add(seed);
            throw new AssertionError("deliberate");
        }
    }

    @AfterEach
    void clear() {
        System.clearProperty(SeedExtension.PROPERTY);
        SEEN.clear();
    }

    @Test
    void thePropertyFixesTheSeedAndAFailureCarriesIt() {
        System.setProperty(SeedExtension.PROPERTY, "42");
        List<JUnitRuns.Outcome> outcomes = JUnitRuns.run(Fixture.class);
        assertEquals(List.of(42L, 42L), SEEN);
        JUnitRuns.Outcome passed = JUnitRuns.only(outcomes, "passes");
        assertEquals(Status.SUCCESSFUL, passed.status(), String.valueOf(passed.failure()));
        JUnitRuns.Outcome failed = JUnitRuns.only(outcomes, "fails");
        assertEquals(Status.FAILED, failed.status());
        assertEquals("deliberate", failed.failure().getMessage());
        assertEquals(1, failed.failure().getSuppressed().length, Arrays.toString(failed.failure().getSuppressed()));
        assertEquals("seed 42: replay with -Dleveldbj.seed=42", failed.failure().getSuppressed()[0].getMessage());
    }

    @Test
    void withoutThePropertyEachTestGetsAFreshSeed() {
        JUnitRuns.run(Fixture.class);
        JUnitRuns.run(Fixture.class);
        assertEquals(4, SEEN.size());
        // Four independent 64-bit draws: equal ones would mean a fixed seed.
        assertEquals(4, SEEN.stream().distinct().count(), SEEN.toString());
        assertNotEquals(0L, SEEN.get(0) | SEEN.get(1));
    }

    @Test
    void aMalformedPropertyFailsTheTestNamingIt() {
        System.setProperty(SeedExtension.PROPERTY, "forty-two");
        JUnitRuns.Outcome passed = JUnitRuns.only(JUnitRuns.run(Fixture.class), "passes");
        assertEquals(Status.FAILED, passed.status());
        Throwable failure = passed.failure();
        while (failure.getCause() != null && !(failure instanceof IllegalArgumentException)) {
            failure = failure.getCause();
        }
        assertInstanceOf(IllegalArgumentException.class, failure);
        assertTrue(failure.getMessage().contains("-Dleveldbj.seed must be a number, not \"forty-two\""), failure.getMessage());
    }
}
