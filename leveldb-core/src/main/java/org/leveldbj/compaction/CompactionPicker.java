package org.leveldbj.compaction;

import java.util.ArrayList;
import java.util.List;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionSet;

/**
 * Chooses what to compact, following C++ LevelDB: a size compaction of the level with the
 * highest score (at least 1), starting after the level's compact pointer and wrapping around;
 * otherwise a seek compaction of a file whose seek budget ran out. Level-0 inputs grow to every
 * level-0 file they transitively overlap; the upper inputs grow further when that pulls in no
 * extra file of the next level and stays under {@link VersionSet#expandedCompactionByteSizeLimit()}.
 *
 * <p>Thread safety: stateless; requires the version set's lock (compact pointers are read and
 * moved).
 */
public final class CompactionPicker {
    private CompactionPicker() {
    }

    /**
     * Picks the next automatic compaction.
     *
     * @param vset the version set
     * @return a compaction holding a reference on the current version, or {@code null} when
     *     none is needed
     */
    public static Compaction pick(VersionSet vset) {
        Version current = vset.current();
        InternalKeyComparator icmp = vset.icmp();
        Compaction c;
        if (current.compactionScore() >= 1) {
            int level = current.compactionLevel();
            assert level >= 0 && level + 1 < VersionSet.NUM_LEVELS;
            c = new Compaction(vset, current, level);
            byte[] pointer = vset.compactPointer(level);
            for (FileMetaData f : current.files(level)) {
                if (pointer == null || icmp.compare(f.largest(), pointer) > 0) {
                    c.inputs0.add(f);
                    break;
                }
            }
            if (c.inputs0.isEmpty()) {
                c.inputs0.add(current.files(level).get(0));
            }
        } else if (current.fileToCompact() != null) {
            c = new Compaction(vset, current, current.fileToCompactLevel());
            c.inputs0.add(current.fileToCompact());
        } else {
            return null;
        }
        if (c.level() == 0) {
            byte[][] range = range(icmp, c.inputs0);
            c.inputs0.clear();
            c.inputs0.addAll(current.getOverlappingInputs(0, range[0], range[1]));
            assert !c.inputs0.isEmpty();
        }
        setupOtherInputs(vset, c);
        return c;
    }

    /**
     * Picks a manual compaction of the files of a level overlapping a range. Above level 0 the
     * inputs are cut once they reach the target file size, so one step does a bounded amount of
     * work; the caller repeats from the last input's largest key.
     *
     * @param vset the version set
     * @param level the level
     * @param begin the range start (internal key), or {@code null}
     * @param end the range end (internal key), or {@code null}
     * @return the compaction, or {@code null} when nothing in the level overlaps the range
     */
    public static Compaction compactRange(VersionSet vset, int level, byte[] begin, byte[] end) {
        Version current = vset.current();
        List<FileMetaData> inputs = current.getOverlappingInputs(level, begin, end);
        if (inputs.isEmpty()) {
            return null;
        }
        if (level > 0) {
            long limit = vset.maxFileSize();
            long total = 0;
            for (int i = 0; i < inputs.size(); i++) {
                total += inputs.get(i).fileSize();
                if (total >= limit) {
                    inputs = new ArrayList<>(inputs.subList(0, i + 1));
                    break;
                }
            }
        }
        Compaction c = new Compaction(vset, current, level);
        c.inputs0.addAll(inputs);
        setupOtherInputs(vset, c);
        return c;
    }

    /**
     * Picks a rewrite of a level's files in place: the files of {@code level} (at least 1) that
     * start after {@code after}, up to the target size, as the next-level inputs of a compaction
     * of the level above that has no inputs of its own, so that the outputs replace them in
     * their level. A rewrite drops what no reader needs (entries shadowed within the level) and
     * moves separated values out of files being reclaimed. The caller repeats from the last
     * input's largest key.
     *
     * @param vset the version set
     * @param level the level, 1 or more
     * @param after rewrite files whose smallest key is after this internal key; {@code null}
     *     from the first
     * @return the compaction, or {@code null} when no file is left
     */
    public static Compaction rewriteLevel(VersionSet vset, int level, byte[] after) {
        return rewriteLevel(vset, level, after, null, null);
    }

    /**
     * Picks a rewrite in place, as {@link #rewriteLevel(VersionSet, int, byte[])} does, of
     * only the files of the level that overlap a range.
     *
     * @param vset the version set
     * @param level the level, 1 or more
     * @param after rewrite files whose smallest key is after this internal key; {@code null}
     *     from the first
     * @param begin skip files wholly before this internal key; {@code null} for no bound
     * @param end stop at files wholly after this internal key; {@code null} for no bound
     * @return the compaction, or {@code null} when no file is left
     */
    public static Compaction rewriteLevel(VersionSet vset, int level, byte[] after, byte[] begin, byte[] end) {
        if (level < 1) {
            throw new IllegalArgumentException("level 0 cannot be rewritten in place");
        }
        Version current = vset.current();
        InternalKeyComparator icmp = vset.icmp();
        Compaction c = new Compaction(vset, current, level - 1);
        long limit = vset.maxFileSize();
        long total = 0;
        for (FileMetaData f : current.files(level)) {
            if ((after != null && icmp.compare(f.smallest(), after) <= 0)
                    || (begin != null && icmp.compare(f.largest(), begin) < 0)) {
                continue;
            }
            if (end != null && icmp.compare(f.smallest(), end) > 0) {
                break;
            }
            c.inputs1.add(f);
            total += f.fileSize();
            if (total >= limit) {
                break;
            }
        }
        if (c.inputs1.isEmpty()) {
            c.releaseInputs();
            return null;
        }
        // A user key whose entries continue into the next file must be rewritten whole: else a
        // deletion could be dropped here while the value it hides stays in the next file.
        addBoundaryInputs(icmp, current.files(level), c.inputs1);
        return c;
    }

