package org.leveldbj.compress;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.leveldbj.util.NativeAccess;

/**
 * The codec for each compression type id, with the implementation chosen once per algorithm: the
 * native one when its library loads and passes a self-test, otherwise the pure-Java one. From
 * JDK 24 on, {@code auto} takes the native one only where native access is enabled for its
 * library ({@code --enable-native-access}), so that the JVM prints no warning about it (see
 * {@link NativeAccess}). The system property {@value #PROPERTY} ({@code native}, {@code java}
 * or {@code auto}, the default) restricts the choice; it is read when an algorithm is first
 * used.
 *
 * <p>Thread safety: all methods may be called from any thread. Each algorithm is chosen lazily and
 * exactly once (class-holder initialisation); the returned codecs are shared and thread-safe.
 */
public final class Codecs {
    /** The system property that restricts the implementation choice: native, java or auto. */
    public static final String PROPERTY = "leveldbj.codec";

    private static final System.Logger LOG = System.getLogger(Codecs.class.getName());

    private Codecs() {}

    /**
     * The codec for a compression type id read from a block trailer.
     *
     * @param id the compression type id
     * @return the shared codec
     * @throws CorruptionException for an id no codec has ({@code "unknown compression type 7"})
     * @throws DBException when the algorithm has no usable implementation (e.g. {@code native}
     *     was required and the native library does not load)
     */
    public static BlockCodec forId(int id) {
        return choice(id).codec();
    }

    /** @return the codec of type 0, which stores blocks as they are */
    public static BlockCodec none() {
        return NoCompressionCodec.INSTANCE;
    }

    /** @return the snappy codec (type 1); see {@link #forId(int)} for the exceptions */
    public static BlockCodec snappy() {
        return SnappyChoice.CHOICE.codec();
    }

    /** @return the zstd codec (type 2); see {@link #forId(int)} for the exceptions */
    public static BlockCodec zstd() {
        return ZstdChoice.CHOICE.codec();
    }

    /**
     * Names the implementation serving an id, for logs and benchmark headers.
     *
     * @param id the compression type id
     * @return {@code "none"}, {@code "snappy-java"}, {@code "zstd-jni"}, {@code "java"} (our
     *     snappy), {@code "aircompressor"} (its zstd), or {@code "unavailable"}
     * @throws CorruptionException for an unknown id
     */
    public static String implementationName(int id) {
        return choice(id).implementationName();
    }

    private static CodecChoice choice(int id) {
        switch (id) {
            case CodecIds.NONE:
                return NoneChoice.CHOICE;
            case CodecIds.SNAPPY:
                return SnappyChoice.CHOICE;
            case CodecIds.ZSTD:
                return ZstdChoice.CHOICE;
            default:
                throw CodecIds.unknown(id);
        }
    }

    /**
     * Chooses an implementation of one algorithm under a property value. Never throws: every
     * failure, including an invalid property value, becomes an unavailable choice whose message
     * says what went wrong.
     *
     * @param propertyValue the value of {@value #PROPERTY}, or {@code null}
     * @param algorithm the algorithm name, for messages
     * @param nativeQuiet whether the native library may be loaded without the JDK printing a
     *     warning ({@link NativeAccess}); when not, {@code auto} passes over it and only
     *     {@code native} still loads it
     * @param nativeFactory makes the native implementation; may throw anything
     * @param javaFactory makes the pure-Java implementation; may throw anything
     */
    static CodecChoice choose(String propertyValue, String algorithm, boolean nativeQuiet,
            Supplier<? extends BlockCodec> nativeFactory, Supplier<? extends BlockCodec> javaFactory) {
        CodecPreference preference;
        try {
            preference = CodecPreference.parse(propertyValue);
        } catch (IllegalArgumentException e) {
            return CodecChoice.unavailable(algorithm, e.getMessage());
        }
        CodecChoice nativeChoice = null;
        if (preference == CodecPreference.AUTO && !nativeQuiet) {
            nativeChoice = CodecChoice.unavailable(algorithm, "the native implementation was not loaded: "
                    + advice(algorithm));
            String failure = nativeChoice.failure();
            LOG.log(System.Logger.Level.DEBUG, () -> failure);
        } else if (preference != CodecPreference.JAVA) {
            nativeChoice = load(algorithm, "native", nativeFactory);
            if (nativeChoice.isAvailable() || preference == CodecPreference.NATIVE) {
                return log(nativeChoice);
            }
        }
        CodecChoice javaChoice = load(algorithm, "pure-Java", javaFactory);
        if (!javaChoice.isAvailable() && nativeChoice != null) {
            return log(CodecChoice.unavailable(algorithm,
                    nativeChoice.failure() + "; " + javaChoice.failure()));
        }
        return log(javaChoice);
    }

