package org.leveldbj.benchmark;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The arguments of bin/compare's table makers, {@code OUT_DIR --ours FILE... --cpp FILE...}:
 * where the tables go, and the lines of each side's runs, in the order given.
 *
 * @param outDir where the tables go
 * @param ours the lines of each of our runs
 * @param cpp the lines of each C++ run
 */
record RunOutputs(Path outDir, List<List<String>> ours, List<List<String>> cpp) {

    /** Arguments that do not follow the usage. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /**
     * Parses the arguments and reads the files.
     *
     * @param tool the program's name, for the messages
     * @throws UsageException if the arguments do not follow the usage
     * @throws IOException if a file cannot be read
     */
    static RunOutputs parse(String tool, String[] args) throws UsageException, IOException {
        if (args.length < 1) {
            throw new UsageException("usage: " + tool + " OUT_DIR --ours FILE... --cpp FILE...");
        }
        List<List<String>> ours = new ArrayList<>();
        List<List<String>> cpp = new ArrayList<>();
        List<List<String>> current = null;
        for (String arg : Arrays.asList(args).subList(1, args.length)) {
            if (arg.equals("--ours")) {
                current = ours;
            } else if (arg.equals("--cpp")) {
                current = cpp;
            } else if (current == null) {
                throw new UsageException(tool + ": " + arg + " before --ours or --cpp");
            } else {
                current.add(Files.readAllLines(Paths.get(arg), StandardCharsets.UTF_8));
            }
        }
        return new RunOutputs(Paths.get(args[0]), ours, cpp);
    }
}
