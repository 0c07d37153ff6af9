package org.leveldbj.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.PrefixExtractor;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.cache.ClockBlockCache;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.table.BloomFilterPolicy;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.table.EntrySample;
import org.leveldbj.table.FilterKeyExtractor;
import org.leveldbj.table.PrefixFilterOptions;
import org.leveldbj.table.PrefixScan;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.testing.MemEnv;

/**
 * Fuzzes {@link Table} on a damaged table file: open (footer, index block, metaindex and filter
 * blocks), the stats block's counts and a sampled data block's, a full forward scan, a full backward scan, and point lookups of the keys seen and of
 * a few others. The table documents that malformed bytes raise {@link CorruptionException}
 * naming the file and an offset, and nothing else; the in-memory file never fails to read, so
 * nothing else may escape. When both scans complete they must visit the same entries in
 * opposite orders, as a scan is positional whatever the keys are.
 *
 * <p>Input: byte 0 = flags: bit 0 verify checksums on reads, bit 1 paranoid checks (every read
 * verifies), bit 2 the database's order (internal keys over bytewise user keys, filter on user
 * keys) instead of plain bytewise keys, bit 3 read the bloom filter, bit 4 a block cache, bit 5
 * read the prefix filter of a one-byte fixed-length extractor and scan the prefixes of the
 * first keys with it (a damaged filter may make such a scan miss entries, as it makes a lookup
 * miss with a damaged whole-key filter: only the errors are checked); the rest is the table
 * file.
 */
@ExtendWith(FuzzEnvironment.class)
class TableFuzzTest {
    static final int HEADER = 1;
    static final String NAME = "/db/000005.ldb";
    /** Entries kept from a scan to compare and look up: bounds the memory a scan takes. */
    private static final int KEPT = 256;

