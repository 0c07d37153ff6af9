package org.leveldbj.stress;

/**
 * One write of a stress thread as its expected-state log records it: the operation number
 * (unique per thread, increasing across rounds), what it wrote, whether it was synced, and when
 * it was started and acknowledged ({@link System#nanoTime()} of the stress process, comparable
 * only within one round). Immutable.
 *
 * @param number the operation number; its values carry it
 * @param kind put, delete, a batch or a transaction's commit
 * @param sync whether it was written with {@code sync}
 * @param unlogged whether it was written with {@code disableWal}: it survives a crash only when a
 *     table holds it (its memtable was flushed), never by the log
 * @param keys the key indexes it writes, in the thread's key space
 * @param deletes for each key, whether it is deleted (else put with a value of this operation)
 * @param intentNanos when the write was about to start
 * @param ackNanos when the write returned, or {@code -1} when it was in flight at the kill
 */
record Op(long number, Kind kind, boolean sync, boolean unlogged, int[] keys, boolean[] deletes, long intentNanos, long ackNanos) {
    /** What an operation writes. A transaction's commit is all or nothing, as a batch. */
    enum Kind {
        /** One put. */
        PUT,
        /** One deletion. */
        DELETE,
        /** A write batch: all or nothing. */
        BATCH,
        /** A transaction's commit: all or nothing, as a batch. */
        TRANSACTION,
        /** A table file of puts and deletions, ingested: all or nothing, durable once acknowledged. */
        INGEST;

        /** Whether the operation writes several keys at once, all or none. */
        boolean atomic() {
            return this == BATCH || this == TRANSACTION || this == INGEST;
        }
    }

    Op {
        assert keys.length == deletes.length && keys.length > 0;
        assert !(sync && unlogged);
    }

    boolean acked() {
        return ackNanos >= 0;
    }

    Op withAck(long nanos) {
        return new Op(number, kind, sync, unlogged, keys, deletes, intentNanos, nanos);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder().append(kind.name().toLowerCase()).append(" op ").append(number)
                .append(sync ? " (sync" : unlogged ? " (no log" : " (no sync").append(acked() ? ", acknowledged)" : ", in flight)")
                .append(" [");
        for (int i = 0; i < keys.length; i++) {
            b.append(i == 0 ? "" : " ").append(deletes[i] ? "del " : "put ").append(keys[i]);
        }
        return b.append(']').toString();
    }
}
