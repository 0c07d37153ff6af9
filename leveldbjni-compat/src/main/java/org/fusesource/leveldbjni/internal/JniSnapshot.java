package org.fusesource.leveldbjni.internal;

import java.io.IOException;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;

/**
 * leveldbjni 1.8's snapshot class, the type of the snapshots {@link JniDB} returns, around a
 * snapshot of this project's engine; reads whose {@link ReadOptions#snapshot()} is one read
 * the engine's. As in leveldbjni, no application creates one: its constructor is not public.
 *
 * <p>Thread safety: safe for concurrent use, as the engine's snapshot. Lifetime: closed by
 * {@link #close()}, before its database.
 */
public class JniSnapshot implements Snapshot {
    private final Snapshot snapshot;

    JniSnapshot(Snapshot snapshot) {
        this.snapshot = snapshot;
    }

    /** A {@code JniSnapshot} around {@code snapshot}, or {@code null} for {@code null}. */
    static Snapshot wrap(Snapshot snapshot) {
        return snapshot == null ? null : new JniSnapshot(snapshot);
    }

    /**
     * Read options the engine takes: {@code options} itself, or, when its snapshot is a
     * {@code JniSnapshot}, a copy naming the engine's snapshot.
     */
    static ReadOptions unwrap(ReadOptions options) {
        if (options == null || !(options.snapshot() instanceof JniSnapshot)) {
            return options;
        }
        return new ReadOptions()
                .snapshot(((JniSnapshot) options.snapshot()).snapshot)
                .fillCache(options.fillCache())
                .verifyChecksums(options.verifyChecksums());
    }

    /**
     * Releases the snapshot; as in leveldbjni it declares no checked exception.
     *
     * @throws org.iq80.leveldb.DBException if the engine fails to release it
     */
    @Override
    public void close() {
        try {
            snapshot.close();
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "JniSnapshot(" + snapshot + ")";
    }
}
