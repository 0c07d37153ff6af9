package org.leveldbj.stats;

/** Why a compaction ran, as the {@code org.leveldbj.Compaction} event names it. */
public enum CompactionReason {
    /** A level outgrew its target (level 0: too many tables). */
    SIZE("size"),
    /** A table was read past too often without holding the key (its seek budget ran out). */
    SEEK("seek"),
    /** {@code compactRange}, or the value collector's rewrite. */
    MANUAL("manual"),
    /** A size compaction whose one input moved to the next level without being rewritten. */
    TRIVIAL_MOVE("trivial-move");

    private final String label;

    CompactionReason(String label) {
        this.label = label;
    }

    /** @return the name events give the reason */
    public String label() {
        return label;
    }
}
