package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBComparator;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.leveldbj.comparator.ComparatorFailure;
import org.leveldbj.testing.MemEnv;

/**
 * An application comparator that throws is reported as the comparator's failure, with its
 * exception as the cause, never as an I/O error; the database then refuses writes, keeps
 * serving reads, and after a reopen holds the failed write in full once the comparator works.
 */
class ComparatorFailureTest {
    /** Bytewise order that throws while {@link #broken} is set and a key starting "bad" is compared. */
    private static final class Flaky implements DBComparator {
        static final IllegalStateException BOOM = new IllegalStateException("boom");
        volatile boolean broken = true;

        @Override
        public String name() {
            return "test.Flaky";
        }

        @Override
        public int compare(byte[] a, byte[] b) {
            if (broken && (startsWithBad(a) || startsWithBad(b))) {
                throw BOOM;
            }
            return Arrays.compareUnsigned(a, b);
        }

        private static boolean startsWithBad(byte[] k) {
            return k.length >= 3 && k[0] == 'b' && k[1] == 'a' && k[2] == 'd';
        }

        @Override
        public byte[] findShortestSeparator(byte[] start, byte[] limit) {
            return start;
        }

        @Override
        public byte[] findShortSuccessor(byte[] key) {
            return key;
        }
    }

    @Test
    void aThrowingComparatorIsReportedAsItselfAndStopsWrites() throws IOException {
        MemEnv env = new MemEnv();
        Flaky comparator = new Flaky();
        Options options = new Options().env(env).comparator(comparator);
        File dir = new File("/db");
        try (DB db = LevelDbFactory.factory.open(dir, options)) {
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("c"), bytes("3"));
            DBException e = assertThrows(DBException.class, () -> db.write(db.createWriteBatch()
                    .put(bytes("b0"), bytes("2")).put(bytes("bad"), bytes("x"))));
            assertTrue(e instanceof ComparatorFailure, e.toString());
            assertSame(Flaky.BOOM, e.getCause());
            assertTrue(e.getMessage().startsWith("comparator test.Flaky failed: java.lang.IllegalStateException: boom"
                    + " while applying a write"), e.getMessage());
            assertFalse(e.getMessage().contains("IO error"), e.getMessage());

            DBException later = assertThrows(DBException.class, () -> db.put(bytes("d"), bytes("4")));
            assertSame(e, later.getCause(), "later writes fail with the comparator's failure as the cause");
            assertArrayEquals(bytes("1"), db.get(bytes("a")), "reads go on");
        }
        comparator.broken = false;
        try (DB db = LevelDbFactory.factory.open(dir, options)) {
            assertArrayEquals(bytes("2"), db.get(bytes("b0")), "the logged write is replayed in full");
            assertArrayEquals(bytes("x"), db.get(bytes("bad")));
            db.put(bytes("d"), bytes("4"));
        }
    }

    @Test
    void aThrowingComparatorFailsAReadWithoutHarm() throws IOException {
        Flaky comparator = new Flaky();
        comparator.broken = false;
        try (DB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(new MemEnv()).comparator(comparator))) {
            db.put(bytes("a"), bytes("1"));
            comparator.broken = true;
            DBException e = assertThrows(ComparatorFailure.class, () -> db.get(bytes("bad")));
            assertSame(Flaky.BOOM, e.getCause());
            comparator.broken = false;
            db.put(bytes("b"), bytes("2"));
            assertArrayEquals(bytes("2"), db.get(bytes("b")));
        }
    }
}
