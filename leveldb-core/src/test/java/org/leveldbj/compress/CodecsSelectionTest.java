package org.leveldbj.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.util.NativeAccess;

/**
 * The choice between native and pure-Java implementations, tested through
 * {@link Codecs#choose} with stand-in factories rather than by changing global state.
 */
class CodecsSelectionTest {
    private static final Supplier<BlockCodec> JAVA = SnappyJavaCodec::new;
    private static final Supplier<BlockCodec> NATIVE = () -> new Labelled(new SnappyJavaCodec(), "fake-native");

    @ParameterizedTest
    @ValueSource(strings = {"", "auto", "AUTO", " auto "})
    void autoPrefersNative(String value) {
        assertEquals("fake-native", Codecs.choose(value, "snappy", true, NATIVE, JAVA).implementationName());
    }

    @Test
    void unsetPropertyMeansAuto() {
        assertEquals("fake-native", Codecs.choose(null, "snappy", true, NATIVE, JAVA).implementationName());
    }

    @ParameterizedTest
    @ValueSource(strings = {"unsatisfied", "noclassdef", "initializer", "runtime", "selftest"})
    void autoFallsBackWhenNativeFails(String how) {
        CodecChoice choice = Codecs.choose("auto", "snappy", true, failing(how), JAVA);
        assertEquals("java", choice.implementationName());
        assertFalse(choice.codec().isNative());
    }

    @Test
    void autoLeavesNativeAloneWhereLoadingItWouldWarn() {
        AtomicInteger nativeAttempts = new AtomicInteger();
        Supplier<BlockCodec> counted = () -> {
            nativeAttempts.incrementAndGet();
            return NATIVE.get();
        };
        CodecChoice choice = Codecs.choose("auto", "snappy", false, counted, JAVA);
        assertEquals("java", choice.implementationName());
        assertEquals(0, nativeAttempts.get(), "the native library was loaded");
        // Asked for explicitly, the native one is still loaded.
        assertEquals("fake-native", Codecs.choose("native", "snappy", false, counted, JAVA).implementationName());
        assertEquals(1, nativeAttempts.get());
    }

    @Test
    void nativeAccessIsOnlyAskedFromJdk24() {
        assertTrue(NativeAccess.allowedFor("no.such.Loader", 23));
        assertFalse(NativeAccess.allowedFor("no.such.Loader", 24));
        if (Runtime.version().feature() < NativeAccess.WARNING_RELEASE) {
            assertTrue(NativeAccess.allowedFor("org.xerial.snappy.SnappyLoader"));
        }
        // From JDK 24 the answer depends on this JVM's history (the JDK enables native access
        // for a module once it has warned about it, and other tests load snappy-java directly);
        // QuietStartTest checks the choice in a fresh JVM.
    }

    @Test
    void javaNeverTriesNative() {
        AtomicInteger nativeAttempts = new AtomicInteger();
        Supplier<BlockCodec> counted = () -> {
            nativeAttempts.incrementAndGet();
            return NATIVE.get();
        };
        assertEquals("java", Codecs.choose("java", "snappy", true, counted, JAVA).implementationName());
        assertEquals(0, nativeAttempts.get());
    }

    @Test
    void nativeDoesNotFallBack() {
        CodecChoice choice = Codecs.choose("native", "snappy", true, failing("unsatisfied"), JAVA);
        assertFalse(choice.isAvailable());
        assertEquals("unavailable", choice.implementationName());
        DBException e = assertThrows(DBException.class, choice::codec);
        assertTrue(e.getMessage().contains("snappy compression is unavailable"), e.getMessage());
        assertTrue(e.getMessage().contains("UnsatisfiedLinkError"), e.getMessage());
        assertEquals("fake-native", Codecs.choose("Native", "snappy", true, NATIVE, JAVA).implementationName());
    }

    @Test
    void bothFailingExplainsBoth() {
        CodecChoice choice = Codecs.choose("auto", "zstd", true, failing("unsatisfied"), failing("noclassdef"));
        String message = assertThrows(DBException.class, choice::codec).getMessage();
        assertTrue(message.contains("native") && message.contains("pure-Java"), message);
    }

