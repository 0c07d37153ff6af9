package org.leveldbj.cli;

import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code leveldb import DB FILE}: reads JSON lines {@code {"key":"<base64>","value":"<base64>"}}
 * (as {@code export} writes them) and puts each entry, streaming, in write batches of bounded
 * size; the last batch is synced. Creates the database when it is missing.
 */
@Command(name = "import", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        header = "Put the entries of a file of JSON lines.",
        description = {
            "Reads {\"key\":\"...\",\"value\":\"...\"} lines with base64 strings (what",
            "'leveldb export' writes; other members are ignored, blank lines skipped) and",
            "puts every entry, in write batches. FILE - is standard input. Creates the",
            "database when it does not exist. A bad line stops the import; the lines",
            "before it are imported. Prints how many entries it put; in JSON,",
            "{\"database\":...,\"entries\":N}.",
        })
final class ImportCommand extends CommandBase {
    private static final String EXPECTED = "expected {\"key\":\"<base64>\",\"value\":\"<base64>\"}";

    @Parameters(index = "0", paramLabel = "DB", description = "The database directory.")
    Path db;

    @Parameters(index = "1", paramLabel = "FILE", description = "The input file, or - for standard input.")
    String file;

    @Option(names = "--batch-bytes", paramLabel = "BYTES", defaultValue = "1048576",
            description = "Write a batch once it holds this many bytes (default: ${DEFAULT-VALUE}).")
    long batchBytes;

    @Mixin
    FormatOption format;

    @Override
    int run() throws Exception {
        if (batchBytes < 1) {
            throw new CliFailure(ExitCode.USAGE, "--batch-bytes must be at least 1, not " + batchBytes);
        }
        boolean fromStdin = file.equals("-");
        if (!fromStdin && !Files.isRegularFile(Path.of(file))) {
            throw new CliFailure(ExitCode.IO, file + " does not exist or is not a file");
        }
        long total = fromStdin ? -1 : Files.size(Path.of(file));
        long n = 0;
        long lineNumber = 0;
        try (DB database = Databases.openWritable(db, true);
                Counting counting = new Counting(fromStdin ? io().in() : Files.newInputStream(Path.of(file)));
                BufferedReader reader = new BufferedReader(new InputStreamReader(counting, StandardCharsets.UTF_8), 1 << 16);
                Progress progress = Progress.start(io(), quiet(), "importing", total,
                        fromStdin ? Progress.Unit.ENTRIES : Progress.Unit.BYTES)) {
            WriteBatch batch = database.createWriteBatch();
            try {
                String line;
                while ((line = reader.readLine()) != null) {
                    lineNumber++;
                    if (line.isBlank()) {
                        continue;
                    }
                    byte[][] entry;
                    try {
                        entry = parse(line);
                    } catch (IllegalArgumentException e) {
                        database.write(batch, new WriteOptions().sync(true));
                        throw new CliFailure(ExitCode.OTHER, (fromStdin ? "standard input" : file) + ":" + lineNumber
                                + ": " + e.getMessage() + " (" + EXPECTED + "); the "
                                + Plural.count(n, "entry") + " before it " + (n == 1 ? "is" : "are") + " imported");
                    }
                    batch.put(entry[0], entry[1]);
                    n++;
                    if (batch.approximateSize() >= batchBytes) {
                        database.write(batch);
                        batch.close();
                        batch = database.createWriteBatch();
                    }
                    progress.add(fromStdin ? 1 : counting.take());
                }
                database.write(batch, new WriteOptions().sync(true));
            } finally {
                batch.close();
            }
        }
        out().println(format.json() ? Json.object().add("database", db.toString()).add("entries", n).toString()
                : "imported " + Plural.count(n, "entry") + " into " + db);
        return ExitCode.OK;
    }

    /** Decodes one line: the key and value bytes. */
    private static byte[][] parse(String line) {
        Map<String, Object> object = Json.parseObject(line);
        return new byte[][] {base64(object, "key"), base64(object, "value")};
    }

    private static byte[] base64(Map<String, Object> object, String member) {
        Object value = object.get(member);
        if (!(value instanceof String)) {
            throw new IllegalArgumentException(value == null ? "no \"" + member + "\" string" : "\"" + member + "\" is not a string");
        }
        try {
            return Base64.getDecoder().decode((String) value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("\"" + member + "\" is not base64: " + e.getMessage(), e);
        }
    }

    /** Counts the bytes read, for the progress bar. */
    private static final class Counting extends FilterInputStream {
        private long count;

        Counting(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        /** @return the bytes read since the last call */
        long take() {
            long c = count;
            count = 0;
            return c;
        }
    }
}
