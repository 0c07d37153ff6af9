package org.leveldbj.kafka.streams;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The command line of a store benchmark: {@code --name=number} options, each with a default.
 * An unknown option or a value that is not a number fails with the list of options.
 *
 * <p>Thread safety: confined to the thread that parses.
 */
final class BenchArgs {
    private final Map<String, Long> values;

    private BenchArgs(Map<String, Long> values) {
        this.values = values;
    }

    /**
     * @param args the command line
     * @param defaults each option's name (without {@code --}) followed by its default (a number),
     *                 in the order the usage lists them
     */
    static BenchArgs parse(String[] args, Object... defaults) {
        Map<String, Long> values = new LinkedHashMap<>();
        for (int i = 0; i < defaults.length; i += 2) {
            values.put((String) defaults[i], ((Number) defaults[i + 1]).longValue());
        }
        String usage = values.keySet().stream().map(n -> "--" + n + "=N").collect(Collectors.joining(" "));
        for (String a : args) {
            int eq = a.indexOf('=');
            String name = a.startsWith("--") && eq > 2 ? a.substring(2, eq) : null;
            if (name == null || !values.containsKey(name)) {
                throw new IllegalArgumentException("unknown argument " + a + " (" + usage + ")");
            }
            try {
                values.put(name, Long.parseLong(a.substring(eq + 1)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + name + " takes a number, not " + a.substring(eq + 1), e);
            }
        }
        return new BenchArgs(values);
    }

    /** @return the option's value, as an int */
    int intValue(String name) {
        return Math.toIntExact(longValue(name));
    }

    /** @return the option's value */
    long longValue(String name) {
        Long v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("no option --" + name);
        }
        return v;
    }
}
