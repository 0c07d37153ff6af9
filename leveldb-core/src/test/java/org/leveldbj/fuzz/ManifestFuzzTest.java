package org.leveldbj.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.version.TableSource;
import org.leveldbj.version.VersionSet;

/**
 * Fuzzes what opening a database reads first: CURRENT, then the MANIFEST it names, replayed by
 * {@link VersionSet#recover()} (the log reader in strict mode, every {@link
 * org.leveldbj.version.VersionEdit}, and the checks of the version built from them). Recovery
 * documents {@link CorruptionException} naming CURRENT or the MANIFEST, {@link DBException} for
 * a MANIFEST of another comparator, and {@link IOException}; nothing else may escape. No table
 * is opened.
 *
 * <p>Input: byte 0 = n, the length of CURRENT; the next n bytes are CURRENT; the rest is the
 * MANIFEST, stored under the name CURRENT gives when that is a MANIFEST name (so that damage to
 * CURRENT is reported as such), else as {@code MANIFEST-000001}.
 */
@ExtendWith(FuzzEnvironment.class)
class ManifestFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void recover(byte[] input) throws IOException {
        int n = Math.min(FuzzFiles.u8(input, 0), Math.max(0, input.length - 1));
        int currentEnd = Math.min(input.length, 1 + n);
        MemEnv env = FuzzFiles.envWith(FileNames.CURRENT, input, Math.min(1, input.length), currentEnd);
        String named = new String(input, Math.min(1, input.length), currentEnd - Math.min(1, input.length),
                StandardCharsets.UTF_8).strip();
        FileNames.Parsed parsed = FileNames.parse(named);
        String manifest = parsed != null && parsed.type() == FileType.DESCRIPTOR ? named : "MANIFEST-000001";
        FuzzFiles.write(env, manifest, input, currentEnd, input.length);
        ReentrantLock mutex = new ReentrantLock();
        VersionSet versions = new VersionSet(env, FuzzFiles.DIR, new InternalKeyComparator(BytewiseComparator.INSTANCE),
                NO_TABLES, 2 << 20, mutex);
        mutex.lock();
        try {
            versions.recover();
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, e.file());
            String file = e.file();
            if (file == null || !(file.endsWith(FileNames.CURRENT) || file.endsWith(manifest))) {
                throw new AssertionError("the report names neither CURRENT nor the MANIFEST: " + e.getMessage(), e);
            }
        } catch (DBException e) {
            if (!String.valueOf(e.getMessage()).contains("does not match existing comparator")) {
                throw new AssertionError("undocumented failure: " + e, e);
            }
        } finally {
            mutex.unlock();
        }
    }

    /** Recovery reads no table: any use is a failure of the test. */
    private static final TableSource NO_TABLES = new TableSource() {
        @Override
        public SortedIterator iterator(long fileNumber, long fileSize, TableReadOptions readOptions) {
            throw new AssertionError("recovery opened table " + fileNumber);
        }

        @Override
        public boolean get(long fileNumber, long fileSize, ByteBuffer internalKey, TableReadOptions readOptions,
                           Table.EntryHandler handler) {
            throw new AssertionError("recovery read table " + fileNumber);
        }

        @Override
        public long approximateOffsetOf(long fileNumber, long fileSize, ByteBuffer internalKey) {
            throw new AssertionError("recovery read table " + fileNumber);
        }

        @Override
        public void evict(long fileNumber) {
        }
    };
}
