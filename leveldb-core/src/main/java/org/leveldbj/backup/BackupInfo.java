package org.leveldbj.backup;

import java.time.Instant;

/**
 * What a backup is: its id, when it was made, what it holds and how much of it was new.
 *
 * <p>Thread safety: immutable.
 *
 * @param id the backup's id, from 1
 * @param time when it was made
 * @param sequence the last sequence number it holds: every write with a sequence number at or
 *     below it, none above
 * @param size the bytes of all its files
 * @param fileCount how many files it has (tables, value files, its log, MANIFEST and CURRENT)
 * @param newBytes the bytes it stored that no earlier backup held (its own log, MANIFEST and
 *     CURRENT included); {@code size - newBytes} it shares with backups made before it
 * @param newFiles how many files those are
 * @param database the absolute path of the database it was made from
 * @param libraryVersion the version of leveldbj that made it
 * @param formatVersion the format of its meta file
 */
public record BackupInfo(int id, Instant time, long sequence, long size, int fileCount, long newBytes, int newFiles,
                         String database, String libraryVersion, int formatVersion) {
}