    /**
     * Makes one implementation and checks that it round-trips a sample, catching whatever a
     * missing or broken library throws (UnsatisfiedLinkError, NoClassDefFoundError,
     * ExceptionInInitializerError, snappy-java's SnappyError, ...).
     */
    static CodecChoice load(String algorithm, String kind, Supplier<? extends BlockCodec> factory) {
        try {
            BlockCodec codec = factory.get();
            selfTest(codec);
            return CodecChoice.of(codec);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable t) {
            // Catching Throwable is the point: a library that cannot load announces it with an
            // Error, and the fallback must still be chosen.
            LOG.log(System.Logger.Level.DEBUG, () -> "The " + kind + " " + algorithm + " codec is unavailable", t);
            return CodecChoice.unavailable(algorithm, "the " + kind + " implementation failed to load: " + t);
        }
    }

    private static void selfTest(BlockCodec codec) {
        byte[] sample = "leveldbj codec self-test, leveldbj codec self-test, 0123456789"
                .getBytes(StandardCharsets.US_ASCII);
        byte[] compressed = codec.compress(sample, 0, sample.length);
        ByteBuffer decoded = codec.decompress(ByteBuffer.wrap(compressed));
        if (!decoded.equals(ByteBuffer.wrap(sample))) {
            throw new IllegalStateException(codec.implementationName() + " failed its self-test");
        }
    }

    private static CodecChoice log(CodecChoice choice) {
        if (choice.isAvailable()) {
            LOG.log(System.Logger.Level.DEBUG, () -> "Using " + choice.implementationName() + " for " + choice.codec().algorithm());
        } else {
            LOG.log(System.Logger.Level.DEBUG, () -> "No codec: " + choice.failure());
        }
        return choice;
    }

    /** Holders: each algorithm is chosen on first use, once, under the JVM's class-init lock. */
    private static final class NoneChoice {
        static final CodecChoice CHOICE = CodecChoice.of(NoCompressionCodec.INSTANCE);
    }

    private static final class SnappyChoice {
        static final CodecChoice CHOICE = choose(System.getProperty(PROPERTY), "snappy",
                NativeAccess.allowedFor("org.xerial.snappy.SnappyLoader"),
                // A lambda, not SnappyNativeCodec::new: linking a method reference loads the
                // class (and snappy-java's, which may be absent) outside load()'s try.
                () -> new SnappyNativeCodec(), SnappyJavaCodec::new);
    }

    private static final class ZstdChoice {
        static final CodecChoice CHOICE = choose(System.getProperty(PROPERTY), "zstd",
                NativeAccess.allowedFor("com.github.luben.zstd.util.Native"),
                () -> new ZstdNativeCodec(ZstdNativeCodec.DEFAULT_LEVEL), ZstdJavaCodec::new);
    }

    /**
     * The advice given when a native codec is passed over.
     *
     * @param library the library, e.g. {@code "snappy-java"}
     * @return a sentence naming the flag that enables it
     */
    private static String advice(String library) {
        return "native access is not enabled for " + library + " (JDK " + Runtime.version().feature()
                + "); the pure-Java codec is used. Run the JVM with --enable-native-access=ALL-UNNAMED"
                + " (or the library's module name) to use the native one";
    }
}
