package org.leveldbj.engine;

import org.leveldbj.key.ValueType;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.vlog.ValueReference;

/**
 * Adds the records of a {@link WriteBatchImpl} to a memtable without copying them, numbering them
 * consecutively from the batch's sequence number: C++ LevelDB's {@code MemTableInserter}. It
 * lives beside the batch, so that the memtable knows nothing of batches.
 *
 * <p>Thread safety: an instance is used by one thread at a time (the write leader, recovery,
 * repair), and keeps nothing between calls.
 */
final class MemTableInserter implements WriteBatchImpl.Handler {
    private static final byte[] EMPTY = new byte[0];

    private MemTable mem;
    private long sequence;
    /** Deletions among the records of the last batch inserted. */
    private int deletions;

    /**
     * Adds every record of a batch. A malformed batch throws part-way, after the records before
     * the bad one were added.
     *
     * <p>Requires: the memtable's single writer and a reference on it.
     *
     * @param batch the batch
     * @param memTable where the records go
     * @return the sequence number following the batch's last record
     * @throws org.iq80.leveldb.CorruptionException if the batch is malformed
     * @throws IllegalStateException if the memtable is released (and the batch not empty)
     */
    long insert(WriteBatchImpl batch, MemTable memTable) {
        mem = memTable;
        sequence = batch.sequence();
        deletions = 0;
        try {
            batch.forEach(this);
        } finally {
            mem = null;
        }
        return sequence;
    }

    @Override
    public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
        mem.add(sequence++, ValueType.VALUE, data, keyOffset, keyLength, data, valueOffset, valueLength);
    }

    @Override
    public void putReference(byte[] data, int keyOffset, int keyLength, int referenceOffset, int referenceLength) {
        // Noted first: once the entry is visible, its file is known to be in use.
        mem.noteValueFile(ValueReference.decode(data, referenceOffset, referenceLength).fileNumber());
        mem.add(sequence++, ValueType.VALUE_REFERENCE, data, keyOffset, keyLength, data, referenceOffset, referenceLength);
    }

    /** @return how many records of the last batch inserted were deletions (the rest were puts) */
    int deletions() {
        return deletions;
    }

    @Override
    public void delete(byte[] data, int keyOffset, int keyLength) {
        deletions++;
        mem.add(sequence++, ValueType.DELETION, data, keyOffset, keyLength, EMPTY, 0, 0);
    }
}
