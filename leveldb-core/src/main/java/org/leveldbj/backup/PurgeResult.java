package org.leveldbj.backup;

import java.util.List;

/**
 * What {@link BackupEngine#purge} deleted.
 *
 * <p>Thread safety: immutable.
 *
 * @param deletedBackups the ids of the backups deleted, oldest first
 * @param deletedFiles how many files were deleted: those only the deleted backups held, and
 *     leftovers of backups a crash or failure interrupted
 * @param freedBytes the bytes of those files
 */
public record PurgeResult(List<Integer> deletedBackups, int deletedFiles, long freedBytes) {
    /**
     * Copies the list.
     *
     * @param deletedBackups the ids of the backups deleted, oldest first
     * @param deletedFiles how many files were deleted
     * @param freedBytes the bytes of those files
     */
    public PurgeResult {
        deletedBackups = List.copyOf(deletedBackups);
    }
}
