package org.leveldbj.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code leveldb} command itself: lists the commands; every real action is a subcommand.
 *
 * <p>Thread safety: one instance serves one run.
 */
@Command(name = "leveldb", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        synopsisSubcommandLabel = "COMMAND",
        description = {
            "Inspect, query, verify, repair and move the data of a LevelDB database written",
            "by C++ LevelDB, goleveldb, leveldbj or any other implementation of the format.",
            "Commands that only read open the database read-only and change no file.",
            "",
            "Keys and values on the command line are text, or 0x followed by hex digits.",
        },
        commandListHeading = "%nCommands:%n",
        footerHeading = "%n",
        footer = {
            "JSON: every command that prints data takes --format json (scan and get also",
            "hex and base64). A command with one result prints one object, e.g. count",
            "{\"count\":N}; one that prints several things prints one object per line, with",
            "a \"kind\" member when they are of several kinds (stats, verify, dump). Keys and",
            "values are base64 strings; counts and sizes are numbers. Errors stay one line",
            "of text on standard error. export always writes JSON lines.",
        },
        subcommands = {
            HelpCommand.class,
            GetCommand.class,
            PutCommand.class,
            DeleteCommand.class,
            ScanCommand.class,
            CountCommand.class,
            StatsCommand.class,
            SstablesCommand.class,
            ApproxSizeCommand.class,
            CompactCommand.class,
            RepairCommand.class,
            RewriteCommand.class,
            DestroyCommand.class,
            VerifyCommand.class,
            CheckpointCommand.class,
            BackupCommand.class,
            DumpCommand.class,
            ExportCommand.class,
            ImportCommand.class,
            BenchCommand.class,
            CompletionCommand.class,
        })
final class LeveldbCommand implements Runnable {
    private final Io io;

    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    LeveldbCommand(Io io) {
        this.io = io;
    }

    /** @return the streams of this run */
    Io io() {
        return io;
    }

    /** Without a command: the usage, as an error. */
    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "no command given");
    }
}
