package org.leveldbj.stress;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The kinds of kill: at a random moment, or inside one engine activity, recognised by the name
 * of the file being written and by the innermost engine frame of the calling thread's stack
 * (so the engine needs no hooks). A flush that a compaction triggers counts as a flush, a
 * MANIFEST write inside a flush as a MANIFEST write: the innermost activity wins.
 *
 * <p>Immutable.
 */
enum KillPoint {
    /** SIGKILL from the driver after a random time. */
    RANDOM(null, null),
    /** Writing a level-0 table from the memtable. */
    FLUSH("org.leveldbj.engine.MemTableFlush", "flushImmutable"),
    /** Writing the output tables of a compaction. */
    COMPACTION("org.leveldbj.compaction.CompactionJob", "run"),
    /** Appending to or syncing a MANIFEST, or pointing CURRENT at a new one. */
    MANIFEST("org.leveldbj.version.VersionSet", "logAndApply"),
    /** Any file change of a repair. */
    REPAIR("org.leveldbj.engine.Repairer", "run"),
    /** Any file change of a checkpoint: links, copies, its log and MANIFEST, the final rename. */
    CHECKPOINT("org.leveldbj.engine.Checkpoint", "make"),
    /** Any file change of a backup being made: shared files, its own files, its meta file. */
    BACKUP("org.leveldbj.backup.BackupCreation", "make"),
    /** Any file change of a purge of backups: meta files, then the files no backup holds. */
    PURGE("org.leveldbj.backup.BackupEngine", "purgeLocked"),
    /**
     * A log change made by a transaction's commit, after its check passed: appending the
     * transaction's batch (and any writes grouped behind it) to the log, syncing it, or starting
     * a new log when the memtable is full.
     */
    COMMIT("org.leveldbj.engine.DbImpl", "writeChecked"),
    /**
     * Any table or log change of an ingestion on the calling thread: the memtable switch or the
     * log sync, the tables copied, linked or rewritten into the directory, the removal of moved
     * originals. Its commit (a MANIFEST write in a background step) is a {@link #MANIFEST} kill.
     */
    INGEST("org.leveldbj.engine.Ingestion", "run");

    private static final StackWalker WALKER = StackWalker.getInstance();

    private final String className;
    private final String methodName;

    KillPoint(String className, String methodName) {
        this.className = className;
        this.methodName = methodName;
    }

    /** @return the engine class whose method marks this point's activity, or null for {@link #RANDOM} */
    String className() {
        return className;
    }

    /** @return the method of {@link #className()} that marks this point's activity, or null */
    String methodName() {
        return methodName;
    }

    /** Whether a change to this file can belong to this activity. */
    boolean matchesFile(Path file) {
        String name = String.valueOf(file.getFileName());
        switch (this) {
            case FLUSH:
            case COMPACTION:
                return name.endsWith(".ldb") || name.endsWith(".sst");
            case MANIFEST:
                return name.startsWith("MANIFEST-") || name.equals("CURRENT") || name.endsWith(".dbtmp");
            case REPAIR:
                return true;
            case INGEST:
                return name.endsWith(".ldb") || name.endsWith(".sst") || name.endsWith(".log");
            case CHECKPOINT:
                return String.valueOf(file).contains(".checkpoint-tmp"); // built there, then renamed
            case BACKUP:
            case PURGE:
                return String.valueOf(file).contains("/backups/");
            case COMMIT:
                return name.endsWith(".log");
            default:
                return false;
        }
    }

    /** Whether the calling thread is inside this activity (its innermost engine activity). */
    boolean onStack() {
        Optional<KillPoint> innermost = WALKER.walk(frames -> frames
                .map(f -> of(f.getClassName(), f.getMethodName()))
                .filter(p -> p != null)
                .findFirst());
        return innermost.orElse(null) == this;
    }

    private static KillPoint of(String className, String methodName) {
        for (KillPoint p : values()) {
            if (className.equals(p.className) && methodName.equals(p.methodName)) {
                return p;
            }
        }
        return null;
    }
}
