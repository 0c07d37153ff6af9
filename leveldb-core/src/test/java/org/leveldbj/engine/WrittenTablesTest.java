package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.TableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.table.BlockCache;
import org.leveldbj.table.TableOptions;
import org.leveldbj.testing.ReverseBytewiseComparator;

/**
 * An ingestion check takes a file a table writer of this process finished by the CRC32C it was
 * written with, and finds in it exactly what a full decode finds; a file changed since, copied
 * elsewhere, or checked for another comparator is decoded in full.
 */
class WrittenTablesTest {
    @TempDir
    Path tmp;

    private static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static TableOptions tableOptions(Options options) {
        InternalKeyComparator icmp = new InternalKeyComparator(UserComparators.of(options.comparator()));
        return DbImpl.tableOptions(options, icmp, BlockCache.NONE);
    }

    /** 5,000 entries, the last a deletion, in blocks of 1 KiB. */
    private Path write(Path file, Options options) {
        try (TableWriter w = ExternalTableWriter.create(file, options)) {
            for (int i = 0; i < 5_000; i++) {
                w.put(key(i), ("value " + i).getBytes(StandardCharsets.US_ASCII));
            }
            w.delete(key(5_000));
            w.finish();
        }
        return file;
    }

    private static void assertSameContents(IngestedFile expected, IngestedFile actual) {
        assertEquals(expected.size(), actual.size());
        assertEquals(expected.entries(), actual.entries());
        assertArrayEquals(expected.smallest(), actual.smallest());
        assertArrayEquals(expected.largest(), actual.largest());
    }

    @Test
    void anUnchangedFileIsTakenByItsWritersChecksumAndDescribedAsAFullCheckWould() throws IOException {
        Options options = new Options().blockSize(1024);
        Path file = write(tmp.resolve("a.sst"), options);
        Path copy = Files.copy(file, tmp.resolve("copy.sst"));
        FileSystemEnv env = FileSystemEnv.getDefault();

        IngestedFile vouched = IngestedFile.check(env, file, tableOptions(options));
        IngestedFile decoded = IngestedFile.check(env, copy, tableOptions(options));

        assertTrue(vouched.byWriterChecksum());
        assertFalse(decoded.byWriterChecksum(), "a copy at another path is not known to the registry");
        assertEquals(5_001, decoded.entries());
        assertSameContents(decoded, vouched);
    }

    @Test
    void aFileChangedSinceItWasWrittenIsDecodedInFullAndRefused() throws IOException {
        Options options = new Options().blockSize(1024).verifyChecksums(true);
        Path file = write(tmp.resolve("b.sst"), options);
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 3] ^= 0x40; // inside a data block
        Files.write(file, bytes);

        CorruptionException e = assertThrows(CorruptionException.class,
                () -> IngestedFile.check(FileSystemEnv.getDefault(), file, tableOptions(options)));
        assertEquals(file.toString(), e.file());
    }

    @Test
    void aFileRewrittenWithAnotherWritersBytesIsDecodedInFull() throws IOException {
        Options options = new Options().blockSize(1024);
        Path file = write(tmp.resolve("c.sst"), options);
        Path other = write(tmp.resolve("other.sst"), new Options().blockSize(4096));
        Files.copy(other, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        IngestedFile checked = IngestedFile.check(FileSystemEnv.getDefault(), file, tableOptions(options));
        assertFalse(checked.byWriterChecksum());
        assertEquals(5_001, checked.entries());
    }

    @Test
    void aCheckForAnotherComparatorDecodesInFull() throws IOException {
        Path file = write(tmp.resolve("d.sst"), new Options().blockSize(1024));
        Options reversed = new Options().blockSize(1024).comparator(ReverseBytewiseComparator.INSTANCE);

        // Decoded in full, so the keys are found out of that comparator's order.
        CorruptionException e = assertThrows(CorruptionException.class,
                () -> IngestedFile.check(FileSystemEnv.getDefault(), file, tableOptions(reversed)));
        assertTrue(e.reason().contains("not after the previous one"), e.getMessage());
    }
}
