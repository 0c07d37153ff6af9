package org.leveldbj.iterator;

/** Seeds for randomized tests: {@code -Dleveldbj.seed} when given, else fresh, and printed. */
public final class TestSeeds {
    private TestSeeds() {
    }

    /**
     * @param test the test's name, printed with the seed
     * @return the seed to use
     */
    public static long seed(String test) {
        String given = System.getProperty("leveldbj.seed");
        long seed = given != null && !given.isBlank() ? Long.parseLong(given.trim()) : System.nanoTime();
        System.out.println(test + ": seed " + seed + " (replay with -Dleveldbj.seed=" + seed + ")");
        return seed;
    }
}
