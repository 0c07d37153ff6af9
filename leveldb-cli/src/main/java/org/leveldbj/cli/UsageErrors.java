package org.leveldbj.cli;

import java.io.PrintStream;
import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * Reports a wrong command line in two lines on standard error, the problem and where to find
 * help, and exits with {@link ExitCode#USAGE}.
 *
 * <p>Thread safety: stateless.
 */
final class UsageErrors implements IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintStream err = ((LeveldbCommand) command.getCommandSpec().root().userObject()).io().err();
        err.println("leveldb: " + e.getMessage());
        err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCode.USAGE;
    }
}
