/**
 * The LevelDB API: open a {@link org.iq80.leveldb.DB}, read and write byte-array keys and values,
 * iterate in key order, take snapshots, write atomic batches.
 *
 * <p>This package is a drop-in replacement for {@code org.iq80.leveldb:leveldb-api:0.12}: every
 * type and member of that version exists here with the same signature and the same defaults,
 * so code compiled against 0.12 runs unchanged and compiles unchanged, and other implementations
 * of the 0.12 interfaces (such as leveldbjni) keep working with it. Iterators follow the cursor
 * semantics of leveldbjni 1.8, described in {@link org.iq80.leveldb.DBIterator}.
 *
 * <h2>Extensions</h2>
 *
 * <p>Beyond 0.12 the package offers, each marked as an extension where it is documented:
 *
 * <ul>
 *   <li>{@link org.iq80.leveldb.CompressionType#ZSTD}, C++ LevelDB's Zstandard compression;
 *   <li>{@link org.iq80.leveldb.FilterPolicy}, C++ LevelDB's Bloom filter, set with
 *       {@link org.iq80.leveldb.Options#filterPolicy(FilterPolicy)};
 *   <li>{@link org.iq80.leveldb.Options#maxFileSize(long)}, the size of table files;
 *   <li>{@link org.iq80.leveldb.Env}, the file system a database uses, set with
 *       {@link org.iq80.leveldb.Options#env(Env)};
 *   <li>{@link org.iq80.leveldb.Cache}, {@link org.iq80.leveldb.BackgroundPool} and
 *       {@link org.iq80.leveldb.WriteBufferBudget}, a block cache, background threads and a
 *       memtable memory limit several databases share, set with
 *       {@link org.iq80.leveldb.Options#cache(Cache)},
 *       {@link org.iq80.leveldb.Options#backgroundPool(BackgroundPool)} and
 *       {@link org.iq80.leveldb.Options#writeBufferBudget(WriteBufferBudget)};
 *   <li>{@link org.iq80.leveldb.WriteBatch#size()} and
 *       {@link org.iq80.leveldb.WriteBatch#approximateSize()};
 *   <li>{@link org.iq80.leveldb.CorruptionException}, the {@code DBException} thrown when stored
 *       data is damaged;
 *   <li>{@link org.iq80.leveldb.IOErrorException} and
 *       {@link org.iq80.leveldb.InvalidArgumentException}, the {@code DBException}s of an open
 *       database's I/O failures and misuses (C++ LevelDB's "IO error" and "Invalid argument");
 *   <li>{@link org.iq80.leveldb.DBOpenException} and its subclasses
 *       {@link org.iq80.leveldb.DatabaseNotFoundException},
 *       {@link org.iq80.leveldb.InvalidDatabaseArgumentException} and
 *       {@link org.iq80.leveldb.CorruptDatabaseException}: the {@link java.io.IOException}s
 *       {@link org.iq80.leveldb.DBFactory#open} throws, with leveldbjni's messages.
 * </ul>
 *
 * <p>None of them adds an abstract method to an interface of 0.12, so implementations written
 * against 0.12 still load; the new {@code WriteBatch} methods have defaults that throw
 * {@link java.lang.UnsupportedOperationException}.
 *
 * <h2>Finding a factory</h2>
 *
 * <p>This package holds only the API; a {@link org.iq80.leveldb.DBFactory} comes from an
 * implementation. Each implementation registers its factory with {@link java.util.ServiceLoader}
 * in a {@code META-INF/services/org.iq80.leveldb.DBFactory} file, so that
 * {@code ServiceLoader.load(DBFactory.class)} finds whichever is on the class path, and also
 * exposes it as a public static field named {@code factory} of its factory class, following
 * leveldbjni's {@code JniDBFactory.factory} and iq80's {@code Iq80DBFactory.factory}. This
 * project's engine, in the {@code leveldb-core} module, provides
 * {@code org.leveldbj.db.LevelDbFactory.factory}:
 *
 * <pre>{@code
 * // bytes(String) is a static helper of the factory class, as in leveldbjni
 * Options options = new Options().createIfMissing(true);
 * try (DB db = LevelDbFactory.factory.open(new File("example-db"), options)) {
 *     db.put(bytes("key"), bytes("value"));
 * }
 * }</pre>
 *
 * <h2>Thread safety</h2>
 *
 * <p>A {@link org.iq80.leveldb.DB} is safe for concurrent use by any number of threads; so are
 * factories and {@link org.iq80.leveldb.Snapshot}s. Iterators and write batches are not: each is
 * used by one thread at a time. The option classes are plain mutable objects, read by the
 * database only during the call they are passed to.
 *
 * <h2>Errors</h2>
 *
 * <p>Opening a database fails with an {@link java.io.IOException}, as leveldbjni's does: a
 * {@link org.iq80.leveldb.DatabaseNotFoundException} when it does not exist and may not be
 * created, an {@link org.iq80.leveldb.InvalidDatabaseArgumentException} when it exists against
 * the options (error-if-exists, another comparator), a
 * {@link org.iq80.leveldb.CorruptDatabaseException} when its files are damaged, or the file
 * system's own exception (a lock held elsewhere, an unreadable file). Code that creates a store
 * when opening fails can thus catch {@code IOException}, or tell the cases apart by type. Once a
 * database is open, its operations report failure with the unchecked
 * {@link org.iq80.leveldb.DBException}: {@link org.iq80.leveldb.CorruptionException} when
 * stored data is damaged, {@link org.iq80.leveldb.IOErrorException} when a file cannot be read
 * or written (for writes, sticky), {@link org.iq80.leveldb.InvalidArgumentException} for a
 * write to a read-only database, and a plain {@code DBException} for a closed database,
 * iterator, snapshot or batch. The factory's destroy and repair methods declare
 * {@link java.io.IOException}, and {@code close()} methods declare it as
 * {@link java.io.Closeable} does.
 */
package org.iq80.leveldb;
