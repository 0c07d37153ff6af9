package org.leveldbj.compress;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.Assumptions;

/**
 * Every codec implementation by a stable test name, loaded independently of the
 * {@value Codecs#PROPERTY} choice so that each one is tested on every run.
 *
 * <p>A native implementation that cannot load fails the test when the environment variable
 * {@code CI} is {@code true}; elsewhere the test is skipped and the reason printed to stderr,
 * loudly, because a silent skip would hide that the native path went untested.
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

    /** The codec of a test name, or a failed/skipped test when a native one cannot load. */
    static BlockCodec get(String name) {
        CodecChoice choice = LOADED.computeIfAbsent(name, Implementations::load);
        if (!choice.isAvailable()) {
            String message = "native codec '" + name + "' cannot be used on this machine: "
                    + choice.failure();
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                fail(message + " (CI=true: native codecs are required)");
            }
            System.err.println("!!! SKIPPING: " + message + " -- only the pure-Java fallback is"
                    + " tested here; set CI=true to make this a failure.");
            Assumptions.abort(message);
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
