package org.leveldbj.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/**
 * A backup directory made by an earlier version (0.1.0-SNAPSHOT, format 1; kept in the test
 * resources, see {@link GoldenBackup}) is listed, verified and restored by this one, to exactly
 * the contents it was made with, and takes new backups.
 */
class GoldenBackupTest {
    @TempDir
    Path tmp;

    private Path copyOfGolden() throws IOException, URISyntaxException {
        Path golden = Path.of(GoldenBackupTest.class.getResource(GoldenBackup.RESOURCE).toURI());
        Path copy = tmp.resolve("backups");
        try (Stream<Path> files = Files.walk(golden)) {
            for (Path p : files.sorted().toList()) {
                Files.copy(p, copy.resolve(golden.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return copy;
    }

    @Test
    void backupsOfFormatOneRestore() throws Exception {
        Path dir = copyOfGolden();
        try (BackupEngine backups = BackupEngine.open(dir)) {
            List<BackupInfo> infos = backups.listBackups();
            assertEquals(List.of(1, 2), infos.stream().map(BackupInfo::id).toList());
            for (BackupInfo info : infos) {
                assertEquals("0.1.0-SNAPSHOT", info.libraryVersion());
                assertEquals(1, info.formatVersion());
            }
            assertEquals(26, infos.get(0).sequence(), "20 puts in the table, 5 and a deletion in the memtable");
            assertEquals(37, infos.get(1).sequence(), "then 10 puts and a deletion");
            assertEquals(List.of(5, 6), infos.stream().map(BackupInfo::fileCount).toList());
            assertTrue(infos.get(1).newBytes() < infos.get(1).size(), "backup 2 shares backup 1's table");
            for (int id = 1; id <= 2; id++) {
                backups.verifyBackup(id);
                assertEquals(GoldenBackup.expected(id), BackupFixtures.restored(backups, id, null, tmp.resolve("r" + id)));
            }
        }
        try (ExtendedDB db = LevelDbFactory.factory.open(tmp.resolve("r2").toFile(), new Options());
             BackupEngine backups = BackupEngine.open(dir)) {
            assertEquals(3, backups.createBackup(db).id(), "the directory takes new backups");
            backups.purge(1);
            assertEquals(GoldenBackup.expected(2), BackupFixtures.restored(backups, 3, null, tmp.resolve("r3")));
        }
    }
}
