package org.leveldbj.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.engine.WriteBatchImpl;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.log.LogWriter;
import org.leveldbj.table.TableBuilder;
import org.leveldbj.table.TableOptions;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;

/** Small table, log and MANIFEST files written byte for byte the same on every run. */
final class DumpFiles {
    private DumpFiles() {
    }

    static final byte[] A = InternalKeys.encode(TestDb.utf8("a"), 3, ValueType.VALUE);
    static final byte[] B = InternalKeys.encode(TestDb.utf8("b"), 2, ValueType.DELETION);
    static final byte[] C = InternalKeys.encode(TestDb.utf8("c\t"), 1, ValueType.VALUE);

    /** Three entries, uncompressed, no filter. */
    static Path table(Path file) throws IOException {
        TableOptions options = TableOptions.DEFAULTS.withComparator(new InternalKeyComparator(BytewiseComparator.INSTANCE))
                .withCompressionType(0);
        try (var out = FileSystemEnv.getDefault().newWritableFile(file)) {
            TableBuilder builder = new TableBuilder(options, out);
            builder.add(A, TestDb.utf8("x"));
            builder.add(B, new byte[0]);
            builder.add(C, new byte[] {0, (byte) 0xff});
            builder.finish();
        }
        return file;
    }

    /** Two write batches: sequence 5 puts a=1 and deletes b; sequence 7 puts c=\x00. */
    static Path log(Path file) throws IOException {
        try (LogWriter log = new LogWriter(FileSystemEnv.getDefault().newWritableFile(file))) {
            WriteBatchImpl first = new WriteBatchImpl().put(TestDb.utf8("a"), TestDb.utf8("1")).delete(TestDb.utf8("b"));
            first.setSequence(5);
            log.addRecord(first.contents());
            WriteBatchImpl second = new WriteBatchImpl().put(TestDb.utf8("c"), new byte[] {0});
            second.setSequence(7);
            log.addRecord(second.contents());
        }
        return file;
    }

    /** A comparator edit, then an edit with every other field. */
    static Path manifest(Path file) throws IOException {
        try (LogWriter log = new LogWriter(FileSystemEnv.getDefault().newWritableFile(file))) {
            log.addRecord(new VersionEdit().setComparatorName("leveldb.BytewiseComparator").encode());
            log.addRecord(new VersionEdit().setLogNumber(3).setPrevLogNumber(0).setNextFileNumber(6).setLastSequence(7)
                    .setCompactPointer(1, B).deleteFile(1, 2).addFile(0, new FileMetaData(5, 123, A, C)).encode());
        }
        return file;
    }

    static Path current(Path file) throws IOException {
        return Files.writeString(file, "MANIFEST-000004\n");
    }
}
