package org.iq80.leveldb;

import java.io.Closeable;

/**
 * A consistent, read-only view of a database at one moment, obtained from
 * {@link DB#getSnapshot()} (or from a write with {@link WriteOptions#snapshot(boolean)} set) and
 * read through {@link ReadOptions#snapshot(Snapshot)}.
 *
 * <p>Lifetime: while a snapshot is open, compactions keep every entry it can see, so close it as
 * soon as it is no longer needed, and before its database is closed. Reading through a closed
 * snapshot fails with a {@link DBException} ("snapshot is closed"); closing it again does
 * nothing.
 *
 * <p>Thread safety: a snapshot is immutable and may be read through from any number of threads;
 * it is closed once, by its owner.
 */
public interface Snapshot extends Closeable {
}
