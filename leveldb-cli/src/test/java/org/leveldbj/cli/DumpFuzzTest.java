package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzzes {@code leveldb dump} on a damaged file, run in-process as bin/leveldb runs it. The
 * command documents its outcome as an exit code: 0, 3 for damage it found, 4 for a file it could
 * not read, 5 when it cannot tell what kind of file it was given. An exception the command did
 * not expect also ends in exit code 5, but as an "internal error" message: that is the failure
 * this test looks for.
 *
 * <p>Input: byte 0 = flags: bits 0-2 pick the file's name, or a neutral name with or without
 * {@code --type} ({@link #NAMES}), bit 3 asks for JSON output; the rest is the file.
 */
class DumpFuzzTest {
    /** The file name and {@code --type} argument (or none) for each value of bits 0-2. */
    private static final String[][] NAMES = {
        {"000005.ldb", null}, {"000007.sst", null}, {"000003.log", null}, {"MANIFEST-000002", null},
        {"CURRENT", null}, {"data.bin", null}, {"data.bin", "table"}, {"data.bin", "log"},
    };
    private static final Set<Integer> DOCUMENTED = Set.of(ExitCode.OK, ExitCode.CORRUPTION, ExitCode.IO,
            ExitCode.OTHER);

    private static Path dir;

    @BeforeAll
    static void createDirectory() throws IOException {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        Files.createDirectories(tmp);
        dir = Files.createTempDirectory(tmp, "dump-fuzz");
    }

    @FuzzTest(maxDuration = "30s")
    void dump(byte[] input) throws IOException {
        int flags = input.length > 0 ? input[0] & 0xff : 0;
        String[] name = NAMES[flags & 7];
        Path file = dir.resolve(name[0]);
        Files.write(file, input.length > 0 ? java.util.Arrays.copyOfRange(input, 1, input.length) : input);
        List<String> args = new ArrayList<>(List.of("dump", file.toString()));
        if (name[1] != null) {
            args.add("--type");
            args.add(name[1]);
        }
        if ((flags & 8) != 0) {
            args.add("--format");
            args.add("json");
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream out = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = Main.run(args.toArray(new String[0]), new Io(out, e, new ByteArrayInputStream(new byte[0]), false));
        } finally {
            Files.deleteIfExists(file);
        }
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(DOCUMENTED.contains(exit), () -> "exit code " + exit + ": " + message);
        assertTrue(!message.contains("internal error"), () -> "dump failed unexpectedly: " + message);
        if (exit == ExitCode.OTHER) {
            assertTrue(message.contains("cannot tell what kind of file"), () -> "exit code 5: " + message);
        }
    }
}
