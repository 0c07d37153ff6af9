package org.leveldbj.vlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Coding;
import org.leveldbj.util.Crc32c;

/**
 * The scan past damage, by byte surgery on a written file: each damaged record is one failure
 * naming its offset, the scan goes on at the next sound record, and no sound record is skipped,
 * not even when a damaged length announces an end that is another record's start.
 */
@ExtendWith(SeedExtension.class)
class ValueFileScannerTest {
    private static final long NUMBER = 5;

    @TempDir
    Path dir;

    private final Env env = FileSystemEnv.getDefault();

    /** What one pass of the scanner met: the records read, and each failure with its damage. */
    private record Scan(List<ValueReference> records, List<Damage> damage) {
    }

    private record Damage(long offset, String reason, long end, boolean torn) {
    }

    private Path path() {
        return dir.resolve(FileNames.valueFileName(NUMBER));
    }

    private List<ValueReference> write(List<byte[]> keys, List<byte[]> values) throws IOException {
        List<ValueReference> refs = new ArrayList<>();
        try (ValueFileWriter w = new ValueFileWriter(env.newWritableFile(path()), NUMBER)) {
            for (int i = 0; i < keys.size(); i++) {
                byte[] key = keys.get(i);
                byte[] value = values.get(i);
                refs.add(w.append(key, 0, key.length, value, 0, value.length));
            }
            w.sync();
        }
        return refs;
    }

