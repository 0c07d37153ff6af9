package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.MemEnv;

/**
 * A snapshot taken while a write and a full compaction run still reads what it should: the
 * compaction either sees the snapshot or ran before the snapshot's sequence number was read.
 * The test stretches the moment between reading the sequence number and registering the
 * snapshot, and runs a write and a compaction in it.
 */
class SnapshotRaceTest {
    @Test
    void compactionCannotDropWhatASnapshotBeingTakenNeeds() throws Exception {
        MemEnv env = new MemEnv();
        try (DbImpl db = (DbImpl) LevelDbFactory.factory.open(new File("/db"), new Options().env(env))) {
            db.put(bytes("k"), bytes("v1"));
            db.compactRange(null, null);
            db.put(bytes("k"), bytes("v2")); // the value the snapshot must read
            db.snapshotHookForTesting = () -> {
                db.snapshotHookForTesting = null;
                CompletableFuture<Void> race = CompletableFuture.runAsync(() -> {
                    db.put(bytes("k"), bytes("v3"));
                    db.compactRange(null, null);
                });
                try {
                    race.get(2, TimeUnit.SECONDS); // completes only if nothing keeps it out
                } catch (TimeoutException expected) {
                    // the write waits for the snapshot to be registered
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            };
            try (Snapshot snapshot = db.getSnapshot()) {
                db.compactRange(null, null);
                assertArrayEquals(bytes("v2"), db.get(bytes("k"), new ReadOptions().snapshot(snapshot)));
            }
            assertArrayEquals(bytes("v3"), db.get(bytes("k")));
        }
    }
}
