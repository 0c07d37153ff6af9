package org.iq80.leveldb;

/**
 * Argument checks shared by the option classes. Failures are {@link IllegalArgumentException}s
 * whose message names the argument and, for numbers, the rejected value.
 */
final class Arguments {
    private Arguments() {
    }

    /**
     * Rejects {@code null}, with the message 0.12 used: {@code "The <name> argument cannot be
     * null"}.
     */
    static void checkNotNull(Object value, String name) {
        if (value == null) {
            throw new IllegalArgumentException("The " + name + " argument cannot be null");
        }
    }

    /** Rejects a value below {@code min}, naming the option and the value. */
    static long checkAtLeast(long value, long min, String name) {
        if (value < min) {
            throw new IllegalArgumentException(
                    name + " must be at least " + min + ", but was " + value);
        }
        return value;
    }

    /** Rejects a value below {@code min}, naming the option and the value. */
    static int checkAtLeast(int value, int min, String name) {
        checkAtLeast((long) value, min, name);
        return value;
    }
}
