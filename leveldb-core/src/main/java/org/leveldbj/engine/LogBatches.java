package org.leveldbj.engine;

import java.io.IOException;
import org.leveldbj.key.ValueType;
import org.leveldbj.log.LogWriter;

/**
 * Writes entries to a log as write batches of about {@value #BATCH_BYTES} bytes, numbered in
 * order from a first sequence number, as a copy's log is made ({@link LiveFiles}): each batch
 * starts where the previous one's numbers end, so the log's sequence numbers only increase.
 *
 * <p>Thread safety: confined to one thread. Lifetime: {@link #finish()} writes the last batch;
 * {@link #close()} releases the batch buffer (not the log).
 */
final class LogBatches implements AutoCloseable {
    /** The size at which a batch is written and the next begun. */
    static final int BATCH_BYTES = 1 << 20;

    private final LogWriter log;
    private final WriteBatchImpl batch = new WriteBatchImpl();
    private long nextSequence;
    private long entries;

    /**
     * @param log the log to write to
     * @param firstSequence the sequence number of the first entry
     */
    LogBatches(LogWriter log, long firstSequence) {
        this.log = log;
        this.nextSequence = firstSequence;
    }

    /**
     * Adds an entry, writing the batch first when it is full.
     *
     * @param type the entry's type
     * @param key the user key
     * @param value the value (ignored for a deletion)
     * @throws IOException if writing the log fails
     */
    void add(ValueType type, byte[] key, byte[] value) throws IOException {
        if (batch.approximateSize() >= BATCH_BYTES) {
            finish();
        }
        batch.addRecord(type, key, 0, key.length, value, 0, value.length);
        entries++;
    }

    /**
     * Writes the batch begun, if any.
     *
     * @throws IOException if writing the log fails
     */
    void finish() throws IOException {
        if (batch.size() == 0) {
            return;
        }
        batch.setSequence(nextSequence);
        log.addRecord(batch.contents());
        nextSequence += batch.size();
        batch.clear();
    }

    /** @return the entries added so far */
    long entries() {
        return entries;
    }

    @Override
    public void close() {
        batch.close();
    }
}
