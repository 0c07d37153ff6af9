package org.leveldbj.compress;


import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.leveldbj.testing.PeerExtension;
import org.leveldbj.testing.PeerUnavailableException;

/**
 * Every codec implementation by a stable test name, loaded independently of the
 * {@value Codecs#PROPERTY} choice so that each one is tested on every run.
 *
 * <p>A native implementation that cannot load is a {@link PeerUnavailableException}: the tests'
 * {@link PeerExtension} fails the test when the environment variable {@code CI} is {@code true},
 * and elsewhere skips it with a banner, because a silent skip would hide that the native path
 * went untested.
 *
 * <p>Thread safety: the cache is concurrent; codecs are thread-safe.
 */
final class Implementations {
    static final String NONE = "none";
    static final String SNAPPY_NATIVE = "snappy-native";
    static final String SNAPPY_JAVA = "snappy-java-fallback";
    static final String ZSTD_NATIVE = "zstd-native";
    static final String ZSTD_JAVA = "zstd-java-fallback";

    static final List<String> ALL = List.of(NONE, SNAPPY_NATIVE, SNAPPY_JAVA, ZSTD_NATIVE, ZSTD_JAVA);
    static final List<String> COMPRESSING = List.of(SNAPPY_NATIVE, SNAPPY_JAVA, ZSTD_NATIVE, ZSTD_JAVA);

    private static final Map<String, CodecChoice> LOADED = new ConcurrentHashMap<>();

    private Implementations() {}

    /** The codec of a test name; a native one that cannot load is a {@link PeerUnavailableException}. */
    static BlockCodec get(String name) {
        CodecChoice choice = LOADED.computeIfAbsent(name, Implementations::load);
        if (!choice.isAvailable()) {
            throw new PeerUnavailableException("native codec '" + name + "'", String.valueOf(choice.failure()),
                    "a platform snappy-java and zstd-jni ship native code for (here only the pure-Java"
                            + " codecs are tested)", null);
        }
        return choice.codec();
    }

    private static CodecChoice load(String name) {
        switch (name) {
            case NONE:
                return CodecChoice.of(Codecs.none());
            case SNAPPY_NATIVE:
                return Codecs.load("snappy", "native", SnappyNativeCodec::new);
            case SNAPPY_JAVA:
                return Codecs.load("snappy", "pure-Java", SnappyJavaCodec::new);
            case ZSTD_NATIVE:
                return Codecs.load("zstd", "native", nativeZstd());
            case ZSTD_JAVA:
                return Codecs.load("zstd", "pure-Java", ZstdJavaCodec::new);
            default:
                throw new IllegalArgumentException(name);
        }
    }

    private static Supplier<BlockCodec> nativeZstd() {
        return () -> new ZstdNativeCodec(ZstdNativeCodec.DEFAULT_LEVEL);
    }
}
