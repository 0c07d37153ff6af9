package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.env.FileSystemEnv;

/**
 * Thread 0's backups are checked against its model when made, and the driver's check after a
 * kill finds a backup whose model differs, and uses the pending model for a backup made just
 * before the kill.
 */
class BackupsTest {
    @TempDir
    Path work;

    @Test
    void backupsAreRestoredAndComparedWithTheirModels() throws Exception {
        Options options = new Options();
        long[] model = {ExpectedState.ABSENT, 7};
        try (ExtendedDB db = LevelDbFactory.factory.open(work.resolve("db").toFile(), options)) {
            Backups backups = new Backups(work, FileSystemEnv.getDefault(), options);
            db.put(Keys.key(0, 1), Values.encode(0, 1, 7, 30));
            backups.backUpAndCheck(db, model);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> backups.backUpAndCheck(db, new long[] {ExpectedState.ABSENT, 8}));
            assertTrue(e.getMessage().contains("backup 2 (restored)") && e.getMessage().contains("expected 8, found 7"),
                    e.getMessage());
            // As if killed between the meta file and the rename: backup 2's model is still pending.
            Path expected = Backups.expectations(work);
            Files.move(expected.resolve("2"), expected.resolve("pending"));
        }
        Checkpoints.Result r = Backups.verifyAll(work, options);
        assertEquals(2, r.checked());
        assertEquals(1, r.failures().size(), r.failures().toString());
        assertTrue(r.failures().get(0).contains("backup 2 (restored)"), r.failures().get(0));

        Files.writeString(Backups.expectations(work).resolve("pending"), "thread 0\n-1\n7\n");
        r = Backups.verifyAll(work, options);
        assertTrue(r.failures().isEmpty(), r.failures().toString());
        assertEquals(2, r.checked());
        assertTrue(Files.notExists(Backups.expectations(work).resolve("pending")), "cleaned once verified");
    }
}
