package org.leveldbj.compaction;

import org.iq80.leveldb.DBException;

/**
 * An application's {@link org.iq80.leveldb.CompactionFilter} threw (or answered {@code null})
 * instead of deciding. The filter's exception is the cause; the message names the filter, the
 * level and the key (its first bytes, in hex).
 *
 * <p>What it leaves behind: the compaction stops and deletes the outputs it wrote, so the
 * database's files are as they were; the database records the failure as its background error,
 * as it does a comparator's ({@link org.leveldbj.comparator.ComparatorFailure}), so every later
 * write fails with it as the cause while reads go on. Nothing is lost: a later open, with a
 * filter that works, compacts again.
 */
public final class CompactionFilterFailure extends DBException {
    private static final long serialVersionUID = 1L;
    /** How many bytes of the key the message shows. */
    private static final int KEY_BYTES_SHOWN = 32;

    /**
     * @param filterName the filter's name
     * @param level the level the compaction writes
     * @param key the user key the filter was asked about
     * @param cause what it threw, or {@code null} when it answered {@code null}
     */
    public CompactionFilterFailure(String filterName, int level, byte[] key, RuntimeException cause) {
        super("compaction filter " + filterName + " failed on key " + hex(key) + " writing level " + level + ": "
                + (cause == null ? "it returned null instead of a decision" : cause.toString()), cause);
    }

    private static String hex(byte[] key) {
        StringBuilder b = new StringBuilder("0x");
        for (int i = 0; i < Math.min(key.length, KEY_BYTES_SHOWN); i++) {
            b.append(Character.forDigit((key[i] >> 4) & 0xf, 16)).append(Character.forDigit(key[i] & 0xf, 16));
        }
        if (key.length > KEY_BYTES_SHOWN) {
            b.append("... (").append(key.length).append(" bytes)");
        }
        return b.toString();
    }
}
