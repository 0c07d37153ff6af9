package org.leveldbj.cli;

import java.util.Locale;

/**
 * Counts in words, singular for one and plural otherwise: {@code 1 table}, {@code 2 tables},
 * {@code 0 entries}, {@code 1 byte}. Every count the tool prints next to a noun goes through here.
 *
 * <p>Thread safety: stateless.
 */
final class Plural {
    private Plural() {
    }

    /**
     * The count and the noun.
     *
     * @param n the count
     * @param noun the singular, e.g. {@code table}, {@code entry}, {@code value file}
     * @return e.g. {@code 1 table}, {@code 3 entries}
     */
    static String count(long n, String noun) {
        return n + " " + noun(n, noun);
    }

    /**
     * The count with thousands separators, and the noun: {@code 1,234,567 entries}.
     *
     * @param n the count
     * @param noun the singular
     * @return the count and the noun
     */
    static String grouped(long n, String noun) {
        return String.format(Locale.ROOT, "%,d", n) + " " + noun(n, noun);
    }

    /**
     * The noun alone, in the form that goes with the count.
     *
     * @param n the count
     * @param noun the singular
     * @return {@code noun} when {@code n} is 1, else its plural
     */
    static String noun(long n, String noun) {
        if (n == 1) {
            return noun;
        }
        if (noun.endsWith("y") && !noun.endsWith("ey")) {
            return noun.substring(0, noun.length() - 1) + "ies";
        }
        if (noun.endsWith("s") || noun.endsWith("x") || noun.endsWith("ch") || noun.endsWith("sh")) {
            return noun + "es";
        }
        return noun + "s";
    }
}
