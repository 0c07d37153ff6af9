package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/** The driver's check of checkpoints left by a kill finds a wrong one, skips leftovers and cleans up. */
class CheckpointsTest {
    @TempDir
    Path work;

    @Test
    void finishedCheckpointsAreComparedWithTheirExpectationAndEverythingIsDeleted() throws Exception {
        Options options = new Options();
        long[] model = {ExpectedState.ABSENT, 7, ExpectedState.ABSENT, 9};
        try (ExtendedDB db = LevelDbFactory.factory.open(work.resolve("db").toFile(), options)) {
            db.put(Keys.key(0, 1), Values.encode(0, 1, 7, 30));
            db.put(Keys.key(0, 3), Values.encode(0, 3, 9, 30));
            db.checkpoint(Checkpoints.expect(work, "good", 0, model).toFile());
            long[] wrong = model.clone();
            wrong[2] = 8;
            db.checkpoint(Checkpoints.expect(work, "wrong", 0, wrong).toFile());
        }
        Path leftover = Checkpoints.dir(work).resolve("killed.checkpoint-tmp");
        Files.createDirectories(leftover);
        Files.writeString(leftover.resolve("000005.ldb"), "half");

        assertTrue(Checkpoints.check(Checkpoints.dir(work).resolve("good"), options, 0, model).isEmpty());
        Checkpoints.Result r = Checkpoints.verifyAll(work, options);
        assertEquals(2, r.checked());
        assertEquals(1, r.failures().size(), r.failures().toString());
        assertTrue(r.failures().get(0).contains("checkpoint wrong") && r.failures().get(0).contains("expected 8, found -1"),
                r.failures().get(0));
        assertFalse(Files.exists(Checkpoints.dir(work)), "every checkpoint and leftover is deleted");
    }
}
