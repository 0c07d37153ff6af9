package org.leveldbj.benchmark;

/**
 * The Park-Miller "minimal standard" generator (multiplier 16807, modulus 2^31 - 1) that
 * db_bench draws its keys from, so that a run with the same seeds visits the same keys.
 * Not thread-safe: each benchmark thread has its own.
 */
final class BenchRandom {
    private static final long MODULUS = 2147483647L;
    private static final long MULTIPLIER = 16807L;

    private long seed;

    BenchRandom(int seed) {
        long s = seed & 0x7fffffffL;
        this.seed = (s == 0 || s == MODULUS) ? 1 : s;
    }

    /** The next value, in [1, 2^31 - 2]. */
    int next() {
        seed = (seed * MULTIPLIER) % MODULUS;
        return (int) seed;
    }

    /** A value in [0, n - 1]; {@code n} must be positive. */
    int uniform(int n) {
        return next() % n;
    }
}
