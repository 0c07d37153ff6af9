package org.fusesource.leveldbjni.internal;

import java.io.IOException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;

/**
 * leveldbjni 1.8's database class, the type of every database
 * {@link org.fusesource.leveldbjni.JniDBFactory#open JniDBFactory.open} returns, so that code
 * written against leveldbjni which tests {@code db instanceof JniDB} or casts
 * ({@code ((JniDB) db).compactRange(null, null)}) compiles, links and runs unchanged. It has
 * leveldbjni's public methods with their signatures, and hands each call to a database of this
 * project's engine: results, exceptions and their messages are the engine's.
 *
 * <p>The objects it returns are leveldbjni's classes too, each around the engine's:
 * {@link JniDBIterator} from {@code iterator}, {@link JniWriteBatch} from
 * {@code createWriteBatch}, {@link JniSnapshot} from {@code getSnapshot} (and from the writes
 * whose {@link WriteOptions#snapshot()} asks for one: leveldbjni returned {@code null} there,
 * the engine returns the snapshot). {@code write} and reads through a snapshot take them back.
 *
 * <p>Left out: leveldbjni's constructor, which takes its native handles ({@code NativeDB},
 * {@code NativeCache}, {@code NativeComparator}, {@code NativeLogger}).
 *
 * <p>Thread safety: as the engine's database, safe for concurrent use. Lifetime: {@link #close()}
 * closes the engine's database; every other method afterwards throws {@link DBException}.
 */
public class JniDB implements DB {
    private final DB db;

    /**
     * Wraps a database; {@link org.fusesource.leveldbjni.JniDBFactory#open} is the usual way to
     * get one.
     *
     * @param db the engine's database, closed by {@link #close()}
     * @throws NullPointerException if {@code db} is {@code null}
     */
    public JniDB(DB db) {
        if (db == null) {
            throw new NullPointerException("db");
        }
        this.db = db;
    }

    /**
     * Closes the database; as in leveldbjni it declares no checked exception.
     *
     * @throws DBException if the engine fails to close ({@link IOErrorException} for an I/O
     *     failure)
     */
    @Override
    public void close() {
        try {
            db.close();
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + e.getMessage(), e);
        }
    }

    @Override
    public byte[] get(byte[] key) throws DBException {
        return db.get(key);
    }

    @Override
    public byte[] get(byte[] key, ReadOptions options) throws DBException {
        return db.get(key, JniSnapshot.unwrap(options));
    }

    @Override
    public DBIterator iterator() {
        return new JniDBIterator(db.iterator());
    }

    @Override
    public DBIterator iterator(ReadOptions options) {
        return new JniDBIterator(db.iterator(JniSnapshot.unwrap(options)));
    }

    @Override
    public void put(byte[] key, byte[] value) throws DBException {
        db.put(key, value);
    }

    @Override
    public void delete(byte[] key) throws DBException {
        db.delete(key);
    }

    @Override
    public void write(WriteBatch updates) throws DBException {
        db.write(JniWriteBatch.unwrap(updates));
    }

    @Override
    public WriteBatch createWriteBatch() {
        return new JniWriteBatch(db.createWriteBatch());
    }

    @Override
    public Snapshot put(byte[] key, byte[] value, WriteOptions options) throws DBException {
        return JniSnapshot.wrap(db.put(key, value, options));
    }

    @Override
    public Snapshot delete(byte[] key, WriteOptions options) throws DBException {
        return JniSnapshot.wrap(db.delete(key, options));
    }

    @Override
    public Snapshot write(WriteBatch updates, WriteOptions options) throws DBException {
        return JniSnapshot.wrap(db.write(JniWriteBatch.unwrap(updates), options));
    }

    @Override
    public Snapshot getSnapshot() {
        return JniSnapshot.wrap(db.getSnapshot());
    }

    @Override
    public long[] getApproximateSizes(Range... ranges) {
        return db.getApproximateSizes(ranges);
    }

    @Override
    public String getProperty(String name) {
        return db.getProperty(name);
    }

    @Override
    public void compactRange(byte[] begin, byte[] end) throws DBException {
        db.compactRange(begin, end);
    }

    @Override
    public void suspendCompactions() throws InterruptedException {
        db.suspendCompactions();
    }

    @Override
    public void resumeCompactions() {
        db.resumeCompactions();
    }

    @Override
    public String toString() {
        return "JniDB(" + db + ")";
    }
}
