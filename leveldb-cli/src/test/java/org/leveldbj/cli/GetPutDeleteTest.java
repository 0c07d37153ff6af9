package org.leveldbj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GetPutDeleteTest {
    @TempDir
    Path tmp;

    @Test
    void putGetDeleteRoundTripWithTextAndHexArguments() {
        Path db = tmp.resolve("db");
        assertEquals(0, Cli.run("put", db, "greeting", "hello world", "--create").exit());
        assertEquals(0, Cli.run("put", db, "0x00ff", "0x0a09").exit());

        Cli.Result text = Cli.run("get", db, "greeting");
        assertEquals(0, text.exit(), text.toString());
        assertEquals(List.of("hello world"), text.lines());
        // Binary keys given in hex; the value printed escaped, in hex, or raw.
        assertEquals(List.of("\\x0a\\x09"), Cli.run("get", db, "0x00FF").lines());
        assertEquals(List.of("0a09"), Cli.run("get", db, "0x00ff", "--format", "hex").lines());
        assertEquals(List.of("{\"value\":\"Cgk=\"}"), Cli.run("get", db, "0x00ff", "--format", "json").lines());
        assertArrayEquals(new byte[] {0x0a, 0x09}, Cli.run("get", db, "0x00ff", "--raw").rawOut());

        assertEquals(0, Cli.run("delete", db, "greeting").exit());
        Cli.Result absent = Cli.run("get", db, "greeting");
        assertEquals(ExitCode.NOT_FOUND, absent.exit(), absent.toString());
        assertEquals("", absent.out());
        assertEquals("leveldb: key not found: greeting\n", absent.err());
        assertEquals("", Cli.run("get", db, "greeting", "--quiet").err());
        // Deleting an absent key is fine.
        assertEquals(0, Cli.run("delete", db, "never-written").exit());
    }

    @Test
    void putDoesNotCreateADatabaseUnlessAsked() {
        Path db = tmp.resolve("missing");
        Cli.Result r = Cli.run("put", db, "k", "v");
        assertEquals(ExitCode.IO, r.exit(), r.toString());
        assertEquals("leveldb: " + db + " does not exist (give the directory of a database)\n", r.err());
        assertFalse(Files.exists(db));
    }

    @Test
    void badHexIsAUsageError() {
        Cli.Result r = Cli.run("get", tmp, "0xabc");
        assertEquals(ExitCode.USAGE, r.exit(), r.toString());
        assertTrue(r.err().contains("'0xabc': an odd number of hex digits after 0x"), r.err());
        assertTrue(r.err().contains("Try 'leveldb get --help' for more information."), r.err());
        r = Cli.run("get", tmp, "0xzz");
        assertEquals(ExitCode.USAGE, r.exit(), r.toString());
        assertTrue(r.err().contains("'0xzz': not a hex string after 0x"), r.err());
    }

    @Test
    void byteArgumentsParse() {
        assertArrayEquals(new byte[0], ByteArg.parse(""));
        assertArrayEquals(new byte[0], ByteArg.parse("0x"));
        assertArrayEquals(new byte[] {(byte) 0xab, 0x01}, ByteArg.parse("0XAb01"));
        assertArrayEquals(TestDb.utf8("é0x"), ByteArg.parse("é0x"));
    }
}
