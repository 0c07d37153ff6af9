package org.leveldbj.version;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.InvalidDatabaseArgumentException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.ReverseBytewiseComparator;

class VersionSetTest {
    static final InternalKeyComparator ICMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);
    private final MemEnv env = new MemEnv();
    private final Path dir = Path.of("/db");
    private final ReentrantLock mutex = new ReentrantLock();

    /** A table source for version tests that never read tables. */
    static final TableSource NO_TABLES = new TableSource() {
        @Override
        public SortedIterator iterator(long fileNumber, long fileSize, TableReadOptions readOptions) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean get(long fileNumber, long fileSize, ByteBuffer internalKey, TableReadOptions readOptions,
                           Table.EntryHandler handler) {
            throw new UnsupportedOperationException();
        }

        @Override
        public long approximateOffsetOf(long fileNumber, long fileSize, ByteBuffer internalKey) {
            return fileSize / 2;
        }

        @Override
        public void evict(long fileNumber) {
        }
    };

    /** The tests act as the database, which calls every VersionSet method with its lock held. */
    @BeforeEach
    void holdTheDatabaseLock() {
        mutex.lock();
    }

    @AfterEach
    void releaseTheDatabaseLock() {
        while (mutex.isHeldByCurrentThread()) {
            mutex.unlock();
        }
    }

    static byte[] ikey(String user, long seq) {
        return InternalKeys.encode(user.getBytes(StandardCharsets.US_ASCII), seq, ValueType.VALUE);
    }

    static FileMetaData file(long number, String smallest, String largest) {
        return new FileMetaData(number, 1000, ikey(smallest, 100), ikey(largest, 100));
    }

    private VersionSet open(InternalKeyComparator icmp) throws IOException {
        VersionSet vs = new VersionSet(env, dir, icmp, NO_TABLES, 2 << 20, mutex);
        mutex.lock();
        try {
            vs.recover();
        } finally {
            mutex.unlock();
        }
        return vs;
    }

    private void apply(VersionSet vs, VersionEdit edit) throws IOException {
        mutex.lock();
        try {
            vs.logAndApply(edit);
        } finally {
            mutex.unlock();
        }
    }

    private VersionSet create() throws IOException {
        env.createDir(dir);
        VersionSet.createNewDatabase(env, dir, BytewiseComparator.NAME);
        return open(ICMP);
    }

    @Test
    void closeDropsItsReferenceOnTheCurrentVersion() throws IOException {
        VersionSet vs = create();
        Version v = vs.current();
        v.ref(); // as a reader would
        vs.close();
        assertNull(vs.current());
        v.unref(); // the reader's: the last one
        IllegalStateException e = assertThrows(IllegalStateException.class, v::unref);
        assertEquals("version released too often", e.getMessage());
    }

    @Test
    void editsSurviveReopen() throws IOException {
        VersionSet vs = create();
        mutex.lock();
        long n1;
        long n2;
        try {
            n1 = vs.newFileNumber();
            n2 = vs.newFileNumber();
            vs.setLastSequence(42);
        } finally {
            mutex.unlock();
        }
        apply(vs, new VersionEdit().addFile(0, file(n1, "a", "c")).addFile(1, file(n2, "d", "f"))
                .setLastSequence(42));
        apply(vs, new VersionEdit().deleteFile(0, n1).addFile(2, file(n1, "a", "c")).setCompactPointer(1,
                ikey("e", 1)));
        long next = vs.nextFileNumber();
        vs.close();

        VersionSet again = open(ICMP);
        Version v = again.current();
        assertEquals(0, v.numFiles(0));
        assertEquals(List.of(file(n2, "d", "f")), v.files(1));
        assertEquals(List.of(file(n1, "a", "c")), v.files(2));
        assertEquals(42, again.lastSequence());
        assertTrue(again.nextFileNumber() > next, "a new MANIFEST number is reserved");
        assertEquals(0, ICMP.compare(ikey("e", 1), again.compactPointer(1)));
        Set<Long> live = new HashSet<>();
        again.addLiveFiles(live);
        assertEquals(Set.of(n1, n2), live);
        // Opening again writes a new MANIFEST holding a snapshot, and CURRENT names it.
        apply(again, new VersionEdit());
        long manifest = again.manifestFileNumber();
        again.close();
        VersionSet third = open(ICMP);
        assertEquals(List.of(file(n1, "a", "c")), third.current().files(2));
        assertNotEquals(manifest, third.manifestFileNumber());
        third.close();
    }

    @Test
    void manifestRollsOverPastItsSizeLimit() throws IOException {
        VersionSet vs = create();
        vs.setManifestSizeLimit(200);
        apply(vs, new VersionEdit());
        long first = vs.manifestFileNumber();
        for (int i = 0; i < 20; i++) {
            long n;
            mutex.lock();
            try {
                n = vs.newFileNumber();
            } finally {
                mutex.unlock();
            }
            apply(vs, new VersionEdit().addFile(1, file(n, String.format("k%03d", i), String.format("k%03dz", i))));
        }
        assertNotEquals(first, vs.manifestFileNumber());
        vs.close();
        VersionSet again = open(ICMP);
        assertEquals(20, again.current().numFiles(1));
        again.close();
    }

    @Test
    void corruptManifestFailsNamingIt() throws IOException {
        VersionSet vs = create();
        apply(vs, new VersionEdit().addFile(1, file(7, "a", "b")));
        long manifest = vs.manifestFileNumber();
        vs.close();
        Path path = dir.resolve(FileNames.descriptorFileName(manifest));
        byte[] bytes = readAll(path);
        bytes[bytes.length - 3] ^= 0x40;
        try (Env.WritableFile out = env.newWritableFile(path)) {
            out.append(ByteBuffer.wrap(bytes));
        }
        CorruptionException e = assertThrows(CorruptionException.class, () -> open(ICMP));
        assertTrue(e.getMessage().contains("MANIFEST-"), e.getMessage());
        assertTrue(e.getMessage().contains("checksum mismatch"), e.getMessage());
    }

    @Test
    void currentWithoutNewlineIsCorruption() throws IOException {
        create().close();
        try (Env.WritableFile out = env.newWritableFile(dir.resolve("CURRENT"))) {
            out.append(ByteBuffer.wrap("MANIFEST-000001".getBytes(StandardCharsets.US_ASCII)));
        }
        CorruptionException e = assertThrows(CorruptionException.class, () -> open(ICMP));
        assertTrue(e.getMessage().contains("CURRENT file does not end with newline"), e.getMessage());
    }

    @Test
    void otherComparatorIsRejected() throws IOException {
        create().close();
        InvalidDatabaseArgumentException e = assertThrows(InvalidDatabaseArgumentException.class,
                () -> open(new InternalKeyComparator(UserComparators.of(ReverseBytewiseComparator.INSTANCE))));
        assertEquals("Invalid argument: leveldb.BytewiseComparator does not match existing comparator : leveldbj.ReverseBytewiseComparator",
                e.getMessage());
    }

    @Test
    void overlappingFilesInDeepLevelAreRejected() throws IOException {
        VersionSet vs = create();
        apply(vs, new VersionEdit().addFile(1, file(5, "a", "m")));
        mutex.lock();
        try {
            assertThrows(CorruptionException.class, () -> vs.logAndApply(new VersionEdit().addFile(1, file(6, "k", "z"))));
        } finally {
            mutex.unlock();
        }
        assertEquals(1, vs.current().numFiles(1));
    }

    @Test
    void compactionScores() throws IOException {
        VersionSet vs = create();
        VersionEdit edit = new VersionEdit();
        for (int i = 0; i < 4; i++) {
            edit.addFile(0, file(10 + i, "a", "z"));
        }
        apply(vs, edit);
        assertEquals(1.0, vs.current().compactionScore());
        assertEquals(0, vs.current().compactionLevel());
        assertTrue(vs.needsCompaction());
        assertEquals("files[ 4 0 0 0 0 0 0 ]", vs.levelSummary());
        assertEquals(10.0 * 1048576, VersionSet.maxBytesForLevel(1));
        assertEquals(1000.0 * 1048576, VersionSet.maxBytesForLevel(3));
    }

    @Test
    void missingManifestFieldsAreCorruption() throws IOException {
        env.createDir(dir);
        try (org.leveldbj.log.LogWriter w = new org.leveldbj.log.LogWriter(
                env.newWritableFile(dir.resolve(FileNames.descriptorFileName(1))))) {
            w.addRecord(new VersionEdit().setComparatorName(BytewiseComparator.NAME).setLogNumber(0).encode());
        }
        FileNames.setCurrentFile(env, dir, 1);
        CorruptionException e = assertThrows(CorruptionException.class, () -> open(ICMP));
        assertTrue(e.getMessage().contains("no meta-nextfile entry in descriptor"), e.getMessage());
        assertFalse(e.getMessage().isEmpty());
    }

    private byte[] readAll(Path path) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate((int) env.getFileSize(path));
        try (Env.SequentialFile in = env.newSequentialFile(path)) {
            while (buf.hasRemaining() && in.read(buf) > 0) {
                // keep reading
            }
        }
        return buf.array();
    }
}
