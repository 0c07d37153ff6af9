package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.iq80.leveldb.CompressionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/**
 * The drawing of each round's options: the same seed draws the same options, a flag given pins
 * its dimension without changing what the others draw, every choice of every dimension is
 * drawn, and a failing round's command line runs its options again.
 */
@ExtendWith(SeedExtension.class)
class OptionSpaceTest {
    private static final int DRAWS = 3000;

    @Test
    void theSameSeedDrawsTheSameOptions(@Seed long seed) {
        Config run = Config.parse();
        SplittableRandom seeds = new SplittableRandom(seed);
        Set<List<String>> distinct = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            long roundSeed = seeds.nextLong();
            List<String> once = OptionSpace.draw(run, roundSeed).roundFlags();
            assertEquals(once, OptionSpace.draw(run, roundSeed).roundFlags());
            distinct.add(once);
        }
        assertTrue(distinct.size() > 10, "20 rounds drew only " + distinct.size() + " option sets");
    }

    @Test
    void aGivenFlagPinsItsDimensionAndLeavesTheOthersAlone(@Seed long seed) {
        Config free = Config.parse();
        Config pinned = Config.parse("--value-threshold=1024", "--max-file-size=300", "--compression=zstd",
                "--disable-wal-percent=7", "--paranoid-checks=true", "--value-size=30-40");
        SplittableRandom seeds = new SplittableRandom(seed);
        for (int i = 0; i < 200; i++) {
            long roundSeed = seeds.nextLong();
            Config c = OptionSpace.draw(pinned, roundSeed);
            assertEquals(1024, c.valueThreshold);
            assertEquals(300, c.maxFileSize);
            assertEquals(CompressionType.ZSTD, c.compression);
            assertEquals(7, c.disableWalPercent);
            assertTrue(c.paranoidChecks);
            assertEquals(30, c.valueMin);
            assertEquals(40, c.valueMax);
            Config d = OptionSpace.draw(free, roundSeed);
            assertEquals(d.writeBufferSize, c.writeBufferSize);
            assertEquals(d.blockSize, c.blockSize);
            assertEquals(d.blockRestartInterval, c.blockRestartInterval);
            assertEquals(d.bloomBits, c.bloomBits);
            assertEquals(d.valueGarbageRatio, c.valueGarbageRatio);
            assertEquals(d.syncPercent, c.syncPercent);
            assertEquals(d.compactionFilter, c.compactionFilter);
            assertEquals(true, OptionSpace.draw(Config.parse("--compaction-filter=true"), roundSeed).compactionFilter);
            assertEquals(d.prefixExtractor, c.prefixExtractor);
            assertEquals(PrefixChoice.FIXED,
                    OptionSpace.draw(Config.parse("--prefix-extractor=fixed"), roundSeed).prefixExtractor);
        }
    }

    @Test
    void everyChoiceOfEveryDimensionIsDrawn(@Seed long seed) {
        Config run = Config.parse();
        SplittableRandom seeds = new SplittableRandom(seed);
        Set<Integer> thresholds = new HashSet<>();
        Set<Long> fileSizes = new HashSet<>();
        Set<Integer> writeBuffers = new HashSet<>();
        Set<Integer> blockSizes = new HashSet<>();
        Set<Integer> restarts = new HashSet<>();
        Set<CompressionType> compressions = new HashSet<>();
        Set<Integer> bloomBits = new HashSet<>();
        Set<Double> garbageRatios = new HashSet<>();
        Set<Boolean> paranoid = new HashSet<>();
        Set<Double> syncPercents = new HashSet<>();
        Set<Double> disableWalPercents = new HashSet<>();
        Set<Boolean> compactionFilters = new HashSet<>();
        Set<PrefixChoice> prefixExtractors = new HashSet<>();
        Set<Integer> straddled = new HashSet<>();
        int smallFilesStraddling1K = 0;
        for (int i = 0; i < DRAWS; i++) {
            Config c = OptionSpace.draw(run, seeds.nextLong());
            thresholds.add(c.valueThreshold);
            fileSizes.add(c.maxFileSize);
            writeBuffers.add(c.writeBufferSize);
            blockSizes.add(c.blockSize);
            restarts.add(c.blockRestartInterval);
            compressions.add(c.compression);
            bloomBits.add(c.bloomBits);
            garbageRatios.add(c.valueGarbageRatio);
            paranoid.add(c.paranoidChecks);
            syncPercents.add(c.syncPercent);
            disableWalPercents.add(c.disableWalPercent);
            compactionFilters.add(c.compactionFilter);
            prefixExtractors.add(c.prefixExtractor);
            boolean straddles = c.valueThreshold > 0 && c.valueMax < c.valueThreshold
                    && c.largeValueSize >= c.valueThreshold && c.largeValuePercent >= 10;
            if (straddles) {
                straddled.add(c.valueThreshold);
            }
            if (straddles && c.valueThreshold == 1024 && c.maxFileSize <= 2048 && c.writeBufferSize == 64 << 10) {
                smallFilesStraddling1K++;
            }
            double liveLarge = c.largeValuePercent / 100 * c.threads * c.keysPerThread * c.largeValueSize;
            assertTrue(liveLarge <= OptionSpace.LARGE_VALUE_BUDGET, c.roundFlags().toString());
            Config.parse(c.roundFlags().toArray(new String[0])); // every drawn set is valid
        }
        assertEquals(set(OptionSpace.VALUE_THRESHOLDS), thresholds);
        assertTrue(thresholds.containsAll(List.of(0, 1024, 64 << 10)));
        assertEquals(Arrays.stream(OptionSpace.MAX_FILE_SIZES).boxed().collect(Collectors.toSet()), fileSizes);
        assertTrue(fileSizes.containsAll(List.of(128L, 256L, 2048L)), fileSizes.toString());
        assertEquals(set(OptionSpace.WRITE_BUFFER_SIZES), writeBuffers);
        assertTrue(writeBuffers.contains(64 << 10));
        assertEquals(set(OptionSpace.BLOCK_SIZES), blockSizes);
        assertEquals(set(OptionSpace.BLOCK_RESTART_INTERVALS), restarts);
        assertEquals(Set.of(CompressionType.values()), compressions);
        assertEquals(set(OptionSpace.BLOOM_BITS), bloomBits);
        assertEquals(Arrays.stream(OptionSpace.VALUE_GARBAGE_RATIOS).boxed().collect(Collectors.toSet()),
                garbageRatios);
        assertEquals(Set.of(false, true), paranoid);
        assertEquals(Arrays.stream(OptionSpace.SYNC_PERCENTS).boxed().collect(Collectors.toSet()), syncPercents);
        assertEquals(Arrays.stream(OptionSpace.DISABLE_WAL_PERCENTS).boxed().collect(Collectors.toSet()),
                disableWalPercents);
        assertTrue(disableWalPercents.containsAll(List.of(0.0, 100.0)));
        assertEquals(Set.of(false, true), compactionFilters);
        assertEquals(Set.of(PrefixChoice.values()), prefixExtractors);
        assertEquals(Set.of(1024, 64 << 10), straddled, "value sizes straddling each threshold");
        // The mix of the value-log deadlock's reproduction (small files, 64 KiB write buffer): about one
        // round in fifty.
        assertTrue(smallFilesStraddling1K > DRAWS / 100, smallFilesStraddling1K + " of " + DRAWS);
    }

    @Test
    void theCommandLineOfARoundRunsItsOptionsAgain(@Seed long seed) {
        Config run = Config.parse("--duration=42", "--threads=3", "--kill-points=flush,repair", "--stall-timeout=7",
                "--seed=" + seed);
        Config round = OptionSpace.draw(run, new SplittableRandom(seed).nextLong());
        String line = round.commandLine();
        assertTrue(line.startsWith("bin/crashtest "), line);
        Config again = Config.parse(line.substring("bin/crashtest ".length()).split(" "));
        assertEquals(42, again.duration);
        assertEquals(3, again.threads);
        assertEquals(7, again.stallTimeout);
        assertEquals(seed, again.seed);
        assertEquals(run.killPoints, again.killPoints);
        // Every round of the new run has the options of that round, whatever it draws.
        for (long other : new long[] {1, 2, 3, seed}) {
            assertEquals(round.roundFlags(), OptionSpace.draw(again, other).roundFlags());
        }
        assertNotEquals(round.roundFlags(), OptionSpace.draw(run, seed + 1).roundFlags());
    }

    private static Set<Integer> set(int[] values) {
        return Arrays.stream(values).boxed().collect(Collectors.toSet());
    }
}
