package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.iq80.leveldb.PrefixExtractor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * A table built with its data blocks compressed on other threads is byte for byte the table
 * built on one thread: for compressible and incompressible values (blocks stored compressed and
 * as they are), both compressions, block sizes small and large, tables of one block up to many
 * batches, with a whole-key filter and a prefix filter whose keys must land in their own block's
 * filter, and batches that finish compressing out of order. An executor that refuses a batch
 * fails the add that handed it over.
 */
@ExtendWith(SeedExtension.class)
class ParallelCompressionTest {
    private final ExecutorService pool = Executors.newFixedThreadPool(3);

    @AfterEach
    void stop() throws InterruptedException {
        pool.shutdownNow();
        pool.awaitTermination(10, TimeUnit.SECONDS);
    }

    private static List<byte[][]> entries(Random r, int count) {
        List<byte[][]> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] key = String.format("p%04d:%06d", i / 37, i).getBytes(StandardCharsets.US_ASCII);
            byte[] value = new byte[r.nextInt(400)];
            if (r.nextBoolean()) {
                r.nextBytes(value); // incompressible: stored as it is
            } else {
                Arrays.fill(value, (byte) ('a' + r.nextInt(3)));
            }
            out.add(new byte[][] {key, value});
        }
        return out;
    }

    private static byte[] build(List<byte[][]> entries, TableOptions options, Executor compressor) throws IOException {
        TestFiles.MemWritableFile file = new TestFiles.MemWritableFile();
        TableBuilder builder = new TableBuilder(options, file, compressor);
        for (byte[][] e : entries) {
            builder.add(ByteBuffer.wrap(e[0]), ByteBuffer.wrap(e[1]));
        }
        builder.finish();
        assertEquals(file.bytes().length, builder.fileSize());
        return file.bytes();
    }

    @Test
    void theTableIsTheOneBuiltOnOneThread(@Seed long seed) throws IOException {
        Random r = new Random(seed);
        // Three threads, each batch held up a random moment: batches finish out of order.
        Executor shuffling = task -> pool.execute(() -> {
            try {
                Thread.sleep(0, r.nextInt(500_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            task.run();
        });
        PrefixFilterOptions prefixes = new PrefixFilterOptions(PrefixExtractor.upToDelimiter(':'), new BloomFilterPolicy(10), 0);
        for (int compression : new int[] {BlockCompression.SNAPPY, BlockCompression.ZSTD}) {
            for (int blockSize : new int[] {256, 4096, 65536}) {
                for (int count : new int[] {1, 3, 5_000, 40_000}) {
                    TableOptions options = TableOptions.DEFAULTS.withBlockSize(blockSize).withCompressionType(compression)
                            .withFilter(new BloomFilterPolicy(10), FilterKeyExtractor.WHOLE_KEY).withPrefixFilter(prefixes);
                    List<byte[][]> entries = entries(r, count);
                    byte[] expected = build(entries, options, null);
                    assertArrayEquals(expected, build(entries, options, shuffling),
                            "compression " + compression + ", blocks of " + blockSize + ", " + count + " entries");
                }
            }
        }
    }

    @Test
    void anExecutorRefusingABatchFailsTheAdd() {
        TableOptions options = TableOptions.DEFAULTS.withBlockSize(256);
        Executor refusing = task -> {
            throw new java.util.concurrent.RejectedExecutionException("no compressor (test)");
        };
        java.util.concurrent.RejectedExecutionException e = assertThrows(java.util.concurrent.RejectedExecutionException.class,
                () -> build(entries(new Random(1), 5_000), options, refusing));
        assertEquals("no compressor (test)", e.getMessage());
    }
}
