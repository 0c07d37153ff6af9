package org.leveldbj.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs the command in-process, as bin/leveldb would, with captured streams. */
final class Cli {
    private Cli() {
    }

    /** What a run printed and returned. */
    record Result(int exit, String out, String err, byte[] rawOut) {
        /** @return standard output split into lines */
        List<String> lines() {
            return out.lines().toList();
        }

        @Override
        public String toString() {
            return "exit " + exit + "\n--- out:\n" + out + "--- err:\n" + err;
        }
    }

    static Result run(Object... args) {
        return runWithInput(new byte[0], args);
    }

    static Result runWithInput(byte[] stdin, Object... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> argv = new ArrayList<>();
        for (Object a : args) {
            argv.add(String.valueOf(a));
        }
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = Main.run(argv.toArray(new String[0]), new Io(o, e, new ByteArrayInputStream(stdin), false));
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), out.toByteArray());
    }
}
