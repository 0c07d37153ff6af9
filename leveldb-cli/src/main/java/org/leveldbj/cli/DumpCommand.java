package org.leveldbj.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb dump FILE}: prints every record of one database file readably (or as JSON
 * lines): a table, a write-ahead log, a MANIFEST or CURRENT, recognised by name or content.
 * Reads the file only; exits with {@link ExitCode#CORRUPTION} when it found damage.
 */
@Command(name = "dump", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Print every record of one database file.",
        description = {
            "A table: footer, index, metaindex, filter and data blocks, every entry as",
            "  'user key' @ sequence : type => 'value'.",
            "A log: each record's offset, length and fragments, and its write batch.",
            "A MANIFEST: each version edit. CURRENT: the MANIFEST it names.",
            "A value file (separated values, NNNNNN.vlog): each record's offset, size, key and",
            "  value length, with the value's first bytes; entries of tables and logs that",
            "  refer to one show '-> NNNNNN.vlog offset=... value=N bytes'.",
            "The kind comes from the file's name, else from its content (or --type).",
            "Keys and values are escaped as by 'leveldb scan' (\\xNN); in JSON (one object",
            "per line, with a \"kind\"), base64.",
            "Reads the file only.",
        })
final class DumpCommand extends CommandBase {
    @Parameters(index = "0", paramLabel = "FILE", description = "The file.")
    Path file;

    @Mixin
    FormatOption format;

    @Option(names = "--type", paramLabel = "KIND",
            description = "Read the file as this kind (${COMPLETION-CANDIDATES}) whatever its name and content.")
    FileKind type;

    @Override
    int run() throws Exception {
        if (!Files.isRegularFile(file)) {
            throw new CliFailure(ExitCode.IO, file + (Files.exists(file) ? " is not a file" : " does not exist")
                    + " (give one file of a database, e.g. DB/000005.ldb)");
        }
        FileNames.Parsed named = FileNames.parse(file.getFileName().toString());
        if (type == null && named != null && (named.type() == FileType.LOCK || named.type() == FileType.INFO_LOG)) {
            throw new CliFailure(ExitCode.USAGE, file + " is the database's " + (named.type() == FileType.LOCK
                    ? "lock file (empty)" : "info log (plain text; read it with a pager)")
                    + "; dump reads tables, logs, MANIFEST and CURRENT");
        }
        FileKind kind = type != null ? type : FileKind.detect(file);
        if (kind == null) {
            throw new CliFailure(ExitCode.OTHER, "cannot tell what kind of file " + file + " is: it has no"
                    + " database file name and is neither a table nor a log; give --type table|log|manifest|current|value");
        }
        DumpSink sink = new DumpSink(out(), format.json());
        switch (kind) {
            case TABLE:
                TableDump.dump(file, sink);
                break;
            case LOG:
                LogDump.dump(file, sink);
                break;
            case MANIFEST:
                ManifestDump.dump(file, sink);
                break;
            case VALUE:
                ValueFileDump.dump(file, sink);
                break;
            default:
                dumpCurrent(sink);
                break;
        }
        if (sink.problems() > 0) {
            throw new CliFailure(ExitCode.CORRUPTION, Plural.count(sink.problems(), "problem")
                    + " in " + file + " (listed above; 'leveldb verify' checks the whole database)");
        }
        return ExitCode.OK;
    }

    private void dumpCurrent(DumpSink sink) throws java.io.IOException {
        String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        boolean newline = text.endsWith("\n");
        String name = newline ? text.substring(0, text.length() - 1) : text;
        sink.text("current " + file + ": " + OutputFormat.TEXT.render(name.getBytes(StandardCharsets.UTF_8)));
        sink.json(Json.object().add("kind", "current").add("file", file.toString()).add("manifest", name));
        if (!newline) {
            sink.problem(new org.iq80.leveldb.CorruptionException("CURRENT file does not end with newline",
                    file.toString(), org.iq80.leveldb.CorruptionException.UNKNOWN_OFFSET));
        }
    }
}
