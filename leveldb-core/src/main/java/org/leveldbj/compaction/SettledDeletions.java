package org.leveldbj.compaction;

import org.iq80.leveldb.DBException;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.TableSource;

/**
 * Decides which deletions a compaction writes are <em>settled</em> in its outputs' stats blocks
 * ({@link EntryCounts}): those that no longer hide a value anywhere, so that an estimate of the
 * live entries does not subtract them.
 *
 * <ul>
 *   <li>A deletion kept above an older value of its key that the compaction drops took that
 *       value along: settled.</li>
 *   <li>A deletion kept above an older value the compaction keeps too (for a snapshot) hides it
 *       in the same output: not settled.</li>
 *   <li>A deletion that meets no older value of its key is passed on as it came: whether it
 *       was settled in its input table is not recorded per entry, so the compaction settles the
 *       same share of such deletions as its inputs' stats blocks hold (deterministically, by an
 *       accumulated fraction). A deletion settled once stays settled, on average, as it moves
 *       down the levels, until the last level drops it.</li>
 * </ul>
 * A deletion whose value is dropped after the output that holds it was finished (the versions of
 * one key split between two outputs) stays unsettled: rare, and the estimate is lower by one.
 *
 * <p>Thread safety: confined to the compaction's thread.
 */
final class SettledDeletions {
    /** The share of the inputs' deletions that were settled. */
    private final double inheritedShare;
    /** The fraction of a settled deletion owed to the deletions passed on so far. */
    private double owed;
    /** The output holding the current key's last kept entry when that is a deletion not decided yet. */
    private TableFileWriter pendingIn;

    /**
     * Reads the inputs' counts (from their metadata, or their stats blocks).
     *
     * @param c the compaction
     * @param tables how to read the input tables' stats blocks
     */
    SettledDeletions(Compaction c, TableSource tables) {
        long deletions = 0;
        long settled = 0;
        for (int which = 0; which < 2; which++) {
            for (FileMetaData f : c.inputs(which)) {
                EntryCounts counts = f.entryCounts();
                if (counts == null && !f.entryCountsUnavailable()) {
                    try {
                        counts = tables.entryCounts(f.number(), f.fileSize(), damage -> { });
                    } catch (DBException unreadable) {
                        counts = null; // the merge will report it
                    }
                    if (counts != null) {
                        f.setEntryCounts(counts);
                    }
                }
                if (counts != null) {
                    deletions += counts.deletions();
                    settled += counts.settledDeletions();
                }
            }
        }
        this.inheritedShare = deletions == 0 ? 0 : (double) settled / deletions;
    }

    /**
     * The next entry is of another user key (or a corrupt key): the last key's pending deletion
     * met no older value.
     *
     * @param out the output being written, or {@code null}
     */
    void newKey(TableFileWriter out) {
        passOn(out);
    }

    /**
     * An entry of the current key was written.
     *
     * @param deletion whether it is a deletion
     * @param out the output it went to
     */
    void kept(boolean deletion, TableFileWriter out) {
        if (deletion) {
            passOn(out); // a deletion above a deletion: the older one hides what it hid
            pendingIn = out;
        } else {
            pendingIn = null; // hidden by the pending deletion in the same outputs: not settled
        }
    }

    /**
     * An older value of the current key was dropped as shadowed.
     *
     * @param out the output being written, or {@code null}
     */
    void droppedValue(TableFileWriter out) {
        if (pendingIn != null && pendingIn == out) {
            out.settleDeletion();
        }
        pendingIn = null;
    }

    /**
     * The input is exhausted, or the current output is about to be finished.
     *
     * @param out the output being written, or {@code null}
     */
    void flush(TableFileWriter out) {
        passOn(out);
    }

    /** The pending deletion met no value: settled by the inputs' share. */
    private void passOn(TableFileWriter out) {
        if (pendingIn == null) {
            return;
        }
        owed += inheritedShare;
        if (owed >= 1) {
            owed -= 1;
            if (pendingIn == out) {
                out.settleDeletion();
            }
        }
        pendingIn = null;
    }
}
