package org.leveldbj.version;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.key.InternalKeyComparator;

/**
 * Applies a sequence of edits to a base version without building the intermediate versions
 * (C++ VersionSet::Builder): files added and removed per level are accumulated, then merged
 * with the base's files in key order.
 *
 * <p>Edits also move the version set's compact pointers, as they are applied.
 *
 * <p>Thread safety: confined to one thread; requires the version set's lock while
 * {@link #apply} updates compact pointers.
 */
final class VersionBuilder {
    private final VersionSet vset;
    private final Version base;
    private final List<Set<Long>> deleted = new ArrayList<>();
    private final List<TreeSet<FileMetaData>> added = new ArrayList<>();
    private final Comparator<FileMetaData> bySmallest;

    VersionBuilder(VersionSet vset, Version base) {
        this.vset = vset;
        this.base = base;
        InternalKeyComparator icmp = vset.icmp();
        this.bySmallest = (a, b) -> {
            int c = icmp.compare(a.smallest(), b.smallest());
            return c != 0 ? c : Long.compare(a.number(), b.number());
        };
        for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
            deleted.add(new HashSet<>());
            added.add(new TreeSet<>(bySmallest));
        }
    }

    /**
     * Accumulates an edit.
     *
     * @param edit the edit
     */
    void apply(VersionEdit edit) {
        for (VersionEdit.CompactPointer p : edit.compactPointers()) {
            vset.setCompactPointer(p.level(), p.internalKey());
        }
        for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
            deleted.get(d.level()).add(d.number());
        }
        for (VersionEdit.NewFile n : edit.newFiles()) {
            deleted.get(n.level()).remove(n.file().number());
            added.get(n.level()).add(n.file());
        }
    }

    /**
     * Builds the version the base and the accumulated edits describe.
     *
     * @return a new version with its compaction score computed and no references
     * @throws CorruptionException if files of a level above 0 overlap
     */
    Version build() {
        List<List<FileMetaData>> levels = new ArrayList<>(VersionSet.NUM_LEVELS);
        for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
            List<FileMetaData> baseFiles = base.files(level);
            List<FileMetaData> out = new ArrayList<>(baseFiles.size() + added.get(level).size());
            int i = 0;
            for (FileMetaData f : added.get(level)) {
                while (i < baseFiles.size() && bySmallest.compare(baseFiles.get(i), f) < 0) {
                    maybeAdd(level, out, baseFiles.get(i++));
                }
                maybeAdd(level, out, f);
            }
            while (i < baseFiles.size()) {
                maybeAdd(level, out, baseFiles.get(i++));
            }
            levels.add(out);
        }
        Version v = new Version(vset, levels);
        v.finish();
        return v;
    }

    private void maybeAdd(int level, List<FileMetaData> out, FileMetaData f) {
        if (deleted.get(level).contains(f.number())) {
            return;
        }
        if (level > 0 && !out.isEmpty()) {
            FileMetaData last = out.get(out.size() - 1);
            if (vset.icmp().compare(last.largest(), f.smallest()) >= 0) {
                throw new CorruptionException("overlapping ranges in level " + level + ": " + last + " and " + f);
            }
        }
        out.add(f);
    }
}
