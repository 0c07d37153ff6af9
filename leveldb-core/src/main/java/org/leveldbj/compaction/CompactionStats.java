package org.leveldbj.compaction;

/**
 * What a compaction or flush cost, for the {@code leveldb.stats} property.
 *
 * @param micros the time spent
 * @param bytesRead the input bytes
 * @param bytesWritten the output bytes
 */
public record CompactionStats(long micros, long bytesRead, long bytesWritten) {
}
