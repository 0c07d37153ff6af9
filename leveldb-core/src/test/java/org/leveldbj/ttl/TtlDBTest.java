package org.leveldbj.ttl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;

/** The TTL database's rules one by one: expiry at the boundary, per-write lifetimes, batches, iterators, snapshots, bad input. */
class TtlDBTest {
    private static final File DIR = new File("/db");
    private final MemEnv env = new MemEnv();
    private final FakeClock clock = new FakeClock(10_000);

    private TtlDB open() throws IOException {
        return TtlDB.open(DIR, new Options().env(env), Duration.ofSeconds(1), clock);
    }

    @Test
    void aValueIsHiddenFromItsExpiryOnAndTheFilesLoseItAtTheNextCompaction() throws IOException {
        try (TtlDB db = open()) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("b"), bytes("2"), Duration.ofMillis(10));
            db.putUntil(bytes("c"), bytes("3"), Instant.MAX, new WriteOptions());
            assertEquals(Instant.ofEpochMilli(11_000), db.expiry(bytes("a")));
            assertEquals(Instant.MAX, db.expiry(bytes("c")));
            clock.advance(9);
            assertArrayEquals(bytes("2"), db.get(bytes("b")));
            clock.advance(1);
            assertNull(db.get(bytes("b")), "expired when the clock reaches the expiry");
            assertNull(db.expiry(bytes("b")));
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
            byte[] stored = db.raw().get(bytes("b"));
            assertArrayEquals(TtlValues.encode(bytes("2"), 10_010), stored, "the raw value carries the suffix");
            db.compactRange(null, null);
            assertNull(db.raw().get(bytes("b")), "compaction removed it from the files");
            clock.advance(1_000_000);
            db.compactRange(null, null);
            assertNull(db.raw().get(bytes("a")));
            assertArrayEquals(bytes("3"), db.get(bytes("c")), "never expires");
        }
    }

    @Test
    void batchesCarryExpiries() throws IOException {
        try (TtlDB db = open(); TtlWriteBatch batch = db.createWriteBatch()) {
            batch.put(bytes("a"), bytes("1")).put(bytes("b"), bytes("2"), Duration.ofMillis(5))
                    .putUntil(bytes("c"), bytes("3"), Instant.ofEpochMilli(10_007)).delete(bytes("d"));
            assertEquals(4, batch.size());
            db.write(batch, new WriteOptions());
            clock.advance(6);
            assertNull(db.get(bytes("b")));
            assertArrayEquals(bytes("3"), db.get(bytes("c")));
            clock.advance(1);
            assertNull(db.get(bytes("c")));
            assertArrayEquals(bytes("1"), db.get(bytes("a")));
        }
    }

    @Test
    void anIteratorJudgesExpiryWhenMadeAndAtEachSeek() throws IOException {
        try (TtlDB db = open()) {
            db.put(bytes("a"), bytes("1"), Duration.ofMillis(5));
            db.put(bytes("b"), bytes("2"), Duration.ofMillis(50));
            db.put(bytes("c"), bytes("3"), Duration.ofMillis(5));
            try (DBIterator it = db.iterator()) {
                clock.advance(10);
                assertEquals("a", new String(it.next().getKey()), "judged when made: a was not expired then");
                it.seekToFirst();
                assertEquals("b", new String(it.peekNext().getKey()), "the seek judges again: a expired");
                assertFalse(it.hasPrev());
                it.seekToLast();
                assertEquals("b", new String(it.peekNext().getKey()), "c expired: b is the last");
                assertArrayEquals(bytes("2"), it.next().getValue());
                assertFalse(it.hasNext());
            }
        }
    }

    @Test
    void aSnapshotKeepsWhatItSawExceptWhatExpires() throws IOException {
        try (TtlDB db = open()) {
            db.put(bytes("a"), bytes("1"), Duration.ofMillis(100));
            db.put(bytes("b"), bytes("2"), Duration.ofMillis(10));
            try (Snapshot snapshot = db.getSnapshot()) {
                db.put(bytes("a"), bytes("new"));
                db.delete(bytes("b"));
                ReadOptions at = new ReadOptions().snapshot(snapshot);
                assertArrayEquals(bytes("1"), db.get(bytes("a"), at));
                assertArrayEquals(bytes("2"), db.get(bytes("b"), at));
                clock.advance(10);
                db.compactRange(null, null);
                assertNull(db.get(bytes("b"), at), "expiry goes on at the snapshot");
                assertArrayEquals(bytes("1"), db.get(bytes("a"), at), "what did not expire is kept for it");
                clock.advance(90);
                db.compactRange(null, null);
                assertNull(db.get(bytes("a"), at));
                assertArrayEquals(bytes("new"), db.get(bytes("a")));
            }
        }
    }

    @Test
    void badArgumentsAndForeignValuesAreTypedErrors() throws IOException {
        CompactionFilter other = new ExpiryFilter(clock);
        InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                () -> TtlDB.open(DIR, new Options().env(env).compactionFilter(other), Duration.ofSeconds(1), clock));
        assertTrue(e.getMessage().contains("sets its own compaction filter"), e.getMessage());
        assertThrows(InvalidArgumentException.class, () -> TtlDB.open(DIR, new Options().env(env), Duration.ZERO, clock));
        assertThrows(InvalidArgumentException.class, () -> TtlDB.open(DIR, new Options().env(env), null, clock));
        try (TtlDB db = open()) {
            assertThrows(InvalidArgumentException.class, () -> db.put(bytes("a"), bytes("1"), Duration.ofMillis(-1)));
            assertThrows(InvalidArgumentException.class, () -> db.put(bytes("a"), null));
            db.raw().put(bytes("plain"), bytes("short"));
            CorruptionException c = assertThrows(CorruptionException.class, () -> db.get(bytes("plain")));
            assertTrue(c.getMessage().contains("key 0x706c61696e has 5 bytes"), c.getMessage());
            assertThrows(CorruptionException.class, () -> db.iterator(new ReadOptions()), "a new iterator starts on it");
            db.raw().put(bytes("a"), TtlValues.encode(bytes("1"), TtlValues.NEVER));
            try (DBIterator it = db.iterator(new ReadOptions())) {
                assertArrayEquals(bytes("1"), it.peekNext().getValue());
                assertThrows(CorruptionException.class, it::next, "the step onto the next entry meets it");
            }
            db.compactRange(null, null);
            assertArrayEquals(bytes("short"), db.raw().get(bytes("plain")), "the filter keeps what it cannot judge");
        }
    }

    @Test
    void aPlainOpenReadsTheValuesWithTheirSuffix() throws IOException {
        try (TtlDB db = open()) {
            db.put(bytes("k"), bytes("v"));
        }
        try (ExtendedDB plain = LevelDbFactory.factory.open(DIR, new Options().env(env))) {
            assertArrayEquals(TtlValues.encode(bytes("v"), 11_000), plain.get(bytes("k")));
        }
        try (TtlDB db = open()) {
            assertArrayEquals(bytes("v"), db.get(bytes("k")));
        }
    }
}