    private List<ValueReference> writeRandom(Random random, int count) throws IOException {
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add(bytes(random, 1 + random.nextInt(30)));
            values.add(bytes(random, random.nextInt(6) == 0 ? 20_000 + random.nextInt(50_000) : random.nextInt(400)));
        }
        return write(keys, values);
    }

    private static byte[] bytes(Random random, int n) {
        byte[] b = new byte[n];
        random.nextBytes(b);
        return b;
    }

    private void flip(long offset, int mask) throws IOException {
        byte[] content = Files.readAllBytes(path());
        content[Math.toIntExact(offset)] ^= (byte) mask;
        Files.write(path(), content);
    }

    /**
     * Overwrites the bytes at {@code at} with the header of a sound record that ends at {@code
     * end}, its key one byte of what follows the header and its value the rest.
     */
    private void plantRecord(long at, long end) throws IOException {
        byte[] content = Files.readAllBytes(path());
        int start = Math.toIntExact(at);
        long size = end - at;
        int valueLength = -1;
        for (int n = 1; n <= Coding.MAX_VARINT32_LENGTH && valueLength < 0; n++) {
            int candidate = Math.toIntExact(size - ValueRecord.CRC_SIZE - 1 - n - 1); // key length, key byte
            valueLength = Coding.varintLength(candidate) == n ? candidate : -1;
        }
        assertEquals(size, ValueRecord.headerSize(1, valueLength) + 1 + valueLength);
        int p = Coding.putVarint32(content, start + ValueRecord.CRC_SIZE, 1);
        Coding.putVarint32(content, p, valueLength);
        CRC32C crc = new CRC32C();
        crc.update(content, start + ValueRecord.CRC_SIZE, Math.toIntExact(end - at) - ValueRecord.CRC_SIZE);
        Coding.putFixed32(content, start, Crc32c.mask((int) crc.getValue()));
        Files.write(path(), content);
    }

    private Scan scan() throws IOException {
        List<ValueReference> records = new ArrayList<>();
        List<Damage> damage = new ArrayList<>();
        try (ValueFileScanner scan = new ValueFileScanner(env.newRandomAccessFile(path()), path().toString())) {
            while (true) {
                try {
                    if (!scan.next()) {
                        break;
                    }
                    records.add(scan.reference(NUMBER));
                } catch (CorruptionException e) {
                    assertEquals(path().toString(), e.file());
                    assertEquals(scan.offset(), e.offset());
                    damage.add(new Damage(e.offset(), e.reason(), scan.damageEnd(), scan.torn()));
                }
            }
            assertThrows(IllegalStateException.class, scan::damageEnd, "the last call did not fail");
        }
        return new Scan(records, damage);
    }

    private static List<ValueReference> without(List<ValueReference> refs, int... victims) {
        List<ValueReference> rest = new ArrayList<>(refs);
        for (int i = victims.length - 1; i >= 0; i--) {
            rest.remove(victims[i]);
        }
        return rest;
    }

    @Test
    void aFlippedPayloadByteIsOneFailureAndTheScanGoesOnAtTheNextRecord(@Seed Random random) throws IOException {
        List<ValueReference> refs = writeRandom(random, 40);
        int victim = random.nextInt(refs.size() - 1);
        ValueReference v = refs.get(victim);
        // A byte of the value, or the key's last byte (keys are not empty).
        flip(v.end() - 1 - random.nextInt(v.valueLength() + 1), 1 << random.nextInt(8));
        Scan scan = scan();
        assertEquals(List.of(new Damage(v.offset(), "value record checksum mismatch", v.end(), false)), scan.damage());
        assertEquals(without(refs, victim), scan.records());
    }

    @Test
    void aFlippedHeaderByteIsOneFailureAndTheScanGoesOnAtTheNextRecord(@Seed Random random) throws IOException {
        List<ValueReference> refs = writeRandom(random, 40);
        int victim = random.nextInt(refs.size() - 1);
        ValueReference v = refs.get(victim);
        // A byte of the checksum or of the key length (one byte: keys are shorter than 128).
        flip(v.offset() + random.nextInt(ValueRecord.CRC_SIZE + 1), 1 << random.nextInt(8));
        Scan scan = scan();
        assertEquals(1, scan.damage().size(), scan.damage().toString());
        Damage d = scan.damage().get(0);
        assertEquals(v.offset(), d.offset());
        assertEquals(v.end(), d.end());
        assertFalse(d.torn());
        assertEquals(without(refs, victim), scan.records());
    }

    @Test
    void aDamagedLengthThatAnnouncesALaterRecordsStartSkipsNoSoundRecord() throws IOException {
        // Ten records of 256 bytes: 4 checksum, 1 key length, 2 value length (248), 1 key, 248
        // value. Setting bit 9 of the victim's value length (its second varint byte, 0x01 to
        // 0x05) announces 760 bytes: the record would end where the victim's third successor
        // starts, a sound record.
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            keys.add(new byte[] {(byte) i});
            values.add(new byte[248]);
        }
        List<ValueReference> refs = write(keys, values);
        for (ValueReference ref : refs) {
            assertEquals(256, ref.recordSize());
        }
        ValueReference v = refs.get(3);
        flip(v.offset() + 6, 0x04);
        Scan scan = scan();
        assertEquals(List.of(new Damage(v.offset(), "value record checksum mismatch", v.end(), false)), scan.damage());
        assertEquals(without(refs, 3), scan.records(), "records 4 and 5 are read");
    }

    @Test
    void aLengthDamagedPastTheEndInTheMiddleIsNotATornTail() throws IOException {
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            keys.add(new byte[] {(byte) i});
            values.add(new byte[248]);
        }
        List<ValueReference> refs = write(keys, values);
        ValueReference v = refs.get(1);
        flip(v.offset() + 6, 0x40); // 248 + (64 << 7): past the end of the file
        Scan scan = scan();
        assertEquals(1, scan.damage().size(), scan.damage().toString());
        Damage d = scan.damage().get(0);
        assertEquals(new Damage(v.offset(), d.reason(), v.end(), false), d);
        assertEquals("truncated value record: 8448 bytes, " + (Files.size(path()) - v.offset()) + " left in the file",
                d.reason());
        assertEquals(without(refs, 1), scan.records());
    }

    @Test
    void everyDamagedStretchIsOneFailureAndAdjacentDamagedRecordsAreOneStretch(@Seed Random random)
            throws IOException {
        List<ValueReference> refs = writeRandom(random, 60);
        int[] victims = {7, 8, 30, 58};
        for (int victim : victims) {
            ValueReference v = refs.get(victim);
            flip(v.end() - 1, 0x10);
        }
        Scan scan = scan();
        // Nothing sound separates records 7 and 8: their damage is one stretch.
        List<Damage> expected = List.of(
                new Damage(refs.get(7).offset(), "value record checksum mismatch", refs.get(8).end(), false),
                new Damage(refs.get(30).offset(), "value record checksum mismatch", refs.get(30).end(), false),
                new Damage(refs.get(58).offset(), "value record checksum mismatch", refs.get(58).end(), false));
        assertEquals(expected, scan.damage());
        assertEquals(without(refs, victims), scan.records());
    }

    @Test
    void aDamagedLastRecordEndsTheFileWithoutBeingATornTail(@Seed Random random) throws IOException {
        List<ValueReference> refs = writeRandom(random, 10);
        ValueReference last = refs.get(9);
        flip(last.end() - 1, 0x01);
        Scan scan = scan();
        assertEquals(List.of(new Damage(last.offset(), "value record checksum mismatch", last.end(), false)),
                scan.damage());
        assertEquals(without(refs, 9), scan.records());
    }

    @Test
    void aCutShortLastRecordIsATornTail(@Seed Random random) throws IOException {
        List<ValueReference> refs = writeRandom(random, 10);
        ValueReference last = refs.get(9);
        long cut = last.offset() + 1 + random.nextInt(last.recordSize() - 1);
        try (FileChannel ch = FileChannel.open(path(), StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        Scan scan = scan();
        assertEquals(1, scan.damage().size(), scan.damage().toString());
        Damage d = scan.damage().get(0);
        assertEquals(new Damage(last.offset(), d.reason(), cut, true), d);
        assertEquals(without(refs, 9), scan.records());
    }

    @Test
    void theScanFindsARecordAfterALargeDamagedOneQuickly(@Seed Random random) throws IOException {
        // A 4 MiB value whose value length is damaged: each of its offsets is tried, with a
        // checksum found from prefix checksums rather than by reading what its header announces.
        List<byte[]> keys = List.of(new byte[] {1}, new byte[] {2}, new byte[] {3});
        List<byte[]> values = List.of(bytes(random, 100), bytes(random, 4 << 20), bytes(random, 100));
        List<ValueReference> refs = write(keys, values);
        ValueReference damaged = refs.get(1);
        // Sometimes a sound record made inside the damaged value: one that ends within it, or
        // one that runs to the end of the file over the next record.
        switch (random.nextInt(3)) {
            case 0 -> plantRecord(damaged.offset() + 1_000 + random.nextInt(1 << 20), damaged.end() - 10);
            case 1 -> plantRecord(damaged.offset() + 1_000 + random.nextInt(1 << 20), Files.size(path()));
            default -> { }
        }
        flip(damaged.offset() + 6, 0x01);
        long start = System.nanoTime();
        Scan scan = scan();
        long seconds = (System.nanoTime() - start) / 1_000_000_000;
        // Millions of offsets are tried against a 32-bit checksum, so random bytes inside the
        // damaged record form a sound record about once in a thousand runs, which the contract
        // reads as a record (and which may cover the next record). So the check is the contract:
        // records and damage tile the file, every record read is sound, every sound record
        // written is read unless a record read covers its start, and the damage starts at the
        // damaged record.
        assertEquals(damaged.offset(), scan.damage().get(0).offset(), scan.damage().toString());
        byte[] content = Files.readAllBytes(path());
        List<long[]> tiles = new ArrayList<>();
        for (ValueReference r : scan.records()) {
            ValueRecord.parse(ByteBuffer.wrap(content, Math.toIntExact(r.offset()), r.recordSize()).slice(),
                    path().toString(), r.offset());
            tiles.add(new long[] {r.offset(), r.end()});
        }
        scan.damage().forEach(d -> tiles.add(new long[] {d.offset(), d.end()}));
        tiles.sort((x, y) -> Long.compare(x[0], y[0]));
        long at = ValueFileWriter.HEADER_SIZE;
        for (long[] tile : tiles) {
            assertEquals(at, tile[0], scan.toString());
            at = tile[1];
        }
        assertEquals(content.length, at, scan.toString());
        for (ValueReference written : without(refs, 1)) {
            boolean covered = scan.records().stream()
                    .anyMatch(r -> r.offset() < written.offset() && written.offset() < r.end());
            assertTrue(covered || scan.records().contains(written), written + " not read: " + scan);
        }
        // About a second here; reading every announced record would take hours.
        assertTrue(seconds < 60, seconds + " s");
    }

    @Test
    void theSearchDecodesHeadersAsReadingDoes(@Seed Random random) {
        for (int i = 0; i < 100_000; i++) {
            byte[] data = bytes(random, random.nextInt(ValueRecord.MAX_HEADER_SIZE + 3));
            if (data.length > ValueRecord.CRC_SIZE && random.nextBoolean()) {
                data[ValueRecord.CRC_SIZE] &= 0x7f; // more short lengths than random bytes give
            }
            int start = data.length == 0 ? 0 : random.nextInt(Math.min(3, data.length));
            ByteBuffer buffer = ByteBuffer.wrap(data).position(start);
            long announced = ValueRecord.announcedSize(buffer, start, data.length);
            try {
                ValueRecord.Parsed header = ValueRecord.header(buffer, "f", 0);
                assertEquals(header.end() - start, announced, java.util.Arrays.toString(data));
            } catch (CorruptionException e) {
                assertEquals(-1, announced, java.util.Arrays.toString(data));
            }
        }
    }

    @Test
    void prefixChecksumsGiveTheChecksumOfEveryRange(@Seed Random random) {
        byte[] data = bytes(random, 3 * PrefixChecksums.STEP + 17);
        PrefixChecksums sums = new PrefixChecksums(
                (at, length) -> ByteBuffer.wrap(data, (int) at, (int) Math.min(length, data.length - at)).slice(),
                data.length);
        for (int i = 0; i < 500; i++) {
            int from = random.nextInt(data.length + 1);
            int to = from + random.nextInt(data.length - from + 1);
            assertEquals(org.leveldbj.util.Crc32c.value(data, from, to - from), sums.of(from, to), from + ".." + to);
        }
        assertEquals(org.leveldbj.util.Crc32c.value(data, 0, data.length), sums.of(0, data.length));
        assertEquals(0, sums.of(PrefixChecksums.STEP, PrefixChecksums.STEP));
    }
}
