package org.leveldbj.benchmark;

import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;

/**
 * What the runner's thin adapters (RocksDB, H2) share: the {@link DB} overloads that only add
 * default options, and the refusal of what the workloads never call (snapshots, approximate
 * sizes, suspending compactions), each with {@link UnsupportedOperationException} naming the
 * adapter. An adapter implements the rest.
 */
public abstract class PeerDb implements DB {
    private final String name;

    /**
     * @param name the peer's name, for the refusals
     */
    protected PeerDb(String name) {
        this.name = name;
    }

    @Override
    public final byte[] get(byte[] key, ReadOptions options) {
        refuseSnapshot(options);
        return get(key);
    }

    @Override
    public final DBIterator iterator(ReadOptions options) {
        refuseSnapshot(options);
        return iterator();
    }

    @Override
    public final void put(byte[] key, byte[] value) {
        put(key, value, new WriteOptions());
    }

    @Override
    public final void delete(byte[] key) {
        delete(key, new WriteOptions());
    }

    @Override
    public final void write(WriteBatch updates) {
        write(updates, new WriteOptions());
    }

    @Override
    public final Snapshot getSnapshot() {
        throw unsupported("snapshots");
    }

    @Override
    public final long[] getApproximateSizes(Range... ranges) {
        throw unsupported("approximate sizes");
    }

    @Override
    public final void suspendCompactions() {
        throw unsupported("suspendCompactions");
    }

    @Override
    public final void resumeCompactions() {
        throw unsupported("resumeCompactions");
    }

    /**
     * Refuses write options that ask for a snapshot.
     *
     * @param options the write options
     */
    protected final void refuseSnapshot(WriteOptions options) {
        if (options.snapshot()) {
            throw unsupported("snapshots");
        }
    }

    private void refuseSnapshot(ReadOptions options) {
        if (options.snapshot() != null) {
            throw unsupported("snapshots");
        }
    }

    private UnsupportedOperationException unsupported(String what) {
        return new UnsupportedOperationException(what + " through the " + name + " adapter");
    }
}
