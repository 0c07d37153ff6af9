package org.leveldbj.version;

/**
 * An estimate of the compaction work a version owes: the bytes compactions must rewrite to bring
 * every level back within its target, after RocksDB's estimate-pending-compaction-bytes, without
 * its factor for the bytes of the next level each compaction also rewrites. Level 0 owes all its
 * bytes once it holds {@link VersionSet#L0_COMPACTION_TRIGGER} tables; a level from 1 to the one
 * before the last owes what it holds above {@link VersionSet#maxBytesForLevel}, counting what the
 * level above pushes into it; the last level owes nothing.
 *
 * <p>Thread safety: stateless; versions are immutable.
 */
public final class PendingCompaction {
    private PendingCompaction() {
    }

    /**
     * The estimate for a version.
     *
     * @param v the version
     * @return bytes
     */
    public static long bytes(Version v) {
        long[] levelBytes = new long[VersionSet.NUM_LEVELS];
        for (int level = 0; level < levelBytes.length; level++) {
            levelBytes[level] = v.levelBytes(level);
        }
        return bytes(v.numFiles(0), levelBytes);
    }

    /**
     * The estimate for a shape of levels.
     *
     * @param level0Files tables in level 0
     * @param levelBytes bytes per level, {@link VersionSet#NUM_LEVELS} of them
     * @return bytes
     */
    public static long bytes(int level0Files, long[] levelBytes) {
        long pushed = level0Files >= VersionSet.L0_COMPACTION_TRIGGER ? levelBytes[0] : 0;
        long pending = pushed;
        for (int level = 1; level < VersionSet.NUM_LEVELS - 1; level++) {
            long size = levelBytes[level] + pushed;
            long target = (long) VersionSet.maxBytesForLevel(level);
            pushed = Math.max(0, size - target);
            pending += pushed;
        }
        return pending;
    }
}
