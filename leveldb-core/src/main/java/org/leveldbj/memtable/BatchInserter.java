package org.leveldbj.memtable;

import org.leveldbj.db.WriteBatchImpl;
import org.leveldbj.key.ValueType;

/**
 * Adds the records of a {@link WriteBatchImpl} to a memtable without copying them, numbering
 * them consecutively from the batch's sequence number.
 *
 * <p>Thread safety: used only by the memtable's single writer; one instance per memtable is
 * reused for every batch.
 */
final class BatchInserter implements WriteBatchImpl.Handler {
    private static final byte[] EMPTY = new byte[0];

    private final MemTable memTable;
    private long sequence;

    BatchInserter(MemTable memTable) {
        this.memTable = memTable;
    }

    /**
     * Adds every record of a batch.
     *
     * @param batch the batch
     * @return the sequence number following the last record's
     */
    long insert(WriteBatchImpl batch) {
        sequence = batch.sequence();
        batch.forEach(this);
        return sequence;
    }

    @Override
    public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
        memTable.add(sequence++, ValueType.VALUE, data, keyOffset, keyLength, data, valueOffset, valueLength);
    }

    @Override
    public void delete(byte[] data, int keyOffset, int keyLength) {
        memTable.add(sequence++, ValueType.DELETION, data, keyOffset, keyLength, EMPTY, 0, 0);
    }
}
