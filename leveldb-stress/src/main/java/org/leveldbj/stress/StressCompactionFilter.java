package org.leveldbj.stress;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.iq80.leveldb.CompactionFilter;

/**
 * The compaction filter of the rounds that draw {@code --compaction-filter=true}: its decisions
 * depend on the operation number a value names alone ({@link Values#doomed},
 * {@link Values#shortened}), so that the checks can tell what it may have done. It removes
 * doomed values, replaces the values to shorten by their header and half their filler (which
 * may move them across the value threshold: separated values inlined, and the reverse never),
 * and keeps everything else, including bytes that are not a stress value.
 *
 * <p>Stateless; safe for concurrent use.
 */
final class StressCompactionFilter implements CompactionFilter {
    /** The filter's name, in the database's info log. */
    static final String NAME = "leveldbj.stress.OpFilter";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Decision filter(int level, byte[] key, byte[] value) {
        if (value.length < Values.HEADER) {
            return Decision.KEEP;
        }
        long op = ByteBuffer.wrap(value, 12, 8).getLong();
        if (Values.doomed(op)) {
            return Decision.REMOVE;
        }
        if (Values.shortened(op) && value.length > Values.HEADER + 1) {
            return Decision.replace(Arrays.copyOf(value, Values.HEADER + (value.length - Values.HEADER) / 2));
        }
        return Decision.KEEP;
    }
}
