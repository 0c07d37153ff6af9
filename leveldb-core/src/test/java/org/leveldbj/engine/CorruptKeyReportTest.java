package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.filename.FileNames;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.log.LogWriter;
import org.leveldbj.table.TableBuilder;
import org.leveldbj.table.TableOptions;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;

/** An entry whose internal key is damaged is reported with the table file and block it is in. */
class CorruptKeyReportTest {
    @Test
    void aDatabaseIteratorNamesTheFileOfACorruptedKey() throws IOException {
        MemEnv env = new MemEnv();
        Path dir = Path.of("/db");
        env.createDir(dir);
        TableOptions options = TableOptions.DEFAULTS.withComparator(new InternalKeyComparator(BytewiseComparator.INSTANCE));
        byte[] first = InternalKeys.encode(bytes("a"), 1, ValueType.VALUE);
        byte[] bad = InternalKeys.encode(bytes("b"), 2, ValueType.VALUE);
        bad[bad.length - 8] = 7; // the type byte: no such type
        long size;
        try (Env.WritableFile out = env.newWritableFile(dir.resolve(FileNames.tableFileName(5)))) {
            TableBuilder table = new TableBuilder(options, out);
            table.add(first, bytes("1"));
            table.add(bad, bytes("2"));
            table.finish();
            out.sync();
            size = table.fileSize();
        }
        VersionEdit edit = new VersionEdit().setComparatorName(BytewiseComparator.NAME).setLogNumber(0)
                .setNextFileNumber(10).setLastSequence(2).addFile(1, new FileMetaData(5, size, first, bad));
        try (LogWriter manifest = new LogWriter(env.newWritableFile(dir.resolve(FileNames.descriptorFileName(6))))) {
            manifest.addRecord(edit.encode());
            manifest.sync();
        }
        FileNames.setCurrentFile(env, dir, 6);
        try (DB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env));
             DBIterator it = db.iterator()) {
            it.seekToFirst();
            assertArrayEquals(bytes("a"), it.peekNext().getKey());
            CorruptionException e = assertThrows(CorruptionException.class, it::next); // steps onto "b"
            assertEquals("/db/000005.ldb", e.file(), e.getMessage());
            assertEquals(0, e.offset(), e.getMessage());
            assertTrue(e.getMessage().contains("corrupted internal key"), e.getMessage());
        }
    }
}
