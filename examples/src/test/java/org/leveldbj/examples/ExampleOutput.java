package org.leveldbj.examples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs an example's {@code main} and returns what it printed to standard output, line by line.
 *
 * <p>Thread safety: replaces {@link System#out} while the example runs; tests using it must not
 * run concurrently.
 */
final class ExampleOutput {
    /** An example's main method. */
    @FunctionalInterface
    interface Main {
        void main(String[] args) throws Exception;
    }

    private ExampleOutput() {
    }

    static List<String> of(Main main, String... args) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(captured, true, StandardCharsets.UTF_8)) {
            System.setOut(out);
            main.main(args);
        } finally {
            System.setOut(original);
        }
        String text = captured.toString(StandardCharsets.UTF_8);
        original.print(text);
        return text.lines().collect(Collectors.toList());
    }
}
