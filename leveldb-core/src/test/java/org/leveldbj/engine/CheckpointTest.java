package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.asString;
import static org.leveldbj.db.LevelDbFactory.bytes;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.FaultInjectionEnv;

/**
 * A checkpoint holds exactly a prefix of a writer's writes (every write acknowledged before the
 * call, none started after it returned), opens on its own, shares the live database's tables
 * through links, flushes nothing, and refuses bad targets; a failed link or copy leaves no
 * target and the database working.
 */
class CheckpointTest {
    @TempDir
    Path tmp;

    private static byte[] key(long i) {
        return bytes(String.format("key%09d", i));
    }

    private static List<Path> tables(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".ldb") || p.toString().endsWith(".sst")).sorted().toList();
        }
    }

    @Test
    void aCheckpointUnderWritesHoldsExactlyAPrefix() throws Exception {
        Options options = new Options().writeBufferSize(64 << 10).maxFileSize(32 << 10);
        AtomicLong acked = new AtomicLong(-1);
        AtomicLong started = new AtomicLong(-1);
        AtomicBoolean stop = new AtomicBoolean();
        byte[] value = new byte[100];
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), options)) {
            Thread writer = new Thread(() -> {
                for (long i = 0; !stop.get(); i++) {
                    started.set(i);
                    db.put(key(i), value);
                    acked.set(i);
                }
            });
            writer.start();
            for (int round = 0; round < 3; round++) {
                long target = acked.get() + 5_000;
                while (acked.get() < target && writer.isAlive()) {
                    Thread.onSpinWait();
                }
                long ackedBefore = acked.get();
                Path copyDir = tmp.resolve("copy" + round);
                db.checkpoint(copyDir.toFile());
                long startedAfter = started.get();
                assertFalse(Files.exists(tmp.resolve("copy" + round + Checkpoint.TEMPORARY_SUFFIX)));
                try (DB copy = factory.open(copyDir.toFile(), new Options().createIfMissing(false))) {
                    long count = 0;
                    try (DBIterator it = copy.iterator()) {
                        for (it.seekToFirst(); it.hasNext(); count++) {
                            assertArrayEquals(key(count), it.next().getKey(), "a prefix, in order");
                        }
                    }
                    assertTrue(count - 1 >= ackedBefore, count + " entries, " + ackedBefore + " acknowledged before");
                    assertTrue(count - 1 <= startedAfter, count + " entries, " + startedAfter + " started by the return");
                }
            }
            stop.set(true);
            writer.join();
        }
    }

    @Test
    void tablesAreLinkedAndNothingIsFlushed() throws IOException {
        Path dir = tmp.resolve("db");
        try (ExtendedDB db = factory.open(dir.toFile(), new Options())) {
            for (int i = 0; i < 1000; i++) {
                db.put(key(i), bytes("v" + i));
            }
            db.flushMemTable();
            db.put(key(5), bytes("first"));
            db.delete(key(5));
            db.put(key(5), bytes("in the memtable"));
            db.put(key(6), bytes("overwritten, then"));
            db.delete(key(6));
            List<Path> before = tables(dir);
            db.checkpoint(tmp.resolve("copy").toFile());
            assertEquals(before, tables(dir), "the checkpoint flushed nothing");
            List<Path> copied = tables(tmp.resolve("copy"));
            assertEquals(before.size(), copied.size());
            for (Path f : copied) {
                assertEquals(2, Files.getAttribute(f, "unix:nlink"), f + ": the copy's name and the live one");
            }
            db.put(key(7), bytes("after"));
            db.compactRange(null, null);
        }
        try (DB copy = factory.open(tmp.resolve("copy").toFile(), new Options().createIfMissing(false))) {
            assertEquals("in the memtable", asString(copy.get(key(5))));
            assertNull(copy.get(key(6)), "a deletion in the memtable is carried over");
            assertEquals("v7", asString(copy.get(key(7))));
            assertEquals("v999", asString(copy.get(key(999))));
        }
    }

    @Test
    void badTargetsAreRefused() throws IOException {
        Path dir = tmp.resolve("db");
        Files.createDirectories(tmp.resolve("full"));
        Files.writeString(tmp.resolve("full").resolve("something"), "x");
        Files.writeString(tmp.resolve("file"), "x");
        Files.createDirectories(tmp.resolve("foreign" + Checkpoint.TEMPORARY_SUFFIX));
        Files.writeString(tmp.resolve("foreign" + Checkpoint.TEMPORARY_SUFFIX).resolve("notes.txt"), "mine");
        try (ExtendedDB db = factory.open(dir.toFile(), new Options())) {
            db.put(key(1), bytes("1"));
            InvalidArgumentException e = assertThrows(InvalidArgumentException.class,
                    () -> db.checkpoint(tmp.resolve("full").toFile()));
            assertTrue(e.getMessage().contains("full: not empty"), e.getMessage());
            e = assertThrows(InvalidArgumentException.class, () -> db.checkpoint(tmp.resolve("file").toFile()));
            assertTrue(e.getMessage().contains("not a directory"), e.getMessage());
            e = assertThrows(InvalidArgumentException.class, () -> db.checkpoint(dir.resolve("inside").toFile()));
            assertTrue(e.getMessage().contains("inside the database"), e.getMessage());
            e = assertThrows(InvalidArgumentException.class, () -> db.checkpoint(tmp.resolve("foreign").toFile()));
            assertTrue(e.getMessage().contains("not a checkpoint left unfinished"), e.getMessage());
            Files.createDirectories(tmp.resolve("empty"));
            db.checkpoint(tmp.resolve("empty").toFile());
        }
        assertEquals("x", Files.readString(tmp.resolve("full").resolve("something")));
        assertEquals("mine", Files.readString(tmp.resolve("foreign" + Checkpoint.TEMPORARY_SUFFIX).resolve("notes.txt")));
        try (DB copy = factory.open(tmp.resolve("empty").toFile(), new Options().createIfMissing(false))) {
            assertEquals("1", asString(copy.get(key(1))));
        }
        try (ExtendedDB readOnly = factory.open(dir.toFile(), new Options().readOnly(true))) {
            readOnly.checkpoint(tmp.resolve("from-read-only").toFile());
        }
        try (DB copy = factory.open(tmp.resolve("from-read-only").toFile(), new Options().createIfMissing(false))) {
            assertEquals("1", asString(copy.get(key(1))));
        }
        ExtendedDB closed = factory.open(tmp.resolve("closed").toFile(), new Options());
        closed.close();
        assertThrows(org.iq80.leveldb.DBException.class, () -> closed.checkpoint(tmp.resolve("c").toFile()));
    }

    @Test
    void separatedValuesAreCopiedUpToTheCapture() throws IOException {
        Options options = new Options().valueThreshold(1024);
        byte[] large = new byte[4096];
        Arrays.fill(large, (byte) 7);
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), options)) {
            db.put(key(1), large);
            db.put(key(2), bytes("small"));
            db.flushMemTable();
            db.put(key(3), large);
            db.checkpoint(tmp.resolve("copy").toFile());
            db.delete(key(1));
            db.put(key(4), large);
        }
        try (DB copy = factory.open(tmp.resolve("copy").toFile(), new Options().createIfMissing(false))) {
            assertArrayEquals(large, copy.get(key(1)));
            assertEquals("small", asString(copy.get(key(2))));
            assertArrayEquals(large, copy.get(key(3)));
            assertNull(copy.get(key(4)));
        }
    }

    @Test
    void aFailedLinkOrCopyLeavesNoTargetAndTheNextCheckpointClearsIt() throws IOException {
        FaultInjectionEnv env = new FaultInjectionEnv();
        Path dir = Path.of("/db");
        Path target = Path.of("/copy");
        Options options = new Options().env(env);
        try (ExtendedDB db = factory.open(dir.toFile(), options)) {
            for (int i = 0; i < 100; i++) {
                db.put(key(i), bytes("v" + i));
            }
            db.flushMemTable();
            db.put(key(100), bytes("v100"));

            env.fail(FaultInjectionEnv.Op.LINK, 1);
            IOErrorException e = assertThrows(IOErrorException.class, () -> db.checkpoint(target.toFile()));
            assertTrue(e.getMessage().contains(FaultInjectionEnv.INJECTED), e.getMessage());
            assertFalse(env.fileExists(target));

            env.setSpaceLeft(p -> p.startsWith(Path.of("/copy" + Checkpoint.TEMPORARY_SUFFIX)), 100);
            e = assertThrows(IOErrorException.class, () -> db.checkpoint(target.toFile()));
            assertTrue(e.getMessage().contains(FaultInjectionEnv.NO_SPACE), e.getMessage());
            assertTrue(e.getMessage().contains("copy"), "names the file: " + e.getMessage());
            assertFalse(env.fileExists(target));
            assertFalse(env.fileExists(Path.of("/copy" + Checkpoint.TEMPORARY_SUFFIX)), "a failed checkpoint cleans up");
            env.clearFaults();

            db.put(key(101), bytes("v101"));
            assertEquals("v100", asString(db.get(key(100))), "the database works on");
            db.checkpoint(target.toFile());
        }
        try (DB copy = factory.open(target.toFile(), new Options().env(env).createIfMissing(false))) {
            for (int i = 0; i <= 101; i++) {
                assertEquals("v" + i, asString(copy.get(key(i))));
            }
        }
    }
}
