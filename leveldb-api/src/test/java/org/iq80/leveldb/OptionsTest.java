package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void defaultsMatchVersion012() {
        Options o = new Options();
        assertTrue(o.createIfMissing());
        assertFalse(o.errorIfExists());
        assertEquals(4 * 1024 * 1024, o.writeBufferSize());
        assertEquals(1000, o.maxOpenFiles());
        assertEquals(16, o.blockRestartInterval());
        assertEquals(4096, o.blockSize());
        assertSame(CompressionType.SNAPPY, o.compressionType());
        assertTrue(o.verifyChecksums());
        assertFalse(o.paranoidChecks());
        assertNull(o.comparator());
        assertNull(o.logger());
        assertEquals(0L, o.cacheSize());
    }

    @Test
    void extensionDefaults() {
        Options o = new Options();
        assertNull(o.filterPolicy());
        assertNull(o.compactionFilter());
        assertEquals(2L * 1024 * 1024, o.maxFileSize());
        assertNull(o.env());
        assertNull(o.backgroundPool());
        assertNull(o.writeBufferBudget());
        assertFalse(o.readOnly());
        assertEquals(0, o.valueThreshold());
        assertThrows(IllegalArgumentException.class, () -> o.valueThreshold(-1));
        assertEquals(0.25, o.valueGarbageRatio());
        assertThrows(IllegalArgumentException.class, () -> o.valueGarbageRatio(0));
        assertThrows(IllegalArgumentException.class, () -> o.valueGarbageRatio(1.5));
        assertThrows(IllegalArgumentException.class, () -> o.valueGarbageRatio(Double.NaN));
    }

    @Test
    void settersStoreValuesAndChain() {
        Options o = new Options();
        DBComparator comparator = new BytewiseForTest();
        Logger logger = message -> { };
        FilterPolicy bloom = FilterPolicy.bloom(10);
        assertSame(o, o.createIfMissing(false).errorIfExists(true).writeBufferSize(123)
                .maxOpenFiles(77).blockRestartInterval(1).blockSize(1)
                .compressionType(CompressionType.ZSTD).verifyChecksums(false)
                .paranoidChecks(true).comparator(comparator).logger(logger).cacheSize(5)
                .filterPolicy(bloom).maxFileSize(64L << 30).env(null).readOnly(true));
        assertFalse(o.createIfMissing());
        assertTrue(o.errorIfExists());
        assertEquals(123, o.writeBufferSize());
        assertEquals(77, o.maxOpenFiles());
        assertEquals(1, o.blockRestartInterval());
        assertEquals(1, o.blockSize());
        assertSame(CompressionType.ZSTD, o.compressionType());
        assertFalse(o.verifyChecksums());
        assertTrue(o.paranoidChecks());
        assertSame(comparator, o.comparator());
        assertSame(logger, o.logger());
        assertEquals(5, o.cacheSize());
        assertSame(bloom, o.filterPolicy());
        assertEquals(64L << 30, o.maxFileSize());
        assertNull(o.env());
        assertTrue(o.readOnly());
        assertFalse(o.readOnly(false).readOnly());
    }

    @Test
    void copyHoldsEverySettingAndStaysIndependent() throws IllegalAccessException {
        Cache cache = new Cache() {
            @Override
            public long capacity() {
                return 1;
            }

            @Override
            public long usage() {
                return 0;
            }
        };
        BackgroundPool pool = new BackgroundPool() {
            @Override
            public int threads() {
                return 1;
            }

            @Override
            public int databases() {
                return 0;
            }

            @Override
            public void close() {
            }
        };
        WriteBufferBudget budget = new WriteBufferBudget() {
            @Override
            public long capacity() {
                return 1;
            }

            @Override
            public long usage() {
                return 0;
            }
        };
        Env env = (Env) java.lang.reflect.Proxy.newProxyInstance(Env.class.getClassLoader(),
                new Class<?>[] {Env.class}, (proxy, method, args) -> method.getName().equals("equals") ? proxy == args[0] : null);
        Options o = new Options().createIfMissing(false).errorIfExists(true).writeBufferSize(123)
                .maxOpenFiles(77).blockRestartInterval(3).blockSize(5)
                .compressionType(CompressionType.ZSTD).verifyChecksums(false)
                .paranoidChecks(true).comparator(new BytewiseForTest()).logger(message -> { })
                .cacheSize(9).cache(cache).backgroundPool(pool).writeBufferBudget(budget).filterPolicy(FilterPolicy.bloom(10)).maxFileSize(64L << 30)
                .compactionFilter(new KeepAll()).prefixExtractor(PrefixExtractor.fixedLength(3))
                .env(env).readOnly(true).tableFileSuffix(TableFileSuffix.SST).valueThreshold(4096)
                .valueGarbageRatio(0.5);
        Options copy = new Options(o);
        Options defaults = new Options();
        // Every field, read reflectively, so that a setting added later cannot be left out.
        for (java.lang.reflect.Field field : Options.class.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(field.getModifiers())) {
                continue;
            }
            field.setAccessible(true);
            assertFalse(java.util.Objects.equals(field.get(o), field.get(defaults)),
                    "the test sets " + field.getName() + " to a value other than its default");
            assertEquals(field.get(o), field.get(copy), field.getName());
        }
        copy.blockSize(7);
        assertEquals(5, o.blockSize());
    }

    @Test
    void nullableOptionsResetToTheirDefaults() {
        Options o = new Options().comparator(new BytewiseForTest()).logger(message -> { })
                .filterPolicy(FilterPolicy.bloom(10)).compactionFilter(new KeepAll());
        o.prefixExtractor(PrefixExtractor.upToDelimiter(':'));
        o.comparator(null).logger(null).filterPolicy(null).compactionFilter(null).prefixExtractor(null);
        assertNull(o.prefixExtractor());
        assertNull(o.compactionFilter());
        assertNull(o.comparator());
        assertNull(o.logger());
        assertNull(o.filterPolicy());
    }

    @Test
    void nullCompressionTypeIsRejectedAsIn012() {
        Options o = new Options();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> o.compressionType(null));
        assertEquals("The compressionType argument cannot be null", e.getMessage());
        assertSame(CompressionType.SNAPPY, o.compressionType());
    }

    @Test
    void sizesThatCanNeverWorkAreRejectedWithTheOptionAndValue() {
        assertRejected(o -> o.writeBufferSize(0), "writeBufferSize must be at least 1, but was 0");
        assertRejected(o -> o.writeBufferSize(-4),
                "writeBufferSize must be at least 1, but was -4");
        assertRejected(o -> o.maxOpenFiles(0), "maxOpenFiles must be at least 1, but was 0");
        assertRejected(o -> o.blockRestartInterval(0),
                "blockRestartInterval must be at least 1, but was 0");
        assertRejected(o -> o.blockSize(-1), "blockSize must be at least 1, but was -1");
        assertRejected(o -> o.cacheSize(-1), "cacheSize must be at least 0, but was -1");
        assertRejected(o -> o.maxFileSize(0), "maxFileSize must be at least 1, but was 0");
        assertRejected(o -> o.maxFileSize(Long.MIN_VALUE),
                "maxFileSize must be at least 1, but was " + Long.MIN_VALUE);
    }

    @Test
    void boundaryValuesAreAccepted() {
        Options o = new Options().writeBufferSize(1).maxOpenFiles(1).blockRestartInterval(1)
                .blockSize(1).cacheSize(0).maxFileSize(1)
                .writeBufferSize(Integer.MAX_VALUE).cacheSize(Long.MAX_VALUE);
        assertEquals(Integer.MAX_VALUE, o.writeBufferSize());
        assertEquals(Long.MAX_VALUE, o.cacheSize());
        assertEquals(1, o.maxFileSize());
    }

    private static void assertRejected(Consumer<Options> setter, String message) {
        Options o = new Options();
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> setter.accept(o));
        assertEquals(message, e.getMessage());
        assertEquals(new Options().writeBufferSize(), o.writeBufferSize());
        assertEquals(new Options().cacheSize(), o.cacheSize());
        assertEquals(new Options().maxFileSize(), o.maxFileSize());
    }

    /** Unsigned lexicographic order. */
    static final class BytewiseForTest implements DBComparator {
        @Override
        public int compare(byte[] a, byte[] b) {
            return java.util.Arrays.compareUnsigned(a, b);
        }

        @Override
        public String name() {
            return "test.Bytewise";
        }

        @Override
        public byte[] findShortestSeparator(byte[] start, byte[] limit) {
            return start;
        }

        @Override
        public byte[] findShortSuccessor(byte[] key) {
            return key;
        }
    }

    /** A compaction filter that keeps everything. */
    private static final class KeepAll implements CompactionFilter {
        @Override
        public String name() {
            return "test.KeepAll";
        }

        @Override
        public Decision filter(int level, byte[] key, byte[] value) {
            return Decision.KEEP;
        }
    }

    @Test
    void compactionFilterDecisions() {
        assertNull(CompactionFilter.Decision.KEEP.replacement());
        assertNull(CompactionFilter.Decision.REMOVE.replacement());
        byte[] v = {1, 2};
        assertSame(v, CompactionFilter.Decision.replace(v).replacement());
        assertEquals("REPLACE(2 bytes)", CompactionFilter.Decision.replace(v).toString());
        assertEquals("KEEP", CompactionFilter.Decision.KEEP.toString());
        assertEquals("REMOVE", CompactionFilter.Decision.REMOVE.toString());
        assertThrows(NullPointerException.class, () -> CompactionFilter.Decision.replace(null));
    }
}
