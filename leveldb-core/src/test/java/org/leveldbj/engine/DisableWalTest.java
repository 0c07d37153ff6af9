package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.engine.DbTestSupport.utf8;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.FaultInjectionEnv;

/**
 * Writes without the write-ahead log ({@code WriteOptions.disableWal}): kept by a clean close
 * and by {@code flushMemTable}, lost by a process crash before either, never mixed into a logged
 * write's fate.
 */
class DisableWalTest {
    private static final Path DIR = Path.of("/db");
    private static final WriteOptions UNLOGGED = new WriteOptions().disableWal(true);

    private final FaultInjectionEnv env = new FaultInjectionEnv();

    private DB open(FaultInjectionEnv on) throws IOException {
        return LevelDbFactory.factory.open(new File(DIR.toString()), new Options().env(on));
    }

    private static List<String> logFiles(FaultInjectionEnv on) throws IOException {
        List<String> logs = new ArrayList<>();
        for (String name : on.getChildren(DIR)) {
            if (name.endsWith(".log")) {
                logs.add(name);
            }
        }
        return logs;
    }

    @Test
    void aCleanCloseKeepsUnloggedWrites() throws IOException {
        try (DB db = open(env)) {
            db.put(utf8("logged"), utf8("1"));
            db.put(utf8("unlogged"), utf8("2"), UNLOGGED);
            db.delete(utf8("logged"), UNLOGGED);
        }
        try (DB db = open(env)) {
            assertArrayEquals(utf8("2"), db.get(utf8("unlogged")));
            assertNull(db.get(utf8("logged")), "the unlogged delete was kept too");
        }
    }

    @Test
    void unloggedWritesSkipTheLogAndDieWithTheProcess() throws IOException {
        DB db = open(env);
        db.put(utf8("logged"), utf8("1"));
        long logBytes = env.getFileSize(DIR.resolve(logFiles(env).get(0)));
        db.put(utf8("unlogged"), utf8("x".repeat(1000)), UNLOGGED);
        assertEquals(logBytes, env.getFileSize(DIR.resolve(logFiles(env).get(0))), "nothing appended to the log");
        // The process dies without closing: a new one finds the files as they are.
        try (DB after = open(DbTestSupport.copyOf(env.base(), DIR))) {
            assertArrayEquals(utf8("1"), after.get(utf8("logged")));
            assertNull(after.get(utf8("unlogged")), "only the memtable held it");
        }
        db.close();
    }

    @Test
    void flushMemTableMakesUnloggedWritesDurable() throws IOException {
        DbImpl db = (DbImpl) open(env);
        for (int i = 0; i < 100; i++) {
            db.put(utf8("k" + i), utf8("v" + i), UNLOGGED);
        }
        db.flushMemTable();
        env.crash(); // even the power may fail now: the table and the MANIFEST were synced
        try (DB after = open(DbTestSupport.copyOf(env.base(), DIR))) {
            for (int i = 0; i < 100; i++) {
                assertArrayEquals(utf8("v" + i), after.get(utf8("k" + i)));
            }
        }
        db.close();
    }

    @Test
    void aCloseThatCannotKeepUnloggedWritesSaysSo() throws IOException {
        DB db = open(env);
        db.put(utf8("unlogged"), utf8("1"), UNLOGGED);
        env.failAlways(FaultInjectionEnv.Op.NEW_FILE); // the flush cannot create its table
        IOErrorException e = assertThrows(IOErrorException.class, db::close);
        assertTrue(e.getMessage().startsWith("writes made without the write-ahead log were lost at close: "),
                e.getMessage());
        assertThrows(DBException.class, () -> db.get(utf8("unlogged")), "closed all the same");
        env.clearFaults();
        try (DB after = open(env)) {
            assertNull(after.get(utf8("unlogged")));
        }
    }

    @Test
    void aWriteCannotBothSyncAndSkipTheLog() throws IOException {
        try (DB db = open(env)) {
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                    () -> db.put(utf8("k"), utf8("v"), new WriteOptions().sync(true).disableWal(true)));
            assertEquals("Invalid argument: a write cannot both sync and skip the write-ahead log", e.getMessage());
            assertNull(db.get(utf8("k")));
        }
    }
}