    @FuzzTest(maxDuration = "30s")
    void read(byte[] input) throws IOException {
        int flags = FuzzFiles.u8(input, 0);
        int from = Math.min(HEADER, input.length);
        MemEnv env = FuzzFiles.envWith("000005.ldb", input, from, input.length);
        boolean internal = (flags & 4) != 0;
        TableOptions options = TableOptions.DEFAULTS
                .withComparator(internal ? new InternalKeyComparator(BytewiseComparator.INSTANCE) : BytewiseComparator.INSTANCE)
                .withVerifyChecksums((flags & 2) != 0)
                .withBlockCache((flags & 16) != 0 ? new ClockBlockCache(64 << 10) : org.leveldbj.table.BlockCache.NONE);
        if ((flags & 8) != 0) {
            options = options.withFilter(new BloomFilterPolicy(10), internal
                    ? FilterKeyExtractor.dropSuffix(InternalKeys.TRAILER_SIZE) : FilterKeyExtractor.WHOLE_KEY);
        }
        if (internal) {
            // As the database tells deletions apart, for the sampled block's counts.
            options = options.withEntryClassifier(key -> key.remaining() >= InternalKeys.TRAILER_SIZE
                    && key.get(key.limit() - InternalKeys.TRAILER_SIZE) == 0);
        }
        boolean prefixes = (flags & 32) != 0;
        if (prefixes) {
            options = options.withPrefixFilter(new PrefixFilterOptions(PrefixExtractor.fixedLength(1),
                    new BloomFilterPolicy(10), internal ? InternalKeys.TRAILER_SIZE : 0));
        }
        TableReadOptions reads = new TableReadOptions((flags & 1) != 0, true);
        long size = input.length - from;
        try (Env.RandomAccessFile file = env.newRandomAccessFile(FuzzFiles.DIR.resolve("000005.ldb"))) {
            Table table;
            try {
                table = Table.open(NAME, file, size, options);
            } catch (CorruptionException e) {
                FuzzFiles.checkReport(e, NAME);
                return;
            }
            if (table.filterError() != null) {
                FuzzFiles.checkReport(table.filterError(), NAME);
            }
            if (table.prefixFilterError() != null) {
                FuzzFiles.checkReport(table.prefixFilterError(), NAME);
            }
            // The stats block never throws: counts, or none and the damage reported.
            EntryCounts counts = table.entryCounts();
            assertTrue(counts == null || counts.deletions() <= counts.entries(), "counts " + counts);
            if (table.entryCountsError() != null) {
                FuzzFiles.checkReport(table.entryCountsError(), NAME);
            }
            try {
                EntrySample sample = table.sampleEntries();
                assertTrue(sample == null || sample.bytes() > 0, "sample " + sample);
            } catch (CorruptionException e) {
                FuzzFiles.checkReport(e, NAME);
            }
            List<byte[]> forward = new ArrayList<>();
            List<byte[]> backward = new ArrayList<>();
            boolean forwardDone = scan(table, reads, true, forward);
            boolean backwardDone = scan(table, reads, false, backward);
            if (forwardDone && backwardDone && forward.size() < KEPT && backward.size() < KEPT) {
                assertEquals(forward.size(), backward.size(), "forward and backward scans differ in length");
                for (int i = 0; i < forward.size(); i++) {
                    assertArrayEquals(forward.get(i), backward.get(backward.size() - 1 - i),
                            "forward and backward scans differ at entry " + i);
                }
            }
            if (prefixes) {
                for (int i = 0; i < Math.min(8, forward.size()); i++) {
                    byte[] key = forward.get(i);
                    if (key.length > (internal ? InternalKeys.TRAILER_SIZE : 0)) {
                        prefixScan(table, reads, new byte[] {key[0]}, internal);
                    }
                }
                prefixScan(table, reads, new byte[] {'k'}, internal);
            }
            List<byte[]> probes = new ArrayList<>(forward);
            probes.add(new byte[0]);
            probes.add(new byte[] {'k', 0, 0, 0, 0, 0, 0, 0, 0});
            probes.add(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff,
                (byte) 0xff, (byte) 0xff, (byte) 0xff});
            for (byte[] key : probes) {
                if (internal && key.length < InternalKeys.TRAILER_SIZE) {
                    continue; // the database never looks up a key without a trailer
                }
                try {
                    table.get(ByteBuffer.wrap(key), reads, (k, v) -> assertTrue(k.remaining() >= 0));
                    long at = table.approximateOffsetOf(ByteBuffer.wrap(key));
                    assertTrue(at >= 0, "negative approximate offset " + at);
                } catch (CorruptionException e) {
                    FuzzFiles.checkReport(e, NAME);
                }
            }
        }
    }

    /** Scans the keys of a one-byte prefix with the prefix filter; only errors are checked. */
    private static void prefixScan(Table table, TableReadOptions reads, byte[] prefix, boolean internal) {
        byte[] upper = org.leveldbj.util.Bytes.prefixSuccessor(prefix);
        if (upper == null) {
            return;
        }
        PrefixScan scan = new PrefixScan("leveldbj.FixedPrefix.1", prefix, prefix, upper);
        byte[] target = internal ? java.util.Arrays.copyOf(prefix, prefix.length + InternalKeys.TRAILER_SIZE) : prefix;
        int n = 0;
        try (SortedIterator it = table.iterator(reads.withPrefixScan(scan))) {
            for (it.seek(ByteBuffer.wrap(target)); it.valid() && n < KEPT; it.next()) {
                it.value();
                n++;
            }
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, NAME);
        }
    }

    /**
     * Scans the whole table one way, keeping the first {@link #KEPT} keys.
     *
     * @return whether the scan reached the end without a corruption report
     */
    private static boolean scan(Table table, TableReadOptions reads, boolean forward, List<byte[]> keys) {
        try (SortedIterator it = table.iterator(reads)) {
            if (forward) {
                it.seekToFirst();
            } else {
                it.seekToLast();
            }
            while (it.valid()) {
                if (keys.size() < KEPT) {
                    keys.add(FuzzFiles.copy(it.key()));
                }
                it.value();
                if (forward) {
                    it.next();
                } else {
                    it.prev();
                }
            }
            return true;
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, NAME);
            return false;
        }
    }
}
