package org.leveldbj.engine;

import java.util.concurrent.atomic.AtomicInteger;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.version.Version;

/**
 * What a read consults, fixed: the memtable, the immutable memtable (or none) and the current
 * version, as they stood together at one moment. The database publishes a new view whenever one
 * of the three changes, and readers pin the published view without taking the database lock.
 *
 * <p>Lifetime: a view holds a reference on each of its three parts, and is itself counted: one
 * reference for the database while the view is the published one, one for each reader pinning
 * it. When the count reaches zero the view drops its parts, and it can never be pinned again
 * ({@link #tryPin()} refuses once the count has reached zero), so a reader that loses the race
 * with a newer view simply reads the newer one.
 *
 * <p>Consistency: a reader reads its sequence number before pinning the view. Every write at or
 * below that number is then in the pinned view's memtables or in its version, because a write is
 * applied to the memtable current when it is made, and a memtable leaves a view only for a
 * newer view that has it as the immutable memtable or has its table in the version.
 *
 * <p>Thread safety: immutable apart from the count; safe for concurrent use.
 */
final class ReadView {
    final MemTable mem;
    final MemTable imm;
    final Version version;
    private final AtomicInteger pins = new AtomicInteger(1);

    /**
     * Takes references on the three parts; the new view starts with the database's reference.
     *
     * @param mem the memtable
     * @param imm the immutable memtable, or {@code null}
     * @param version the current version
     */
    ReadView(MemTable mem, MemTable imm, Version version) {
        this.mem = mem;
        this.imm = imm;
        this.version = version;
        mem.ref();
        if (imm != null) {
            imm.ref();
        }
        version.ref();
    }

    /**
     * Adds a reader's reference unless the view is already released.
     *
     * @return {@code true} if pinned; the caller must then call {@link #unpin()} once
     */
    boolean tryPin() {
        int n;
        do {
            n = pins.get();
            if (n == 0) {
                return false;
            }
        } while (!pins.compareAndSet(n, n + 1));
        return true;
    }

    /** Drops a reference; the last one releases the memtables and the version. */
    void unpin() {
        int n = pins.decrementAndGet();
        if (n == 0) {
            mem.unref();
            if (imm != null) {
                imm.unref();
            }
            version.unref();
        } else if (n < 0) {
            throw new IllegalStateException("read view released too often");
        }
    }

    @Override
    public String toString() {
        return "ReadView[" + version + (imm != null ? ", with immutable memtable]" : "]");
    }
}
