package org.leveldbj.ttl;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.leveldbj.db.LevelDbFactory;

/**
 * A database whose values expire: each value is written with an expiry (the database's default
 * time to live from the clock's reading at the write, or one of the write's own), reads hide it
 * from the moment the clock reaches that expiry, and compactions remove it from the files
 * ({@link ExpiryFilter}, set as the database's compaction filter).
 *
 * <p>Expiry rules. An entry written at clock reading {@code t} with time to live {@code d}
 * expires at {@code t + d} (milliseconds; saturating at "never"), and is expired when the clock
 * reads at or after that. {@link #get} judges at the moment of the call; an iterator judges at
 * the moment it was made, again at each {@code seek}, {@code seekToFirst} and
 * {@code seekToLast}, so that one pass over it is consistent. A snapshot keeps what it saw
 * except that expiry goes on: a read through a snapshot hides what has expired by the clock's
 * reading now, even if it had not when the snapshot was taken (compactions leave what an open
 * snapshot reads in the files until it is closed). The clock must not go back: an entry a compaction removed as
 * expired does not return when the clock is set back (one not yet compacted would).
 *
 * <p>Format: the database is an ordinary LevelDB database whose values carry an 8-byte suffix
 * ({@link TtlValues} has the layout); C++ LevelDB, goleveldb and a plain open read them with
 * the suffix. Nothing on disk marks the database as a TTL database: a plain open is neither
 * refused nor warned (see {@code doc/ttl.md} for why), and writing through a plain open
 * values without the suffix makes them corrupt for this class.
 *
 * <p>Thread safety: safe for concurrent use, as the database is; the clock must be too.
 * Lifetime: {@link #close} closes the database; iterators, snapshots and batches are closed by
 * their users first.
 */
public final class TtlDB implements Closeable {
    private final ExtendedDB db;
    private final InstantSource clock;
    private final long defaultTtlMillis;

    private TtlDB(ExtendedDB db, InstantSource clock, long defaultTtlMillis) {
        this.db = db;
        this.clock = clock;
        this.defaultTtlMillis = defaultTtlMillis;
    }

    /**
     * Opens (or creates) a TTL database with the system clock.
     *
     * @param dir the database directory
     * @param options the options; must not name a compaction filter (this class sets its own)
     * @param defaultTtl the time to live of {@link #put(byte[], byte[])}, positive
     * @return the open database
     * @throws IOException if opening fails
     * @throws InvalidArgumentException if the arguments are wrong
     */
    public static TtlDB open(File dir, Options options, Duration defaultTtl) throws IOException {
        return open(dir, options, defaultTtl, InstantSource.system());
    }

    /**
     * Opens (or creates) a TTL database whose expiry follows a given clock.
     *
     * @param dir the database directory
     * @param options the options; must not name a compaction filter (this class sets its own)
     * @param defaultTtl the time to live of {@link #put(byte[], byte[])}, positive
     * @param clock the clock expiry is judged by: reads and compactions ask it; must not go back
     * @return the open database
     * @throws IOException if opening fails
     * @throws InvalidArgumentException if the arguments are wrong
     */
    public static TtlDB open(File dir, Options options, Duration defaultTtl, InstantSource clock) throws IOException {
        if (options == null || clock == null) {
            throw new InvalidArgumentException("Invalid argument: options and clock must not be null");
        }
        if (options.compactionFilter() != null) {
            throw new InvalidArgumentException("Invalid argument: a TTL database sets its own compaction filter; options name "
                    + options.compactionFilter().name());
        }
        long ttl = ttlMillis(defaultTtl);
        Options withFilter = new Options(options).compactionFilter(new ExpiryFilter(clock));
        return new TtlDB(LevelDbFactory.factory.open(dir, withFilter), clock, ttl);
    }

    /**
     * Writes a value with the default time to live.
     *
     * @param key the key
     * @param value the value
     */
    public void put(byte[] key, byte[] value) {
        putUntilMillis(key, value, TtlValues.expiryAfter(clock.millis(), defaultTtlMillis), new WriteOptions());
    }

    /**
     * Writes a value with its own time to live.
     *
     * @param key the key
     * @param value the value
     * @param ttl how long it lives from now, positive
     */
    public void put(byte[] key, byte[] value, Duration ttl) {
        putUntilMillis(key, value, TtlValues.expiryAfter(clock.millis(), ttlMillis(ttl)), new WriteOptions());
    }

    /**
     * Writes a value that expires at a given instant ({@code Instant.MAX}: never).
     *
     * @param key the key
     * @param value the value
     * @param expiry when it expires
     * @param options the write options
     */
    public void putUntil(byte[] key, byte[] value, Instant expiry, WriteOptions options) {
        putUntilMillis(key, value, expiryMillis(expiry), options);
    }

    private void putUntilMillis(byte[] key, byte[] value, long expiry, WriteOptions options) {
        requireNonNull(key, "key");
        requireNonNull(value, "value");
        db.put(key, TtlValues.encode(value, expiry), options);
    }

    /**
     * Deletes a key.
     *
     * @param key the key
     */
    public void delete(byte[] key) {
        db.delete(key);
    }

