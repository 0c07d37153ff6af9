package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.junit.jupiter.api.Test;
import org.leveldbj.compaction.CompactionFilterFailure;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;

/**
 * The compaction filter's contract: which entries it is asked about (values only, the newest of
 * each key, none an open snapshot reads), what keep, remove and replace leave behind at
 * a compaction that is the bottom for the key and at one that is not (no older version comes
 * back), separated values shown and written back by the threshold, and a filter that throws.
 */
class CompactionFilterTest {
    private static final File DIR = new File("/db");

    /** A filter deciding by a function of the value, recording every question. */
    private static final class Recording implements CompactionFilter {
        final List<String> asked = Collections.synchronizedList(new ArrayList<>());
        final Function<String, CompactionFilter.Decision> rule;

        Recording(Function<String, CompactionFilter.Decision> rule) {
            this.rule = rule;
        }

        @Override
        public String name() {
            return "test.Recording";
        }

        @Override
        public Decision filter(int level, byte[] key, byte[] value) {
            String v = new String(value, StandardCharsets.UTF_8);
            asked.add(level + ":" + new String(key, StandardCharsets.UTF_8) + "=" + (v.length() > 20 ? v.length() + "b" : v));
            return rule.apply(v);
        }
    }

    private static ExtendedDB open(MemEnv env, CompactionFilter filter) throws IOException {
        return LevelDbFactory.factory.open(DIR, new Options().env(env).compactionFilter(filter));
    }

    private static int filesAt(ExtendedDB db, int level) {
        return Integer.parseInt(db.getProperty("leveldb.num-files-at-level" + level));
    }

    /**
     * Level 2 holds k=old, level 1 k=mid, level 0 k=new: compacting levels 0 and 1 asks the
     * filter about "new" at level 0 (a compaction with a deeper level holding k), never about
     * "mid" (shadowed) or "old" (shadowed by then by the marker).
     */
    private static void layThreeVersions(ExtendedDB db) {
        db.put(bytes("k"), bytes("old"));
        db.flushMemTable();
        assertEquals(1, filesAt(db, 2), db.getProperty("leveldb.sstables"));
        db.put(bytes("k"), bytes("mid"));
        db.flushMemTable();
        assertEquals(1, filesAt(db, 1), db.getProperty("leveldb.sstables"));
        db.put(bytes("k"), bytes("new"));
        db.flushMemTable();
        assertEquals(1, filesAt(db, 0), db.getProperty("leveldb.sstables"));
    }

    @Test
    void removeAboveTheBottomWritesAMarkerSoNoOlderVersionComesBack() throws IOException {
        Recording filter = new Recording(v -> v.equals("new") ? CompactionFilter.Decision.REMOVE : CompactionFilter.Decision.KEEP);
        try (ExtendedDB db = open(new MemEnv(), filter)) {
            layThreeVersions(db);
            db.compactRange(null, null);
            // Level 0 into 1 (level 2 holds k: not the bottom): "new" is asked about, "mid" is
            // shadowed; level 1 into 2: the marker hides "old"; nothing is left to rewrite.
            assertEquals(List.of("1:k=new"), filter.asked, "only the newest version, once");
            assertNull(db.get(bytes("k")), "neither mid nor old comes back: " + db.getProperty("leveldb.sstables"));
            try (var it = db.iterator()) {
                it.seekToFirst();
                assertFalse(it.hasNext());
            }
            assertEquals(0, filesAt(db, 0) + filesAt(db, 1) + filesAt(db, 2), db.getProperty("leveldb.sstables"));
        }
    }

    @Test
    void removeAtTheBottomDropsTheEntryAndTheShadowedVersions() throws IOException {
        Recording filter = new Recording(v -> v.equals("new") ? CompactionFilter.Decision.REMOVE : CompactionFilter.Decision.KEEP);
        try (ExtendedDB db = open(new MemEnv(), filter)) {
            db.put(bytes("k"), bytes("old"));
            db.put(bytes("other"), bytes("x"));
            db.compactRange(null, null); // flushed to level 2, then rewritten in place: the bottom
            assertEquals(List.of("2:k=old", "2:other=x"), filter.asked);
            db.put(bytes("k"), bytes("new"));
            db.compactRange(null, null); // flushed to level 1 (k overlaps level 2), compacted into 2
            assertTrue(filter.asked.contains("2:k=new"), filter.asked.toString());
            assertEquals(1, Collections.frequency(filter.asked, "2:k=old"),
                    "the old version is shadowed, never asked about again: " + filter.asked);
            assertNull(db.get(bytes("k")));
            assertArrayEquals(bytes("x"), db.get(bytes("other")));
            String tables = db.getProperty("leveldb.sstables");
            assertFalse(tables.contains("'k'"), "no marker and no old version left at the bottom: " + tables);
        }
    }

