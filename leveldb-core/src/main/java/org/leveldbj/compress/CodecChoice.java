package org.leveldbj.compress;

import java.util.Objects;
import org.iq80.leveldb.DBException;

/**
 * The outcome of choosing an implementation of one algorithm: the codec, or why there is none.
 *
 * <p>Thread safety: immutable.
 */
final class CodecChoice {
    private final String algorithm;
    private final BlockCodec codec;
    private final String failure;

    private CodecChoice(String algorithm, BlockCodec codec, String failure) {
        this.algorithm = algorithm;
        this.codec = codec;
        this.failure = failure;
    }

    static CodecChoice of(BlockCodec codec) {
        Objects.requireNonNull(codec);
        return new CodecChoice(codec.algorithm(), codec, null);
    }

    static CodecChoice unavailable(String algorithm, String failure) {
        return new CodecChoice(algorithm, null, Objects.requireNonNull(failure));
    }

    boolean isAvailable() {
        return codec != null;
    }

    /** The chosen codec; throws a {@link DBException} explaining why when there is none. */
    BlockCodec codec() {
        if (codec == null) {
            throw new DBException(algorithm + " compression is unavailable: " + failure);
        }
        return codec;
    }

    /** The implementation name, or {@code "unavailable"}. */
    String implementationName() {
        return codec != null ? codec.implementationName() : "unavailable";
    }

    /** Why no implementation could be chosen, or {@code null} when one was. */
    String failure() {
        return failure;
    }
}
