package org.leveldbj.benchmark;

/** One benchmark thread's own state: its index, its random stream and its stats. */
final class ThreadState {
    final int index;
    final BenchRandom random;
    final Stats stats;

    ThreadState(int index, int seed, Stats stats) {
        this.index = index;
        this.random = new BenchRandom(seed);
        this.stats = stats;
    }
}
