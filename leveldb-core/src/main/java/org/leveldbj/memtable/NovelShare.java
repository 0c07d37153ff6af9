package org.leveldbj.memtable;

/**
 * The share of a memtable's live keys found new to the database (not live in the immutable
 * memtable or the tables) by looking a sample of them up, and how many live keys the memtable
 * held then: an estimate of the live keys reuses it until the memtable has grown enough to
 * sample again.
 *
 * @param atLiveKeys the memtable's live keys when the sample was drawn
 * @param share the share found, 0 to 1
 */
public record NovelShare(long atLiveKeys, double share) {
}
