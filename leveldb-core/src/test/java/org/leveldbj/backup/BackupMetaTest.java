package org.leveldbj.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;

/**
 * The meta file's bytes: what is written is read back the same; every truncation and every
 * flipped bit is a {@link CorruptionException} naming the file (never another exception); and a
 * meta file with a valid checksum that names a file outside its backup, or a file a database
 * does not have, is refused.
 */
class BackupMetaTest {
    private static final String FILE = "/backups/meta/3";
    private static final String SESSION = "0123456789abcdef0123456789abcdef";

    private static BackupMeta sample(List<BackupMeta.StoredFile> files) {
        return new BackupMeta(3, 1_764_375_434_123L, 12_345, "0.1.0", "/data/db with space\nand\\newline", SESSION,
                2, 4096, files);
    }

    private static final List<BackupMeta.StoredFile> FILES = List.of(
            new BackupMeta.StoredFile("000005.ldb", "shared/000005_1a2b3c4d_2048.ldb", 2048, 0x1a2b3c4d),
            new BackupMeta.StoredFile("000009.vlog", "shared/000009_ffffffff_0.vlog", 0, 0xffffffff),
            new BackupMeta.StoredFile("000012.log", "private/3/000012.log", 123, 0),
            new BackupMeta.StoredFile("MANIFEST-000013", "private/3/MANIFEST-000013", 456, 0x80000000),
            new BackupMeta.StoredFile("CURRENT", "private/3/CURRENT", 16, 7));

    @Test
    void whatIsWrittenIsReadBack() {
        BackupMeta meta = sample(FILES);
        byte[] bytes = meta.encode();
        assertEquals(meta, BackupMeta.decode(bytes, FILE, 3));
        String text = new String(bytes, StandardCharsets.UTF_8);
        assertTrue(text.startsWith("leveldbj-backup-meta 1\nid 3\ntime 1764375434123\nsequence 12345\nlibrary 0.1.0\n"
                + "database /data/db with space\\nand\\\\newline\nsession " + SESSION + "\nnew 2 4096\n"
                + "file 000005.ldb shared/000005_1a2b3c4d_2048.ldb 2048 1a2b3c4d\n"), text);
        assertTrue(text.matches("(?s).*\nfile CURRENT private/3/CURRENT 16 00000007\ncrc32c [0-9a-f]{8}\n"), text);
        BackupInfo info = meta.info();
        assertEquals(5, info.fileCount());
        assertEquals(2048 + 123 + 456 + 16, info.size());
    }

    @Test
    void everyTruncationAndFlippedBitIsCorruptionNamingTheFile() {
        byte[] bytes = sample(FILES).encode();
        for (int length = 0; length < bytes.length; length++) {
            byte[] cut = Arrays.copyOf(bytes, length);
            CorruptionException e = assertThrows(CorruptionException.class, () -> BackupMeta.decode(cut, FILE, 3),
                    "cut to " + length);
            assertEquals(FILE, e.file());
        }
        for (int i = 0; i < bytes.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] flipped = bytes.clone();
                flipped[i] ^= (byte) (1 << bit);
                CorruptionException e = assertThrows(CorruptionException.class,
                        () -> BackupMeta.decode(flipped, FILE, 3), "byte " + i + " bit " + bit);
                assertEquals(FILE, e.file());
            }
        }
    }

    @Test
    void aSoundChecksumOverBadFieldsIsStillRefused() {
        assertRefused(List.of(new BackupMeta.StoredFile("000005.ldb", "shared/../../etc/passwd", 1, 0)),
                "'shared/../../etc/passwd' is not a plain file name below shared/ or private/3/");
        assertRefused(List.of(new BackupMeta.StoredFile("000005.ldb", "private/4/000005.ldb", 1, 0)),
                "'private/4/000005.ldb' is not in shared/ or private/3/");
        assertRefused(List.of(new BackupMeta.StoredFile("000005.ldb", "/etc/passwd", 1, 0)),
                "'/etc/passwd' is not in shared/ or private/3/");
        assertRefused(List.of(new BackupMeta.StoredFile("LOCK", "private/3/LOCK", 1, 0)),
                "'LOCK' is not a file a backup holds");
        assertRefused(List.of(new BackupMeta.StoredFile("../x.ldb", "private/3/x.ldb", 1, 0)),
                "'../x.ldb' is not the name of a database file");
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> BackupMeta.decode(sample(FILES).encode(), FILE, 4));
        assertEquals("bad backup meta file (line 2: holds backup 3, not 4 as its name says)", e.reason());
    }

    private static void assertRefused(List<BackupMeta.StoredFile> files, String why) {
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> BackupMeta.decode(sample(files).encode(), FILE, 3));
        assertEquals("bad backup meta file (line 9: " + why + ")", e.reason());
        assertEquals(FILE, e.file());
    }
}
