package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The progress bar: drawn on a terminal only, never with --quiet, erased when done. */
class ProgressTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private Io io(boolean terminal) {
        return new Io(new PrintStream(new ByteArrayOutputStream()), new PrintStream(err, true, StandardCharsets.UTF_8),
                new ByteArrayInputStream(new byte[0]), terminal);
    }

    @Test
    void aBarWithATotal() {
        try (Progress p = Progress.start(io(true), false, "verifying", 4096, Progress.Unit.BYTES)) {
            assertTrue(p.enabled());
            p.add(1024);
            assertTrue(p.render().startsWith("verifying [########----------------------]  25% 1.0 KiB / 4.0 KiB  "),
                    p.render());
        }
        String drawn = err.toString(StandardCharsets.UTF_8);
        assertTrue(drawn.startsWith("\rverifying [########"), drawn);
        assertTrue(drawn.endsWith("\r"), "erased at the end: " + drawn);
    }

    @Test
    void countsAndSpinners() throws Exception {
        try (Progress p = Progress.start(io(true), false, "exporting", -1, Progress.Unit.ENTRIES)) {
            p.add(12345);
            assertTrue(p.render().startsWith("exporting 12,345 entries  "), p.render());
        }
        try (Progress p = Progress.ticking(io(true), false, "compacting")) {
            // The ticker draws at once when it starts: wait for that, not for a guessed time.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!err.toString(StandardCharsets.UTF_8).contains("\rcompacting ") && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(p.render().matches("compacting [|/\\-\\\\]  \\d+s"), p.render());
        }
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("\rcompacting "), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void nothingWithoutATerminalOrWithQuiet() throws Exception {
        try (Progress p = Progress.start(io(false), false, "verifying", 10, Progress.Unit.BYTES)) {
            assertFalse(p.enabled());
            p.add(5);
        }
        try (Progress p = Progress.ticking(io(true), true, "repairing")) {
            assertFalse(p.enabled());
            assertFalse(p.hasTicker(), "a quiet progress starts no ticker");
        }
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        // The commands in-process (not a terminal) print no progress either.
        Path db = tmp.resolve("db");
        TestDb.numbered(db, 100);
        assertEquals("", Cli.run("verify", db).err());
    }

    @Test
    void byteAmounts() {
        assertEquals("512 B", Progress.bytes(512));
        assertEquals("1.5 KiB", Progress.bytes(1536));
        assertEquals("12.3 MiB", Progress.bytes((long) (12.3 * 1024 * 1024)));
        assertEquals("8.0 EiB", Progress.bytes(Long.MAX_VALUE));
    }
}
