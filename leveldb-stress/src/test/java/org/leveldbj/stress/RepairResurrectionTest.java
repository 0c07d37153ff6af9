package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/**
 * A regression test for an engine bug the crash test's repair rounds found: a repair after a
 * crash brought deleted keys back.
 *
 * <p>A compaction that drops a deletion marker together with the value it deleted deletes its
 * input tables only after the new version is in the MANIFEST. A process killed in between
 * leaves some inputs behind: the next open ignores and deletes them, as the MANIFEST does not
 * list them, but repair keeps every readable table in the directory, so the old value is live
 * again and no marker hides it. Here the left-behind table is put back by hand.
 *
 * <p>Before the fix the deleted key read "old" after the repair.
 */
class RepairResurrectionTest {
    @TempDir
    Path dir;

    @Test
    void repairDoesNotResurrectADeletedKey() throws IOException {
        Path db = dir.resolve("db");
        Path aside = Files.createDirectories(dir.resolve("aside"));
        Options options = new Options();
        try (DB d = LevelDbFactory.factory.open(db.toFile(), options)) {
            d.put(bytes("k"), bytes("old"));
            d.put(bytes("z"), bytes("kept"));
            d.compactRange(null, null);
            copyTables(db, aside);
            d.delete(bytes("k"));
            d.compactRange(null, null); // drops both the marker and the old value, then the old table
        }
        copyTables(aside, db); // as a kill before the old table was deleted would have left it
        try (DB d = LevelDbFactory.factory.open(db.toFile(), options)) {
            assertNull(d.get(bytes("k")), "an ordinary open ignores the left-behind table");
        }
        copyTables(aside, db);
        LevelDbFactory.factory.repair(db.toFile(), options);
        try (DB d = LevelDbFactory.factory.open(db.toFile(), options)) {
            byte[] k = d.get(bytes("k"));
            assertNull(k, () -> "deleted key k is back after repair: " + new String(k, StandardCharsets.US_ASCII));
        }
    }

    private static void copyTables(Path from, Path to) throws IOException {
        try (DirectoryStream<Path> tables = Files.newDirectoryStream(from, "*.{ldb,sst}")) {
            for (Path table : tables) {
                if (!Files.exists(to.resolve(table.getFileName()))) {
                    Files.copy(table, to.resolve(table.getFileName()));
                }
            }
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