    @Test
    void invalidValueIsReportedNotGuessed() {
        CodecChoice choice = Codecs.choose("nativ", "snappy", true, NATIVE, JAVA);
        String message = assertThrows(DBException.class, choice::codec).getMessage();
        assertTrue(message.contains("-Dleveldbj.codec=nativ"), message);
    }

    @Test
    void virtualMachineErrorsAreNotMistakenForAMissingLibrary() {
        Supplier<BlockCodec> oom = () -> {
            throw new OutOfMemoryError("test");
        };
        assertThrows(OutOfMemoryError.class, () -> Codecs.choose("auto", "snappy", true, oom, JAVA));
    }

    @Test
    void forIdAndNamesMatchThisJvmsChoice() {
        assertSame(Codecs.none(), Codecs.forId(0));
        assertEquals("none", Codecs.implementationName(0));
        CodecPreference preference = CodecPreference.parse(System.getProperty(Codecs.PROPERTY));
        for (int id : new int[] {CodecIds.SNAPPY, CodecIds.ZSTD}) {
            BlockCodec codec = Codecs.forId(id);
            assertEquals(id, codec.id());
            assertSame(codec, Codecs.forId(id), "chosen once");
            assertEquals(codec.implementationName(), Codecs.implementationName(id));
            if (preference != CodecPreference.AUTO) {
                assertEquals(preference == CodecPreference.NATIVE, codec.isNative());
            }
            System.err.println("Codecs: id " + id + " -> " + Codecs.implementationName(id));
        }
        assertSame(Codecs.snappy(), Codecs.forId(CodecIds.SNAPPY));
        assertSame(Codecs.zstd(), Codecs.forId(CodecIds.ZSTD));
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 7, -1, 255, Integer.MAX_VALUE})
    void unknownIdsAreCorruption(int id) {
        CorruptionException e = assertThrows(CorruptionException.class, () -> Codecs.forId(id));
        assertEquals("unknown compression type " + id, e.reason());
        assertThrows(CorruptionException.class, () -> Codecs.implementationName(id));
        assertEquals("Corruption: unknown compression type " + id + ": 000005.ldb at offset 10",
                e.at("000005.ldb", 10).getMessage());
    }

    private static Supplier<BlockCodec> failing(String how) {
        return () -> {
            switch (how) {
                case "unsatisfied":
                    throw new UnsatisfiedLinkError("no snappyjava in java.library.path");
                case "noclassdef":
                    throw new NoClassDefFoundError("org/xerial/snappy/Snappy");
                case "initializer":
                    throw new ExceptionInInitializerError("static init failed");
                case "runtime":
                    throw new IllegalStateException("broken");
                default:
                    return new Labelled(new SnappyJavaCodec(), "broken-native") {
                        @Override
                        public ByteBuffer decompress(ByteBuffer compressed) {
                            return ByteBuffer.allocate(0);
                        }
                    };
            }
        };
    }

    /** A real codec under another name, standing in for a native implementation. */
    private static class Labelled implements BlockCodec {
        private final BlockCodec delegate;
        private final String name;

        Labelled(BlockCodec delegate, String name) {
            this.delegate = delegate;
            this.name = name;
        }

        @Override
        public int id() {
            return delegate.id();
        }

        @Override
        public String implementationName() {
            return name;
        }

        @Override
        public boolean isNative() {
            return true;
        }

        @Override
        public int maxCompressedLength(int uncompressedLength) {
            return delegate.maxCompressedLength(uncompressedLength);
        }

        @Override
        public int compress(ByteBuffer input, ByteBuffer output) {
            return delegate.compress(input, output);
        }

        @Override
        public int uncompressedLength(ByteBuffer compressed) {
            return delegate.uncompressedLength(compressed);
        }

        @Override
        public void decompress(ByteBuffer compressed, ByteBuffer output) {
            delegate.decompress(compressed, output);
        }
    }
}