    static void setupOtherInputs(VersionSet vset, Compaction c) {
        InternalKeyComparator icmp = vset.icmp();
        Version current = c.inputVersion();
        int level = c.level();
        addBoundaryInputs(icmp, current.files(level), c.inputs0);
        byte[][] range = range(icmp, c.inputs0);
        c.inputs1.addAll(current.getOverlappingInputs(level + 1, range[0], range[1]));
        addBoundaryInputs(icmp, current.files(level + 1), c.inputs1);
        byte[][] all = range2(icmp, c.inputs0, c.inputs1);

        if (!c.inputs1.isEmpty()) {
            List<FileMetaData> expanded0 = current.getOverlappingInputs(level, all[0], all[1]);
            addBoundaryInputs(icmp, current.files(level), expanded0);
            long inputs1Size = Version.totalFileSize(c.inputs1);
            long expanded0Size = Version.totalFileSize(expanded0);
            if (expanded0.size() > c.inputs0.size()
                    && inputs1Size + expanded0Size < vset.expandedCompactionByteSizeLimit()) {
                byte[][] newRange = range(icmp, expanded0);
                List<FileMetaData> expanded1 = current.getOverlappingInputs(level + 1, newRange[0], newRange[1]);
                addBoundaryInputs(icmp, current.files(level + 1), expanded1);
                if (expanded1.size() == c.inputs1.size()) {
                    c.inputs0.clear();
                    c.inputs0.addAll(expanded0);
                    c.inputs1.clear();
                    c.inputs1.addAll(expanded1);
                    range = newRange;
                    all = range2(icmp, c.inputs0, c.inputs1);
                }
            }
        }
        if (level + 2 < VersionSet.NUM_LEVELS) {
            c.grandparents.addAll(current.getOverlappingInputs(level + 2, all[0], all[1]));
        }
        // The next compaction of this level starts after this one's largest key. The pointer is
        // recorded in the edit too, so that it survives a restart.
        vset.setCompactPointer(level, range[1]);
        c.edit().setCompactPointer(level, range[1]);
    }

    /**
     * Adds the files of a level that share a user key with the largest key of the compaction
     * files and sort after it, repeatedly. Otherwise a newer entry of that user key would be
     * compacted down while an older one stays above, and reads would find the older one.
     *
     * @param icmp the internal-key order
     * @param levelFiles the files of the level
     * @param compactionFiles the chosen files of that level; extended in place
     */
    static void addBoundaryInputs(InternalKeyComparator icmp, List<FileMetaData> levelFiles,
                                  List<FileMetaData> compactionFiles) {
        byte[] largest = largestKey(icmp, compactionFiles);
        if (largest == null) {
            return;
        }
        while (true) {
            FileMetaData boundary = null;
            for (FileMetaData f : levelFiles) {
                if (icmp.compare(f.smallest(), largest) > 0 && icmp.compareUserKeys(f.smallest(), largest) == 0
                        && (boundary == null || icmp.compare(f.smallest(), boundary.smallest()) < 0)) {
                    boundary = f;
                }
            }
            if (boundary == null) {
                return;
            }
            compactionFiles.add(boundary);
            largest = boundary.largest();
        }
    }

    private static byte[] largestKey(InternalKeyComparator icmp, List<FileMetaData> files) {
        byte[] largest = null;
        for (FileMetaData f : files) {
            if (largest == null || icmp.compare(f.largest(), largest) > 0) {
                largest = f.largest();
            }
        }
        return largest;
    }

    /** The smallest and largest internal keys of non-empty file lists. */
    static byte[][] range(InternalKeyComparator icmp, List<FileMetaData> files) {
        assert !files.isEmpty();
        byte[] smallest = null;
        byte[] largest = null;
        for (FileMetaData f : files) {
            if (smallest == null || icmp.compare(f.smallest(), smallest) < 0) {
                smallest = f.smallest();
            }
            if (largest == null || icmp.compare(f.largest(), largest) > 0) {
                largest = f.largest();
            }
        }
        return new byte[][] {smallest, largest};
    }

    private static byte[][] range2(InternalKeyComparator icmp, List<FileMetaData> a, List<FileMetaData> b) {
        List<FileMetaData> all = new ArrayList<>(a);
        all.addAll(b);
        return range(icmp, all);
    }
}
