package org.leveldbj.backup;

/**
 * Told how far an operation of {@link BackupEngine} has come, in bytes read or copied, so that a
 * tool can draw a progress bar.
 *
 * <p>Thread safety: called on the thread that runs the operation, after each chunk of at most
 * 64 KiB; it must return quickly and must not call the engine.
 */
@FunctionalInterface
public interface BackupProgress {
    /** Ignores every report. */
    BackupProgress NONE = (done, total) -> {
    };

    /**
     * Reports progress.
     *
     * @param doneBytes the bytes done so far, from 0 up to {@code totalBytes}
     * @param totalBytes the bytes the operation reads or copies in all (for a backup, those of
     *     the files it copies, known once it has decided which files are new)
     */
    void progress(long doneBytes, long totalBytes);
}
