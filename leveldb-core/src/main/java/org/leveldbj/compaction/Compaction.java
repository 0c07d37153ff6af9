package org.leveldbj.compaction;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionEdit;
import org.leveldbj.version.VersionSet;

/**
 * One compaction: the files of a level ({@code inputs(0)}) and the overlapping files of the next
 * level ({@code inputs(1)}) to merge into new files of the next level, the files of the level
 * after that ("grandparents") that outputs should not overlap too much, and the edit being
 * prepared.
 *
 * <p>Thread safety: confined to the thread running the compaction. The input version is
 * immutable.
 *
 * <p>Lifetime: holds a reference on the version it was picked from until
 * {@link #releaseInputs()}.
 */
public final class Compaction {
    private final int level;
    private final long maxOutputFileSize;
    private final long maxGrandParentOverlapBytes;
    private final InternalKeyComparator icmp;
    private final Version inputVersion;
    private final VersionEdit edit = new VersionEdit();
    final List<FileMetaData> inputs0 = new ArrayList<>();
    final List<FileMetaData> inputs1 = new ArrayList<>();
    final List<FileMetaData> grandparents = new ArrayList<>();

    // State of shouldStopBefore.
    private int grandparentIndex;
    private boolean seenKey;
    private long overlappedBytes;
    // State of isBaseLevelForKey: per level, the index of the first file that may hold the key.
    private final int[] levelPointers = new int[VersionSet.NUM_LEVELS];
    private boolean released;

    Compaction(VersionSet vset, Version version, int level) {
        this.level = level;
        this.maxOutputFileSize = vset.maxFileSize();
        this.maxGrandParentOverlapBytes = vset.maxGrandParentOverlapBytes();
        this.icmp = vset.icmp();
        this.inputVersion = version;
        version.ref();
    }

    /** @return the level whose files are compacted into the next one */
    public int level() {
        return level;
    }

    /** @return the version the inputs were picked from */
    public Version inputVersion() {
        return inputVersion;
    }

    /** @return the edit collecting this compaction's result */
    public VersionEdit edit() {
        return edit;
    }

    /**
     * The input files of the compacted level (0) or of the next one (1).
     *
     * @param which 0 or 1
     * @return the files
     */
    public List<FileMetaData> inputs(int which) {
        return which == 0 ? inputs0 : inputs1;
    }

    /** @return the files of the level after the output level that the inputs overlap */
    List<FileMetaData> grandparentsForTest() {
        return grandparents;
    }

    /** @return the size at which an output file is closed */
    public long maxOutputFileSize() {
        return maxOutputFileSize;
    }

    /**
     * Tells whether the compaction is a single file moved to the next level unchanged: one input,
     * nothing to merge with, and not too much grandparent overlap.
     *
     * @return {@code true} for a trivial move
     */
    public boolean isTrivialMove() {
        return inputs0.size() == 1 && inputs1.isEmpty()
                && Version.totalFileSize(grandparents) <= maxGrandParentOverlapBytes;
    }

    /**
     * Records the removal of every input file in an edit.
     *
     * @param target the edit
     */
    public void addInputDeletions(VersionEdit target) {
        for (FileMetaData f : inputs0) {
            target.deleteFile(level, f.number());
        }
        for (FileMetaData f : inputs1) {
            target.deleteFile(level + 1, f.number());
        }
    }

    /**
     * Tells whether no level below the output level can hold a user key, so a deletion marker
     * for it may be dropped. Requires: keys are asked in increasing order.
     *
     * @param userKey the user key
     * @return {@code true} when the output level is the deepest holding the key
     */
    public boolean isBaseLevelForKey(ByteBuffer userKey) {
        KeyComparator ucmp = icmp.userComparator();
        for (int lvl = level + 2; lvl < VersionSet.NUM_LEVELS; lvl++) {
            List<FileMetaData> files = inputVersion.files(lvl);
            while (levelPointers[lvl] < files.size()) {
                FileMetaData f = files.get(levelPointers[lvl]);
                if (compareUser(ucmp, userKey, f.largest()) <= 0) {
                    if (compareUser(ucmp, userKey, f.smallest()) >= 0) {
                        return false;
                    }
                    break;
                }
                levelPointers[lvl]++;
            }
        }
        return true;
    }

    /**
     * Tells whether the current output should be closed before {@code internalKey} is added,
     * because it already overlaps too many grandparent bytes. Requires: keys are asked in
     * increasing order.
     *
     * @param internalKey the next key (remaining bytes)
     * @return {@code true} to start a new output first
     */
    public boolean shouldStopBefore(ByteBuffer internalKey) {
        while (grandparentIndex < grandparents.size()) {
            byte[] largest = grandparents.get(grandparentIndex).largest();
            if (icmp.compare(internalKey, internalKey.position(), internalKey.remaining(),
                    ByteBuffer.wrap(largest), 0, largest.length) <= 0) {
                break;
            }
            if (seenKey) {
                overlappedBytes += grandparents.get(grandparentIndex).fileSize();
            }
            grandparentIndex++;
        }
        seenKey = true;
        if (overlappedBytes > maxGrandParentOverlapBytes) {
            overlappedBytes = 0;
            return true;
        }
        return false;
    }

    /** Drops the reference on the input version. Idempotent. */
    public void releaseInputs() {
        if (!released) {
            released = true;
            inputVersion.unref();
        }
    }

    private static int compareUser(KeyComparator ucmp, ByteBuffer userKey, byte[] internalKey) {
        return ucmp.compare(userKey, userKey.position(), userKey.remaining(), ByteBuffer.wrap(internalKey), 0,
                internalKey.length - 8);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Compaction[level ").append(level).append(": ");
        inputs0.forEach(f -> sb.append('#').append(f.number()).append(' '));
        sb.append("+ level ").append(level + 1).append(": ");
        inputs1.forEach(f -> sb.append('#').append(f.number()).append(' '));
        return sb.append(']').toString();
    }
}
