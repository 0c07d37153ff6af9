package org.leveldbj.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.backup.BackupEngine;
import org.leveldbj.backup.BackupInfo;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.PeerExtension;

/**
 * A checkpoint and a restored backup of a plain-format database, each taken under write load,
 * open in C++ LevelDB and goleveldb and hold exactly the acknowledged prefix: our engine finds
 * how many of the writer's entries the copy holds and checks that number against what was
 * acknowledged before the call and what had started by its return; the peers then verify the
 * copy against a recipe of exactly those entries (every key, nothing more), with their strictest
 * checks.
 */
@ExtendWith(PeerExtension.class)
class CopiesInteropTest {

    private static byte[] key(long i) {
        return String.format(Locale.ROOT, "key%09d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] value(long i) {
        return String.format(Locale.ROOT, "value %d %s", i, "x".repeat((int) (i % 50))).getBytes(StandardCharsets.US_ASCII);
    }

    /** What was acknowledged before a copy was made, and what had started by its return. */
    private record Bounds(long ackedBefore, long startedAfter) {
    }

    @Test
    void aCheckpointAndABackupUnderWritesOpenInThePeersWithExactlyTheAcknowledgedPrefix(@TempDir Path tmp)
            throws Exception {
        Peers peers = Peers.get();
        Path dir = tmp.resolve("db");
        Path checkpoint = tmp.resolve("checkpoint");
        Path restored = tmp.resolve("restored");
        // Small memtables and tables: the copies hold tables of several levels and a memtable log.
        Options options = new Options().writeBufferSize(64 << 10).maxFileSize(64 << 10);
        AtomicLong acked = new AtomicLong(-1);
        AtomicLong started = new AtomicLong(-1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Bounds atCheckpoint;
        Bounds atBackup;
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options);
             BackupEngine backups = BackupEngine.open(tmp.resolve("backups"))) {
            Thread writer = new Thread(() -> {
                try {
                    for (long i = 0; !stop.get(); i++) {
                        started.set(i);
                        db.put(key(i), value(i));
                        acked.set(i);
                    }
                } catch (Throwable e) {
                    writerFailure.set(e);
                }
            }, "copy-interop-writer");
            writer.start();
            awaitAcked(acked, 30_000, writer);
            long before = acked.get();
            db.checkpoint(checkpoint.toFile());
            atCheckpoint = new Bounds(before, started.get());
            awaitAcked(acked, before + 20_000, writer);
            before = acked.get();
            BackupInfo backup = backups.createBackup(db);
            atBackup = new Bounds(before, started.get());
            stop.set(true);
            writer.join();
            backups.restore(backup.id(), restored);
        }
        if (writerFailure.get() != null) {
            throw new AssertionError("the writer failed", writerFailure.get());
        }
        checkInPeers(peers, checkpoint, atCheckpoint, tmp, "checkpoint");
        checkInPeers(peers, restored, atBackup, tmp, "restored backup");
    }

    private static void awaitAcked(AtomicLong acked, long target, Thread writer) {
        while (acked.get() < target && writer.isAlive()) {
            Thread.onSpinWait();
        }
    }

    private static void checkInPeers(Peers peers, Path copyDir, Bounds bounds, Path tmp, String what) throws IOException {
        long count = 0;
        try (DB copy = LevelDbFactory.factory.open(InteropTest.copy(copyDir, "ours").toFile(),
                new Options().createIfMissing(false))) {
            try (DBIterator it = copy.iterator()) {
                for (it.seekToFirst(); it.hasNext(); count++) {
                    var e = it.next();
                    assertArrayEquals(key(count), e.getKey(), what + ": a prefix, in order");
                    assertArrayEquals(value(count), e.getValue());
                }
            }
        }
        assertTrue(count - 1 >= bounds.ackedBefore(),
                what + ": " + count + " entries, but " + (bounds.ackedBefore() + 1) + " acknowledged before the call");
        assertTrue(count - 1 <= bounds.startedAfter(),
                what + ": " + count + " entries, but only " + (bounds.startedAfter() + 1) + " started by its return");

        StringBuilder recipe = new StringBuilder("option write_buffer_size=65536\n");
        HexFormat hex = HexFormat.of();
        for (long i = 0; i < count; i++) {
            recipe.append("put ").append(hex.formatHex(key(i))).append(' ').append(hex.formatHex(value(i))).append('\n');
        }
        Path recipeFile = tmp.resolve(copyDir.getFileName() + ".recipe");
        Files.writeString(recipeFile, recipe, StandardCharsets.ISO_8859_1);
        System.out.printf(Locale.ROOT, "interop: %s holds %d entries (%d acknowledged before, %d started by the return)%n",
                what, count, bounds.ackedBefore() + 1, bounds.startedAfter() + 1);
        System.out.println("interop: " + what + ": C++ " + peers.cpp("verify", InteropTest.copy(copyDir, "cpp").toString(),
                recipeFile.toString()).expectOk().stdout().trim());
        System.out.println("interop: " + what + ": Go " + peers.go("verify", "--strict-all",
                InteropTest.copy(copyDir, "go").toString(), recipeFile.toString()).expectOk().output().trim());
    }
}
