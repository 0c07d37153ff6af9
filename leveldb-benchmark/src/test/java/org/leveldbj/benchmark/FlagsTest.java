package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import org.iq80.leveldb.CompressionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FlagsTest {
    @Test
    void defaultsAreDbBenchDefaults() throws FlagException {
        Flags flags = Flags.parse();
        assertEquals(List.of("fillseq", "fillsync", "fillrandom", "overwrite", "readrandom",
                "readrandom", "readseq", "readreverse", "compact", "readrandom", "readseq",
                "readreverse", "fill100K"), flags.benchmarks);
        assertEquals(1_000_000, flags.num);
        assertEquals(-1, flags.reads);
        assertEquals(1_000_000, flags.effectiveReads());
        assertEquals(1, flags.threads);
        assertEquals(100, flags.valueSize);
        assertEquals(0.5, flags.compressionRatio);
        assertFalse(flags.histogram);
        assertFalse(flags.useExistingDb);
        assertEquals(4 << 20, flags.writeBufferSize);
        assertEquals(2 << 20, flags.maxFileSize);
        assertEquals(4096, flags.blockSize);
        assertEquals(-1, flags.cacheSize);
        assertEquals(1000, flags.openFiles);
        assertEquals(-1, flags.bloomBits);
        assertNull(flags.db);
        assertEquals(CompressionType.SNAPPY, flags.compression);
        assertEquals("leveldbj", flags.impl);
    }

    @Test
    void warmUpKeepsTheSettingsButNotTheDatabaseOrTheCounts() throws FlagException {
        Flags flags = Flags.parse("--num=50000", "--reads=70000", "--bloom_bits=10", "--compression=zstd",
                "--value_size=400", "--threads=2", "--histogram=1", "--use_existing_db=1", "--db=/data/db",
                "--benchmarks=readrandom,readseq");
        assertEquals(10_000, flags.effectiveWarmup());
        Flags warm = flags.forWarmup("/tmp/scratch");
        assertEquals(List.of("fillrandom", "readrandom", "readseq", "readseq", "readseq"), warm.benchmarks);
        assertEquals(10_000, warm.num);
        assertEquals(flags.writeBufferSize / 5, warm.writeBufferSize, "shrunk with the entries");
        assertEquals(Flags.MIN_WARMUP_WRITE_BUFFER,
                Flags.parse("--num=100000000").forWarmup("/tmp/scratch").writeBufferSize, "never below the floor");
        assertEquals(1 << 20, Flags.parse("--num=1000", "--warmup=1000", "--write_buffer_size=1048576")
                .forWarmup("/tmp/scratch").writeBufferSize, "kept when the warm-up is as large as the run");
        assertEquals(10_000, warm.reads);
        assertEquals(10, warm.bloomBits);
        assertEquals(CompressionType.ZSTD, warm.compression);
        assertEquals(400, warm.valueSize);
        assertEquals(2, warm.threads);
        assertFalse(warm.histogram);
        assertFalse(warm.useExistingDb);
        assertEquals("/tmp/scratch", warm.db);
        assertEquals(0, warm.effectiveWarmup());
        // The original is untouched.
        assertEquals("/data/db", flags.db);
        assertEquals(List.of("readrandom", "readseq"), flags.benchmarks);
        assertEquals(200_000, Flags.parse("--num=5000000").effectiveWarmup());
        // fill100K is repeated until the warm-up made as many writes as the measured run, scans
        // three times, other workloads run once.
        assertEquals(List.of("fillrandom", "readseq", "readseq", "readseq", "readrandom",
                        "fill100K", "fill100K", "fill100K", "fill100K", "fill100K",
                        "readreverse", "readreverse", "readreverse"),
                Flags.parse("--benchmarks=readseq,readrandom,fill100K,readreverse").forWarmup("/tmp/scratch").benchmarks);
        assertEquals(List.of("fillrandom", "fill100K", "fill100K"),
                Flags.parse("--num=1000", "--warmup=500", "--benchmarks=fill100K").forWarmup("/tmp/scratch").benchmarks);
        assertEquals(Flags.MAX_WARMUP_REPEATS, Collections.frequency(
                Flags.parse("--num=100000000", "--benchmarks=fill100K").forWarmup("/tmp/scratch").benchmarks, "fill100K"));
        assertEquals(0, Flags.parse("--warmup=0").effectiveWarmup());
    }

    @Test
    void everyFlagParses() throws FlagException, ImplUnavailableException {
        Flags flags = Flags.parse("--benchmarks=fillrandom,,readhot", "--num=500",
                "--reads=20", "--threads=3", "--value_size=400", "--compression_ratio=0.25",
                "--histogram=1", "--use_existing_db=1", "--write_buffer_size=1000",
                "--max_file_size=3000", "--block_size=1024", "--cache_size=0",
                "--open_files=50", "--bloom_bits=10", "--db=/tmp/x", "--compression=zstd",
                "--impl=rocksdb", "--verify_checksums=1", "--value_threshold=4096");
        assertEquals(List.of("fillrandom", "readhot"), flags.benchmarks);
        assertEquals(500, flags.num);
        assertEquals(20, flags.effectiveReads());
        assertEquals(3, flags.threads);
        assertEquals(400, flags.valueSize);
        assertEquals(0.25, flags.compressionRatio);
        assertTrue(flags.histogram);
        assertTrue(flags.useExistingDb);
        assertEquals(1000, flags.writeBufferSize);
        assertEquals(3000, flags.maxFileSize);
        assertEquals(1024, flags.blockSize);
        assertEquals(0, flags.cacheSize);
        assertEquals(50, flags.openFiles);
        assertEquals(10, flags.bloomBits);
        assertTrue(flags.verifyChecksums);
        assertEquals(4096, flags.valueThreshold);
        assertEquals(4096, DbOptions.of(flags, Impls.load("leveldbj")).options().valueThreshold());
        assertTrue(DbOptions.of(flags, Impls.load("leveldbj")).options().verifyChecksums());
        assertFalse(DbOptions.of(Flags.parse(), Impls.load("leveldbj")).options().verifyChecksums(),
                "C++ LevelDB's default: a read checks no checksum unless it asks");
        assertEquals("/tmp/x", flags.db);
        assertEquals(CompressionType.ZSTD, flags.compression);
        assertEquals("rocksdb", flags.impl);
        for (String impl : List.of("leveldbj", "iq80", "leveldbjni", "h2")) {
            assertEquals(impl, Flags.parse("--impl=" + impl).impl);
        }
    }

    @Test
    void laterFlagsWin() throws FlagException {
        assertEquals(7, Flags.parse("--num=5", "--num=7").num);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--nums=5", "--num", "num=5", "--num=five", "--num=-1",
        "--num=99999999999", "--histogram=2", "--use_existing_db=yes", "--threads=0",
        "--benchmarks=fillseq,nosuch", "--impl=lmdb", "--compression=lz4", "--bloom_bits=0",
        "--compression_ratio=0", "--compression_ratio=NaN", "--db="})
    void badFlagsAreRefused(String arg) {
        FlagException e = assertThrows(FlagException.class, () -> Flags.parse(arg));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void badFlagExitsWithTwoAndOneLine() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DbBench.run(new String[] {"--num=1", "--frobnicate=1"},
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                new Progress(new PrintStream(new ByteArrayOutputStream(), true,
                        StandardCharsets.UTF_8), false));
        assertEquals(2, code);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertEquals("Invalid flag '--frobnicate=1'" + System.lineSeparator(),
                err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void useExistingDbNeedsAPath() {
        assertEquals(2, DbBench.run(new String[] {"--use_existing_db=1"},
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new Progress(System.err, false)));
    }

    @Test
    void helpListsEveryFlag() {
        for (String flag : List.of("benchmarks", "num", "reads", "threads", "value_size",
                "compression_ratio", "histogram", "use_existing_db", "db", "write_buffer_size",
                "max_file_size", "block_size", "cache_size", "open_files", "bloom_bits", "verify_checksums", "value_threshold", "large_value_percent", "large_value_size",
                "compression", "impl")) {
            assertTrue(Usage.TEXT.contains("--" + flag + "="), flag);
        }
    }
}
