package org.leveldbj.stress;

import java.util.Locale;
import org.iq80.leveldb.PrefixExtractor;

/**
 * The prefix extractors a round may open its database with ({@code --prefix-extractor}). Keys
 * are {@code tNNN/IIIIIIII} ({@link Keys}): {@link #DELIMITER} cuts {@code tNNN/}, a thread's
 * whole range; {@link #FIXED} cuts {@code tNNN/IIIIIII}, ten consecutive keys of a thread. The
 * stress threads' prefix scans use both prefix lengths whatever the round draws, so that a
 * scan's prefix is sometimes the extractor's, sometimes longer (still filtered) and sometimes
 * shorter (read without the filter).
 */
enum PrefixChoice {
    NONE(null),
    DELIMITER(PrefixExtractor.upToDelimiter('/')),
    FIXED(PrefixExtractor.fixedLength(Keys.SHORT_PREFIX_LENGTH));

    private final PrefixExtractor extractor;

    PrefixChoice(PrefixExtractor extractor) {
        this.extractor = extractor;
    }

    /** The extractor, {@code null} for none. */
    PrefixExtractor extractor() {
        return extractor;
    }

    /** The flag's value. */
    String flag() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Reads a flag value. */
    static PrefixChoice parse(String value) {
        for (PrefixChoice c : values()) {
            if (c.flag().equals(value)) {
                return c;
            }
        }
        throw new IllegalArgumentException("--prefix-extractor must be none, delimiter or fixed: " + value);
    }
}
