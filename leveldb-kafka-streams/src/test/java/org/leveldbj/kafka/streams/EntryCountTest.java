package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.leveldbj.testing.SeedExtension;

/**
 * {@code approximateNumEntries} within a factor of two of the true count, from 10 to 1,000,000
 * entries (exact up to 10,000), for 1-3 byte keys with small values and for 120-byte keys with
 * larger ones, written in random order, and again after a random half is deleted; with the
 * entries in tables (after a commit and a reopening) and in the memtable.
 */
@ExtendWith(SeedExtension.class)
class EntryCountTest {
    @TempDir
    Path stateDir;

    /** Key {@code i}: its big-endian bytes without leading zeros (small), or padded to 120 bytes. */
    private static byte[] key(int i, boolean large) {
        byte[] small = i < 1 << 8 ? new byte[] {(byte) i}
                : i < 1 << 16 ? new byte[] {(byte) (i >>> 8), (byte) i}
                : new byte[] {(byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
        if (!large) {
            return small;
        }
        byte[] k = new byte[120];
        Arrays.fill(k, (byte) 'k');
        System.arraycopy(small, 0, k, k.length - small.length, small.length);
        k[0] = (byte) small.length; // keeps keys of different lengths apart
        return k;
    }

    private static void assertWithinTwice(long actual, long estimate, String what) {
        if (actual <= EntryCount.EXACT_LIMIT) {
            assertEquals(actual, estimate, what + ": exact while small");
        } else {
            assertTrue(estimate >= actual / 2 && estimate <= actual * 2, what + ": estimate " + estimate
                    + " for " + actual + " entries");
        }
    }

    @ParameterizedTest
    @CsvSource({"10,false", "10,true", "1000,false", "1000,true", "100000,false", "100000,true",
            "1000000,false", "1000000,true"})
    void theEstimateIsWithinAFactorOfTwo(int n, boolean large, Random random) {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbKeyValueStore store = StoreFixture.init(new LeveldbKeyValueStore("count"), context);
        int[] order = permutation(n, random);
        byte[] value = new byte[large ? 200 : 8];
        List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
        for (int i : order) {
            random.nextBytes(value);
            batch.add(KeyValue.pair(Bytes.wrap(key(i, large)), value.clone()));
            if (batch.size() == 10_000) {
                store.putAll(batch);
                batch.clear();
            }
        }
        store.putAll(batch);
        batch.clear();
        String what = n + (large ? " large" : " small") + " entries";
        assertWithinTwice(n, store.approximateNumEntries(), what);
        store.close();
        store = StoreFixture.init(new LeveldbKeyValueStore("count"), context);
        assertWithinTwice(n, store.approximateNumEntries(), what + ", reopened");

        int deleted = 0;
        for (int i = 0; i < n; i += 1) {
            if (random.nextBoolean()) {
                batch.add(KeyValue.pair(Bytes.wrap(key(order[i], large)), null));
                deleted++;
            }
            if (batch.size() == 10_000) {
                store.putAll(batch);
                batch.clear();
            }
        }
        store.putAll(batch);
        assertWithinTwice(n - deleted, store.approximateNumEntries(), what + " after " + deleted + " deletions");
        store.close();
        store = StoreFixture.init(new LeveldbKeyValueStore("count"), context);
        assertWithinTwice(n - deleted, store.approximateNumEntries(), what + " after " + deleted + " deletions, reopened");
        store.close();
    }

    private static int[] permutation(int n, Random random) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
