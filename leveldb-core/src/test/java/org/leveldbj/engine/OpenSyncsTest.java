package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.ForwardingWritableFile;

/**
 * What opening a database writes and syncs, and that the little it does is enough.
 *
 * <ul>
 *   <li>A new database gets one MANIFEST and one CURRENT: four syncs (the MANIFEST, the
 *       directory, CURRENT's temporary file, the directory), where creating it and then
 *       opening it used to write two of each (nine syncs).
 *   <li>Reopening a database whose MANIFEST is a snapshot and one edit, with a small log,
 *       writes nothing but a new log and syncs only the old log: the replayed records stay
 *       in the memtable and the old log stays live.
 *   <li>Such an open keeps what a crash must keep: after a synced write and a power failure,
 *       the writes before it (of the previous session, unsynced then) are all there.
 *   <li>At {@link Recovery#MAX_LIVE_LOGS} logs, or when the MANIFEST holds more than its
 *       snapshot and one edit, an open writes the replayed records to a table and starts a new
 *       MANIFEST, as before, so the logs and the MANIFEST's records stay few.
 * </ul>
 */
class OpenSyncsTest {
    private static final File DIR = new File("/db");

    /** Records the files created, the files synced and the directory syncs, in order. */
    private static final class RecordingEnv extends ForwardingEnv {
        final List<String> events = Collections.synchronizedList(new ArrayList<>());

        RecordingEnv(FaultInjectionEnv target) {
            super(target);
        }

        private WritableFile recording(Path file, WritableFile f) {
            return new ForwardingWritableFile(file, f) {
                @Override
                public void sync() throws IOException {
                    super.sync();
                    events.add("sync " + file.getFileName());
                }
            };
        }

        @Override
        public WritableFile newWritableFile(Path file) throws IOException {
            events.add("create " + file.getFileName());
            return recording(file, super.newWritableFile(file));
        }

        @Override
        public WritableFile newAppendableFile(Path file) throws IOException {
            events.add("append " + file.getFileName());
            return recording(file, super.newAppendableFile(file));
        }

        @Override
        public void syncDir(Path dir) throws IOException {
            super.syncDir(dir);
            events.add("sync dir");
        }

        List<String> take() {
            synchronized (events) {
                List<String> copy = new ArrayList<>(events);
                events.clear();
                return copy;
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> syncs(List<String> events) {
        return events.stream().filter(e -> e.startsWith("sync")).toList();
    }

    private static long count(List<String> events, FileType type, String verb) {
        return events.stream().filter(e -> e.startsWith(verb + " ")).map(e -> FileNames.parse(e.substring(verb.length() + 1)))
                .filter(p -> p != null && p.type() == type).count();
    }

    @Test
    void aNewDatabaseWritesOneManifestAndOneCurrentWithFourSyncs() throws IOException {
        RecordingEnv env = new RecordingEnv(new FaultInjectionEnv());
        try (DB db = LevelDbFactory.factory.open(DIR, new Options().env(env))) {
            List<String> events = env.take();
            assertEquals(List.of("sync MANIFEST-000001", "sync dir", "sync 000001.dbtmp", "sync dir"), syncs(events));
            assertEquals(1, count(events, FileType.DESCRIPTOR, "create"), events.toString());
            assertEquals(1, count(events, FileType.LOG, "create"), events.toString());
            db.put(bytes("a"), bytes("1"));
        }
    }

    @Test
    void aReopenWithASmallLogSyncsTheLogAndWritesOnlyANewOne() throws IOException {
        FaultInjectionEnv faults = new FaultInjectionEnv();
        RecordingEnv env = new RecordingEnv(faults);
        Options options = new Options().env(env);
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("2"));
        }
        env.take();
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            List<String> events = env.take();
            assertEquals(List.of("sync 000002.log"), syncs(events), events.toString());
            assertEquals(0, count(events, FileType.DESCRIPTOR, "create") + count(events, FileType.TABLE, "create")
                    + count(events, FileType.TEMP, "create"), events.toString());
            assertEquals(1, count(events, FileType.LOG, "create"), events.toString());
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            assertEquals("0", db.getProperty("leveldb.num-files-at-level0"));
            // A synced write after the reopen: a power failure keeps it and everything before.
            db.put(bytes("c"), bytes("3"), new WriteOptions().sync(true));
            faults.crash();
        }
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            assertArrayEquals(bytes("2"), db.get(bytes("b")));
            assertArrayEquals(bytes("3"), db.get(bytes("c")));
        }
    }

    @Test
    void atTheLogLimitAnOpenWritesATableAndANewManifest() throws IOException {
        RecordingEnv env = new RecordingEnv(new FaultInjectionEnv());
        Options options = new Options().env(env);
        for (int open = 0; open < Recovery.MAX_LIVE_LOGS + 2; open++) {
            env.take();
            try (DB db = LevelDbFactory.factory.open(DIR, options)) {
                List<String> events = env.take();
                int liveLogs = 0;
                for (String name : env.getChildren(DIR.toPath())) {
                    FileNames.Parsed p = FileNames.parse(name);
                    liveLogs += p != null && p.type() == FileType.LOG ? 1 : 0;
                }
                assertTrue(liveLogs <= Recovery.MAX_LIVE_LOGS, "open " + open + ": " + liveLogs + " logs");
                boolean rewrote = count(events, FileType.DESCRIPTOR, "create") == 1;
                // The first open creates; the next three keep their logs; the fourth meets the
                // limit and writes a table and a MANIFEST; the one after keeps again.
                assertEquals(open == 0 || open == Recovery.MAX_LIVE_LOGS, rewrote, "open " + open + ": " + events);
                assertEquals(open == Recovery.MAX_LIVE_LOGS ? 1 : 0, count(events, FileType.TABLE, "create"),
                        "open " + open + ": " + events);
                for (int k = 0; k < open; k++) {
                    assertArrayEquals(bytes("v" + k), db.get(bytes("k" + k)), "open " + open + " key " + k);
                }
                db.put(bytes("k" + open), bytes("v" + open));
            }
        }
    }

    @Test
    void aManifestWithMoreThanOneEditIsRewrittenByTheNextOpen() throws IOException {
        RecordingEnv env = new RecordingEnv(new FaultInjectionEnv());
        Options options = new Options().env(env);
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            db.put(bytes("a"), bytes("1"));
        }
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            // Two flushes: a new MANIFEST (the open wrote none) with two edits after its snapshot.
            db.put(bytes("b"), bytes("2"));
            ((ExtendedDB) db).flushMemTable();
            db.put(bytes("c"), bytes("3"));
            ((ExtendedDB) db).flushMemTable();
        }
        env.take();
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            List<String> events = env.take();
            assertEquals(1, count(events, FileType.DESCRIPTOR, "create"), events.toString());
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            assertArrayEquals(bytes("2"), db.get(bytes("b")));
            assertArrayEquals(bytes("3"), db.get(bytes("c")));
            assertNull(db.get(bytes("d")));
        }
    }
}
