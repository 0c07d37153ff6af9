package org.leveldbj.cli;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every command shares: the streams, the common options, and the exit code returned by
 * {@link #run()}. Failures are thrown and turned into messages and exit codes by {@link Errors}.
 *
 * <p>Thread safety: a command object serves one run on one thread.
 */
abstract class CommandBase implements Callable<Integer> {
    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    /** @return the streams of this run (held by the top-level command, whatever the nesting) */
    final Io io() {
        return ((LeveldbCommand) spec.root().userObject()).io();
    }

    /** @return standard output */
    final PrintStream out() {
        return io().out();
    }

    /** @return standard error */
    final PrintStream err() {
        return io().err();
    }

    /** @return whether {@code --quiet} was given */
    final boolean quiet() {
        return common.quiet;
    }

    /**
     * Prints a summary line on standard error unless {@code --quiet} was given.
     *
     * @param line the line
     */
    final void summary(String line) {
        if (!common.quiet) {
            err().println(line);
        }
    }

    @Override
    public final Integer call() throws Exception {
        try {
            return run();
        } finally {
            out().flush();
        }
    }

    /**
     * Runs the command.
     *
     * @return the exit code, one of {@link ExitCode}
     * @throws Exception anything; {@link Errors} explains it
     */
    abstract int run() throws Exception;
}