    @Test
    void replaceWritesTheNewValueAtEveryLevel() throws IOException {
        Recording filter = new Recording(v -> v.startsWith("v") ? CompactionFilter.Decision.replace(bytes("R" + v)) : CompactionFilter.Decision.KEEP);
        try (ExtendedDB db = open(new MemEnv(), filter)) {
            db.put(bytes("a"), bytes("v1"));
            db.put(bytes("b"), bytes("keep"));
            db.compactRange(null, null);
            assertArrayEquals(bytes("Rv1"), db.get(bytes("a")));
            assertArrayEquals(bytes("keep"), db.get(bytes("b")));
            assertEquals(List.of("2:a=v1", "2:b=keep"), filter.asked);
            filter.asked.clear();
            db.compactRange(null, null); // the bottom is rewritten again: asked again, about the new value
            assertEquals(List.of("2:a=Rv1", "2:b=keep"), filter.asked);
            assertArrayEquals(bytes("Rv1"), db.get(bytes("a")));
        }
    }

    @Test
    void entriesAnOpenSnapshotReadsAreNotFiltered() throws IOException {
        Recording filter = new Recording(v -> CompactionFilter.Decision.REMOVE);
        try (ExtendedDB db = open(new MemEnv(), filter)) {
            db.put(bytes("a"), bytes("before"));
            db.put(bytes("d"), bytes("before"));
            Snapshot snapshot = db.getSnapshot();
            try {
                db.put(bytes("a"), bytes("after"));
                db.put(bytes("b"), bytes("after"));
                db.compactRange(null, null);
                // Only the entries written after the snapshot, which it does not read, are the
                // filter's: a's "before" (the snapshot's) and d (the snapshot's, and the newest) are not.
                assertEquals(List.of("2:a=after", "2:b=after"), filter.asked);
                assertNull(db.get(bytes("a")));
                assertNull(db.get(bytes("b")));
                assertArrayEquals(bytes("before"), db.get(bytes("d")));
                assertArrayEquals(bytes("before"), db.get(bytes("a"), new ReadOptions().snapshot(snapshot)),
                        "the snapshot reads what it read when it was taken");
                assertArrayEquals(bytes("before"), db.get(bytes("d"), new ReadOptions().snapshot(snapshot)));
                assertNull(db.get(bytes("b"), new ReadOptions().snapshot(snapshot)));
            } finally {
                snapshot.close();
            }
            filter.asked.clear();
            db.put(bytes("c"), bytes("late"));
            db.compactRange(null, null); // no snapshot: every newest value is the filter's
            assertEquals(List.of("2:c=late", "2:d=before"), filter.asked);
            assertNull(db.get(bytes("c")));
            assertNull(db.get(bytes("d")));
        }
    }

    @Test
    void deletionsAreNeverShown() throws IOException {
        Recording filter = new Recording(v -> CompactionFilter.Decision.KEEP);
        try (ExtendedDB db = open(new MemEnv(), filter)) {
            db.put(bytes("a"), bytes("1"));
            db.delete(bytes("a"));
            db.delete(bytes("b"));
            db.compactRange(null, null);
            assertEquals(List.of(), filter.asked, "a deletion hides the value below it and is itself not shown");
            assertNull(db.get(bytes("a")));
        }
    }

    @Test
    void separatedValuesAreShownAndReplacementsFollowTheThreshold() throws IOException {
        byte[] big = new byte[300];
        Arrays.fill(big, (byte) 'v');
        byte[] bigger = new byte[500];
        Arrays.fill(bigger, (byte) 'w');
        Recording filter = new Recording(v -> v.length() == 300 ? CompactionFilter.Decision.replace(bigger)
                : v.length() == 200 ? CompactionFilter.Decision.replace(bytes("inline"))
                : v.equals("small") ? CompactionFilter.Decision.replace(bytes("tiny")) : CompactionFilter.Decision.KEEP);
        MemEnv env = new MemEnv();
        Options options = new Options().env(env).compactionFilter(filter).valueThreshold(100);
        try (ExtendedDB db = LevelDbFactory.factory.open(DIR, options)) {
            db.put(bytes("big"), big);
            db.put(bytes("small"), bytes("small"));
            db.put(bytes("shrinks"), new byte[200]);
            db.compactRange(null, null);
            assertTrue(filter.asked.contains("2:big=300b"), "the filter sees the value, not its reference: " + filter.asked);
            assertArrayEquals(bigger, db.get(bytes("big")));
            assertArrayEquals(bytes("tiny"), db.get(bytes("small")));
            assertArrayEquals(bytes("inline"), db.get(bytes("shrinks")));
        }
        try (ExtendedDB db = LevelDbFactory.factory.open(DIR, new Options().env(env).valueThreshold(100))) {
            assertArrayEquals(bigger, db.get(bytes("big")), "the replacement survives a reopen");
            assertArrayEquals(bytes("inline"), db.get(bytes("shrinks")));
            db.compactRange(null, null); // the value files' reference counts hold up: nothing is missing
            assertArrayEquals(bigger, db.get(bytes("big")));
        }
    }

