package org.leveldbj.engine;

import java.util.Collection;
import org.iq80.leveldb.TransactionConflictException;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.PointLookup;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.version.Version;

/**
 * The commit-time check of an optimistic transaction: no key it read or wrote may have been
 * written after the sequence number it began at. The write queue's leader runs it
 * ({@link WriteQueue#write(WriteBatchImpl, boolean, boolean, ConflictCheck)}) once every earlier
 * write is in the memtable and before it numbers its own group, so that no write can come
 * between the check and the transaction's write.
 *
 * <p>For each key, it finds the newest entry (a value or a deletion) in the memtable, the
 * immutable memtable, then the tables, level by level, as a point lookup at the newest sequence
 * number does, and compares that entry's sequence number with the transaction's. Compaction
 * keeps that entry: it is newer than the transaction's snapshot, which is open until the commit.
 *
 * <p>Thread safety: run by one thread (the leader); the keys must not change meanwhile.
 */
final class ConflictCheck {
    private final Collection<byte[]> readKeys;
    private final Collection<byte[]> writtenKeys;
    private final long beginSequence;

    /**
     * Creates a check.
     *
     * @param readKeys the keys read
     * @param writtenKeys the keys written
     * @param beginSequence the sequence number the transaction read at
     */
    ConflictCheck(Collection<byte[]> readKeys, Collection<byte[]> writtenKeys, long beginSequence) {
        this.readKeys = readKeys;
        this.writtenKeys = writtenKeys;
        this.beginSequence = beginSequence;
    }

    /**
     * Runs the check on what the database holds now. Requires: the caller is the write queue's
     * leader (no write can be applied meanwhile); no lock needs to be held.
     *
     * @param s the database
     * @throws TransactionConflictException naming the first key found written after the
     *     transaction began
     */
    void run(DbState s) {
        ReadView view = s.pinReadView();
        try {
            PointLookup lookup = new PointLookup();
            Version.GetStats stats = new Version.GetStats();
            check(readKeys, view, lookup, stats);
            check(writtenKeys, view, lookup, stats);
        } finally {
            view.unpin();
        }
    }

    private void check(Collection<byte[]> keys, ReadView view, PointLookup lookup, Version.GetStats stats) {
        for (byte[] key : keys) {
            long newest = newestSequence(key, view, lookup, stats);
            if (newest > beginSequence) {
                throw new TransactionConflictException(key, newest, beginSequence);
            }
        }
    }

    /**
     * The sequence number of the newest entry of a user key, a value or a deletion.
     *
     * @return the sequence number, or {@code -1} when no entry of the key remains
     */
    static long newestSequence(byte[] key, ReadView view, PointLookup lookup, Version.GetStats stats) {
        lookup.start(key, InternalKeys.MAX_SEQUENCE);
        try {
            if (!view.mem.get(lookup) && (view.imm == null || !view.imm.get(lookup))) {
                view.version.get(lookup, TableReadOptions.DEFAULT, stats);
            }
            return lookup.state() == PointLookup.UNSETTLED ? -1 : lookup.entrySequence();
        } finally {
            lookup.clear();
        }
    }
}
