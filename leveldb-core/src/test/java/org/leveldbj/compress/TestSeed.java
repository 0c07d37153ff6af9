package org.leveldbj.compress;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Seeds for randomized tests: random per run, printed, and fixed with
 * {@code -Dleveldbj.test.seed=N} to replay a failure.
 *
 * <p>Thread safety: stateless.
 */
final class TestSeed {
    static final String PROPERTY = "leveldbj.test.seed";

    private TestSeed() {}

    /** The seed for one test, printed to stderr with the way to replay it. */
    static long forTest(String testName) {
        String fixed = System.getProperty(PROPERTY);
        long seed = fixed != null && !fixed.isBlank()
                ? Long.parseLong(fixed.trim())
                : ThreadLocalRandom.current().nextLong();
        System.err.println(testName + ": seed " + seed + " (replay with -D" + PROPERTY + "=" + seed + ")");
        return seed;
    }
}