    /**
     * Reads a value, hiding it when expired by the clock's reading now.
     *
     * @param key the key
     * @return the value, or {@code null} when absent or expired
     * @throws CorruptionException if the stored value is too short to hold its expiry
     */
    public byte[] get(byte[] key) {
        return get(key, new ReadOptions());
    }

    /**
     * Reads a value (at a snapshot, when the options name one), hiding it when expired by the
     * clock's reading now.
     *
     * @param key the key
     * @param options the read options
     * @return the value, or {@code null} when absent or expired
     * @throws CorruptionException if the stored value is too short to hold its expiry
     */
    public byte[] get(byte[] key, ReadOptions options) {
        byte[] stored = db.get(key, options);
        if (stored == null) {
            return null;
        }
        long now = clock.millis();
        checkStored(key, stored);
        return TtlValues.expired(stored, now) ? null : TtlValues.value(stored);
    }

    /**
     * When a key's value expires.
     *
     * @param key the key
     * @return the expiry ({@code Instant.MAX} for never), or {@code null} when absent or expired
     */
    public Instant expiry(byte[] key) {
        byte[] stored = db.get(key);
        if (stored == null) {
            return null;
        }
        checkStored(key, stored);
        long expiry = TtlValues.expiry(stored);
        return clock.millis() >= expiry ? null : expiry == TtlValues.NEVER ? Instant.MAX : Instant.ofEpochMilli(expiry);
    }

    /**
     * An iterator over the entries not expired (judged when it is made and at each seek).
     *
     * @return the iterator, to be closed
     */
    public DBIterator iterator() {
        return iterator(new ReadOptions());
    }

    /**
     * An iterator over the entries not expired (judged when it is made and at each seek), at a
     * snapshot when the options name one. It starts on the first entry not expired.
     *
     * @param options the read options
     * @return the iterator, to be closed
     * @throws CorruptionException when it meets a value too short to hold its expiry (so does
     *     every later move that meets one)
     */
    public DBIterator iterator(ReadOptions options) {
        DBIterator raw = db.iterator(options);
        try {
            return new TtlIterator(raw, clock);
        } catch (RuntimeException e) {
            try {
                raw.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** @return a snapshot of the current state (expiry still goes on for reads through it) */
    public Snapshot getSnapshot() {
        return db.getSnapshot();
    }

    /**
     * A batch whose puts carry expiries.
     *
     * @return a new batch, to be written by {@link #write} and closed
     */
    public TtlWriteBatch createWriteBatch() {
        return new TtlWriteBatch(db.createWriteBatch(), clock, defaultTtlMillis);
    }

    /**
     * Applies a batch atomically.
     *
     * @param batch a batch from {@link #createWriteBatch()}
     * @param options the write options
     */
    public void write(TtlWriteBatch batch, WriteOptions options) {
        requireNonNull(batch, "batch");
        db.write(batch.raw(), options);
    }

    /**
     * Compacts the key range, removing what has expired from the files it rewrites.
     *
     * @param begin the first key, or {@code null} for the start
     * @param end the last key, or {@code null} for the end
     */
    public void compactRange(byte[] begin, byte[] end) {
        db.compactRange(begin, end);
    }

    /**
     * The database itself: its values are the stored form, with the suffix ({@link TtlValues}).
     *
     * @return the underlying database (closed by {@link #close})
     */
    public ExtendedDB raw() {
        return db;
    }

    @Override
    public void close() {
        db.close();
    }

    static long ttlMillis(Duration ttl) {
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new InvalidArgumentException("Invalid argument: time to live must be positive, got " + ttl);
        }
        try {
            return Math.max(1, ttl.toMillis());
        } catch (ArithmeticException e) {
            return TtlValues.NEVER;
        }
    }

    static long expiryMillis(Instant expiry) {
        requireNonNull(expiry, "expiry");
        try {
            return expiry.toEpochMilli();
        } catch (ArithmeticException e) {
            return expiry.isAfter(Instant.EPOCH) ? TtlValues.NEVER : Long.MIN_VALUE;
        }
    }

    static void checkStored(byte[] key, byte[] stored) {
        if (!TtlValues.isWellFormed(stored)) {
            throw new CorruptionException("the value of key " + hex(key) + " has " + stored.length
                    + " bytes, fewer than the " + TtlValues.SUFFIX_LENGTH + "-byte expiry suffix of a TTL database");
        }
    }

    private static String hex(byte[] key) {
        StringBuilder b = new StringBuilder("0x");
        for (int i = 0; i < Math.min(key.length, 32); i++) {
            b.append(Character.forDigit((key[i] >> 4) & 0xf, 16)).append(Character.forDigit(key[i] & 0xf, 16));
        }
        return key.length > 32 ? b.append("...").toString() : b.toString();
    }

    static void requireNonNull(Object o, String what) {
        if (o == null) {
            throw new InvalidArgumentException("Invalid argument: " + what + " must not be null");
        }
    }

    @Override
    public String toString() {
        return "TtlDB[" + db + ", default ttl " + defaultTtlMillis + " ms]";
    }
}