    /** Throws on the value "bad" while {@link #broken}. */
    private static final class Throwing implements CompactionFilter {
        static final IllegalStateException BOOM = new IllegalStateException("boom");
        volatile boolean broken = true;

        @Override
        public String name() {
            return "test.Throwing";
        }

        @Override
        public Decision filter(int level, byte[] key, byte[] value) {
            if (broken && new String(value, StandardCharsets.UTF_8).equals("bad")) {
                throw BOOM;
            }
            return new String(value, StandardCharsets.UTF_8).equals("drop") ? Decision.REMOVE : Decision.KEEP;
        }
    }

    @Test
    void aThrowingFilterStopsTheCompactionLosesNothingAndIsNamed() throws IOException {
        MemEnv env = new MemEnv();
        Throwing filter = new Throwing();
        Options options = new Options().env(env).compactionFilter(filter);
        List<String> tablesBefore;
        try (ExtendedDB db = LevelDbFactory.factory.open(DIR, options)) {
            for (int i = 0; i < 200; i++) {
                db.put(bytes(String.format("a%03d", i)), bytes("value" + i));
            }
            db.put(bytes("b"), bytes("bad"));
            db.put(bytes("c"), bytes("drop"));
            db.flushMemTable();
            tablesBefore = DbTestSupport.tables(env, Path.of("/db"));
            DBException e = assertThrows(DBException.class, () -> db.compactRange(null, null));
            CompactionFilterFailure failure = assertInstanceOf(CompactionFilterFailure.class, e.getCause(), e.toString());
            assertSame(Throwing.BOOM, failure.getCause());
            assertEquals("compaction filter test.Throwing failed on key 0x62 writing level 2: java.lang.IllegalStateException: boom",
                    failure.getMessage());
            assertFalse(e.getMessage().contains("IO error"), e.getMessage());
            assertEquals(tablesBefore, DbTestSupport.tables(env, Path.of("/db")), "the partial outputs are deleted");
            DBException later = assertThrows(DBException.class, () -> db.put(bytes("d"), bytes("4")));
            assertSame(failure, later.getCause(), "writes fail with the filter's failure as the cause");
            assertArrayEquals(bytes("bad"), db.get(bytes("b")), "reads go on");
            assertArrayEquals(bytes("value7"), db.get(bytes("a007")));
        }
        filter.broken = false;
        try (ExtendedDB db = LevelDbFactory.factory.open(DIR, options)) {
            for (int i = 0; i < 200; i++) {
                assertArrayEquals(bytes("value" + i), db.get(bytes(String.format("a%03d", i))));
            }
            assertArrayEquals(bytes("bad"), db.get(bytes("b")));
            db.compactRange(null, null);
            assertArrayEquals(bytes("bad"), db.get(bytes("b")));
            assertNull(db.get(bytes("c")), "the working filter removes what it should");
            db.put(bytes("d"), bytes("4"));
        }
    }

    @Test
    void aFilterAnsweringNullIsAFailureToo() throws IOException {
        CompactionFilter nullAnswer = new CompactionFilter() {
            @Override
            public String name() {
                return "test.Null";
            }

            @Override
            public Decision filter(int level, byte[] key, byte[] value) {
                return null;
            }
        };
        try (ExtendedDB db = open(new MemEnv(), nullAnswer)) {
            db.put(bytes("k"), bytes("v"));
            DBException e = assertThrows(DBException.class, () -> db.compactRange(null, null));
            assertEquals("compaction filter test.Null failed on key 0x6b writing level 2: it returned null instead of a decision",
                    e.getCause().getMessage());
            assertArrayEquals(bytes("v"), db.get(bytes("k")));
        }
    }
}
