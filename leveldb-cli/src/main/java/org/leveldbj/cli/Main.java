package org.leveldbj.cli;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Help.Ansi;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The entry point of the {@code leveldb} command (bin/leveldb, {@code java -jar}).
 *
 * <p>Thread safety: {@link #run} may be called by several threads, each with its own streams.
 */
public final class Main {
    /** The level of slf4j-simple's logger unless the command line sets one. */
    private static final String LOG_LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

    private Main() {
    }

    /**
     * Runs the command line and exits with its exit code.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        if (System.getProperty(LOG_LEVEL_PROPERTY) == null) {
            System.setProperty(LOG_LEVEL_PROPERTY, "warn");
        }
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16),
                false, StandardCharsets.UTF_8);
        int code = run(args, new Io(out, System.err, System.in, Terminal.isTerminal()));
        out.flush();
        System.err.flush();
        System.exit(code);
    }

    /**
     * Runs a command line in this JVM.
     *
     * @param args the arguments
     * @param io the streams
     * @return the exit code, one of {@link ExitCode}
     */
    static int run(String[] args, Io io) {
        int code = commandLine(io).execute(args);
        io.out().flush();
        io.err().flush();
        return code;
    }

    /**
     * The parser of the whole command, wired to the streams: help and errors go to them,
     * failures become messages and exit codes ({@link Errors}, {@link UsageErrors}), and the
     * top-level help ends with the table of exit codes (the commands' help does not repeat it).
     *
     * @param io the streams
     * @return the command line, ready to execute
     */
    static CommandLine commandLine(Io io) {
        CommandLine cl = new CommandLine(new LeveldbCommand(io));
        cl.setOut(new PrintWriter(new OutputStreamWriter(io.out(), StandardCharsets.UTF_8), true));
        cl.setErr(new PrintWriter(new OutputStreamWriter(io.err(), StandardCharsets.UTF_8), true));
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(io.terminal() ? Ansi.ON : Ansi.OFF));
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler(new Errors());
        cl.setParameterExceptionHandler(new UsageErrors());
        addExitCodes(cl.getCommandSpec().usageMessage());
        for (CommandLine sub : cl.getSubcommands().values()) {
            UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
            if (usage.footer().length > 0 && usage.footerHeading().isEmpty()) {
                usage.footerHeading("%n"); // a blank line between the options and the footer
            }
        }
        CommandLine bench = cl.getSubcommands().get("bench");
        bench.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_FOOTER,
                help -> BenchCommand.footerSection() + help.footer());
        if (!BenchCommand.available()) {
            bench.getCommandSpec().usageMessage().header(BenchCommand.UNAVAILABLE_HEADER);
        }
        return cl;
    }

    private static void addExitCodes(UsageMessageSpec usage) {
        List<String> footer = new ArrayList<>(Arrays.asList(usage.footer()));
        if (!footer.isEmpty()) {
            footer.add("");
        }
        footer.add("Exit codes:");
        footer.addAll(Arrays.asList(ExitCode.HELP));
        usage.footer(footer.toArray(new String[0]));
        if (usage.footerHeading().isEmpty()) {
            usage.footerHeading("%n");
        }
    }
}
