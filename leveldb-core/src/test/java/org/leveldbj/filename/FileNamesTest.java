package org.leveldbj.filename;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.util.Bytes;

class FileNamesTest {
    @Test
    void generatedNames() {
        assertEquals("000005.log", FileNames.logFileName(5));
        assertEquals("000123.ldb", FileNames.tableFileName(123));
        assertEquals("000123.sst", FileNames.sstTableFileName(123));
        assertEquals("1234567.ldb", FileNames.tableFileName(1234567));
        assertEquals("MANIFEST-000002", FileNames.descriptorFileName(2));
        assertEquals("000009.dbtmp", FileNames.tempFileName(9));
    }

    @Test
    void parsesEveryKind() {
        assertEquals(new FileNames.Parsed(FileType.CURRENT, 0), FileNames.parse("CURRENT"));
        assertEquals(new FileNames.Parsed(FileType.LOCK, 0), FileNames.parse("LOCK"));
        assertEquals(new FileNames.Parsed(FileType.INFO_LOG, 0), FileNames.parse("LOG"));
        assertEquals(new FileNames.Parsed(FileType.INFO_LOG, 0), FileNames.parse("LOG.old"));
        assertEquals(new FileNames.Parsed(FileType.DESCRIPTOR, 2), FileNames.parse("MANIFEST-000002"));
        assertEquals(new FileNames.Parsed(FileType.DESCRIPTOR, 7), FileNames.parse("MANIFEST-7"));
        assertEquals(new FileNames.Parsed(FileType.LOG, 100), FileNames.parse("100.log"));
        assertEquals(new FileNames.Parsed(FileType.TABLE, 123), FileNames.parse("000123.ldb"));
        assertEquals(new FileNames.Parsed(FileType.TABLE, 123), FileNames.parse("000123.sst"));
        assertEquals(new FileNames.Parsed(FileType.TEMP, 9), FileNames.parse("000009.dbtmp"));
        assertEquals(new FileNames.Parsed(FileType.LOG, Long.MAX_VALUE), FileNames.parse(Long.MAX_VALUE + ".log"));
    }

    @Test
    void rejectsForeignNames() {
        for (String name : new String[] {"", "foo", "foo-dx-100.log", ".log", "manifest", "CURRENT.", "CURRENTX",
            "MANIFEST", "MANIFEST-", "MANIFEST-3x", "XMANIFEST-3", "LOG.old.old", "100", "100.", "100.lop",
            "100.ldbx", "-1.log", "+1.log", "99999999999999999999.log", "18446744073709551616.log"}) {
            assertNull(FileNames.parse(name), name);
        }
    }

    @Test
    void setCurrentFileReplacesCurrentAndLeavesNoTemporaryFile() throws IOException {
        MemEnv env = new MemEnv();
        Path dir = Path.of("/db");
        env.createDir(dir);
        FileNames.setCurrentFile(env, dir, 2);
        FileNames.setCurrentFile(env, dir, 17);
        assertEquals(java.util.List.of("CURRENT"), env.getChildren(dir));
        try (var current = env.newRandomAccessFile(dir.resolve("CURRENT"))) {
            assertEquals("MANIFEST-000017\n",
                    new String(Bytes.toArray(current.read(0, 64)), StandardCharsets.US_ASCII));
        }
        assertEquals(16, env.syncedLength(dir.resolve("CURRENT")), "CURRENT is synced before it is used");
    }
}
