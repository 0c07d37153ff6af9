package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.iq80.leveldb.PrefixExtractor;

/**
 * The settings of a table's prefix filter: a second filter block, laid out as the whole-key
 * filter block (one filter per {@code 2^}{@link FilterBlockBuilder#BASE_LG} bytes of data-block
 * offsets), whose filters hold the prefixes of the keys in the extractor's domain rather than
 * whole keys. It is recorded in the metaindex under {@link #metaindexName()},
 * {@code "leveldbj.prefix." + extractor name + "." + policy name}, a name C++ LevelDB and
 * goleveldb do not look for (they look only for {@code "filter." + policy name}).
 *
 * <p>A reader uses a table's prefix filter only if the table has one under exactly this name,
 * i.e. written with an extractor and a policy of the same names.
 *
 * @param extractor cuts the prefixes, from user keys
 * @param policy builds and probes the filters
 * @param suffixLength how many trailing bytes of each table key are not part of the user key:
 *     8 for a database's internal keys, 0 for tables of user keys
 */
public record PrefixFilterOptions(PrefixExtractor extractor, FilterPolicy policy, int suffixLength) {
    /** The metaindex name's first part. */
    public static final String NAME_PREFIX = "leveldbj.prefix.";

    public PrefixFilterOptions {
        if (extractor == null || policy == null) {
            throw new NullPointerException("extractor and policy are required");
        }
        if (suffixLength < 0) {
            throw new IllegalArgumentException("suffixLength must not be negative: " + suffixLength);
        }
    }

    /**
     * The filter block's name in the metaindex.
     *
     * @return {@code "leveldbj.prefix.<extractor name>.<policy name>"}
     */
    public String metaindexName() {
        return NAME_PREFIX + extractor.name() + "." + policy.name();
    }

    byte[] metaindexKey() {
        return metaindexName().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The length of a table key's prefix, or {@code -1} if its user key is outside the domain.
     *
     * @param key the table key (remaining bytes; position not moved)
     * @return the prefix length, or {@code -1}
     */
    int prefixLength(ByteBuffer key) {
        int userLength = key.remaining() - suffixLength;
        if (userLength < 0) {
            return -1;
        }
        return extractor.prefixLength(key, key.position(), userLength);
    }
}
