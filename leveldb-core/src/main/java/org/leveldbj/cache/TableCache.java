package org.leveldbj.cache;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.NotFoundException;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.stats.TableOpenEvent;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.table.EntrySample;
import org.leveldbj.table.KeyBatch;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;

/**
 * The database's open table files: a bounded cache of {@link Table}s by file number, so that
 * reads do not reopen (and re-read the index and filter of) a table on every access.
 *
 * <p>Files: table {@code N} is opened as {@code NNNNNN.ldb} in the database directory and, when
 * that fails, as {@code NNNNNN.sst}, in C++ LevelDB's order: when both exist, the {@code .ldb}
 * file is the live one, written by C++ LevelDB or goleveldb beside an unrecorded {@code .sst}
 * left by a crash of an older writer or of this one; through the {@link Env}, so possibly
 * memory-mapped. A table found as {@code .sst} is reopened as {@code .sst} straight away after
 * an eviction (its number, like every file number of a database, names one file for good, and
 * a failed open of the {@code .ldb} name costs a system call and an exception at every reopen
 * when the table cache is smaller than the tables); the number is forgotten when the file is
 * deleted ({@link #evict}). Failures to open are not cached: the next use tries again. A file
 * that is opened concurrently by several threads is opened once; the others wait for that
 * open.
 *
 * <p>Capacity: at most {@code capacity} tables are cached (C++ LevelDB uses
 * {@code max_open_files - 10}, the 10 being its other open files). Beyond that the least
 * recently used table no one is reading is evicted; when every cached table is being read, the
 * least recently used one is evicted all the same and stays open until its readers finish. The
 * cache is split into 16 independently locked shards when {@code capacity >= 64}, with the
 * capacity divided exactly between them; below that it has one shard (exact LRU).
 *
 * <p>Reference counting (what makes closing, and unmapping, safe): the cache holds a reference
 * to each cached table, every iterator returned by {@link #iterator} holds one until it is
 * closed, and {@link #get} and {@link #approximateOffsetOf} hold one during the call. A table's
 * file is closed exactly when the last reference is released, by whichever thread releases it;
 * never by the garbage collector, and never while anything can still read it. Blocks the table
 * put in the block cache are heap copies and stay valid after the file is closed.
 *
 * <p>Errors: a file that cannot be opened raises {@link DBException} naming the file; a file that
 * is not a table, or whose footer or index is damaged, raises {@link CorruptionException} naming
 * it.
 *
 * <p>Thread safety: safe for concurrent use. Lifetime: {@link #close()} evicts every table and
 * refuses further use; tables still referenced by open iterators are closed when those
 * iterators are closed.
 */
public final class TableCache implements AutoCloseable {
    private static final int SHARDS = 16;
    private static final int MIN_CAPACITY_TO_SHARD = 64;

    private final Env env;
    private final Path dbDir;
    private final int capacity;
    private final TableOptions tableOptions;
    private final TableCacheShard[] shards;
    private final int shardMask;
    private final AtomicInteger openFiles = new AtomicInteger();
    private final TableHandle.Opener opener = this::open;
    /** The numbers of the tables found as {@code .sst} and not deleted since (see the class comment). */
    private final Set<Long> sstTables = ConcurrentHashMap.newKeySet();

    /**
     * Creates an empty cache.
     *
     * @param env the environment the files are opened through
     * @param dbDir the database directory
     * @param capacity how many tables may be cached, at least 1
     * @param tableOptions how tables are read: for a database the internal-key comparator, the
     *     filter policy with {@code FilterKeyExtractor.dropSuffix(8)}, the block cache and
     *     whether every read checks checksums
     * @throws IllegalArgumentException if {@code capacity < 1}
     */
    public TableCache(Env env, Path dbDir, int capacity, TableOptions tableOptions) {
        if (capacity < 1) {
            throw new IllegalArgumentException("table cache capacity must be at least 1: " + capacity);
        }
        this.env = Objects.requireNonNull(env, "env");
        this.dbDir = Objects.requireNonNull(dbDir, "dbDir");
        this.capacity = capacity;
        this.tableOptions = Objects.requireNonNull(tableOptions, "tableOptions");
        int n = capacity >= MIN_CAPACITY_TO_SHARD ? SHARDS : 1;
        this.shards = new TableCacheShard[n];
        for (int i = 0; i < n; i++) {
            shards[i] = new TableCacheShard(capacity / n + (i < capacity % n ? 1 : 0), openFiles, dbDir.toString());
        }
        this.shardMask = n - 1;
    }

    /**
     * Returns an iterator over a table's entries. The iterator holds a reference to the table,
     * released when it is closed, so the file stays open while it is read even if the table is
     * evicted meanwhile.
     *
     * @param fileNumber the table's number
     * @param fileSize the table file's size in bytes
     * @param ro whether the reads check checksums and fill the block cache
     * @return an unpositioned iterator, to be closed by the caller
     * @throws DBException if the file cannot be opened (naming it)
     * @throws CorruptionException if the file is not a readable table (naming it)
     */
    public SortedIterator iterator(long fileNumber, long fileSize, TableReadOptions ro) {
        TableCacheShard shard = shard(fileNumber);
        TableHandle h = acquire(shard, fileNumber, fileSize);
        try {
            return h.table(opener, fileSize).iterator(ro, () -> shard.release(h));
        } catch (RuntimeException | Error e) {
            shard.release(h);
            throw e;
        }
    }

    /**
     * Looks a key up in a table: see {@link Table#get}.
     *
     * @param fileNumber the table's number
     * @param fileSize the table file's size in bytes
     * @param internalKey the key sought (remaining bytes; position not moved)
     * @param ro whether the read checks checksums and fills the block cache
     * @param handler receives the first entry at or after the key in the block that may hold it
     * @return {@code true} if the handler was called
     * @throws DBException if the file cannot be opened (naming it)
     * @throws CorruptionException if the file or the block read is damaged (naming the file)
     */
    public boolean get(long fileNumber, long fileSize, ByteBuffer internalKey, TableReadOptions ro,
                       Table.EntryHandler handler) {
        TableCacheShard shard = shard(fileNumber);
        TableHandle h = acquire(shard, fileNumber, fileSize);
        try {
            return h.table(opener, fileSize).get(internalKey, ro, handler);
        } finally {
            shard.release(h);
        }
    }

    /**
     * Looks several keys up in one table, opened (or found open) once: see {@link Table#getAll}.
     *
     * @param fileNumber the table's number
     * @param fileSize the table file's size in bytes
     * @param which the numbers of the keys to look up, in ascending key order
     * @param count how many of {@code which} to use
     * @param ro checksum and cache settings
     * @param batch supplies the keys and receives the entries found
     * @throws DBException if the file cannot be opened (naming it)
     * @throws CorruptionException if the file is not a readable table (naming it)
     */
    public void getAll(long fileNumber, long fileSize, int[] which, int count, TableReadOptions ro, KeyBatch batch) {
        TableCacheShard shard = shard(fileNumber);
        TableHandle h = acquire(shard, fileNumber, fileSize);
        try {
            h.table(opener, fileSize).getAll(which, count, ro, batch);
        } finally {
            shard.release(h);
        }
    }

    /**
     * Returns the approximate offset in a table file where the data for a key begins: see
     * {@link Table#approximateOffsetOf}.
     *
     * @param fileNumber the table's number
     * @param fileSize the table file's size in bytes
     * @param internalKey the key (remaining bytes; position not moved)
     * @return a file offset
     * @throws DBException if the file cannot be opened (naming it)
     * @throws CorruptionException if the file is not a readable table (naming it)
     */
    public long approximateOffsetOf(long fileNumber, long fileSize, ByteBuffer internalKey) {
        TableCacheShard shard = shard(fileNumber);
        TableHandle h = acquire(shard, fileNumber, fileSize);
        try {
            return h.table(opener, fileSize).approximateOffsetOf(internalKey);
        } finally {
            shard.release(h);
        }
    }

    /**
     * The entry counts a table's stats block records: see {@link Table#entryCounts()}. A table
     * already open answers from memory after its first call; one that is not is opened and
     * cached as for a read.
     *
     * @param fileNumber the table's number
     * @param fileSize the table file's size in bytes
     * @param damage receives the reason when the stats block cannot be read
     * @return the counts, or {@code null} when the table records none
     * @throws DBException if the file cannot be opened or read (naming it)
     * @throws CorruptionException if the file is not a readable table (naming it)
     */
    public EntryCounts entryCounts(long fileNumber, long fileSize, Consumer<CorruptionException> damage) {
        TableCacheShard shard = shard(fileNumber);
        TableHandle h = acquire(shard, fileNumber, fileSize);
        try {
            Table table = h.table(opener, fileSize);
            EntryCounts counts = table.entryCounts();
            if (counts == null && table.entryCountsError() != null) {
                damage.accept(table.entryCountsError());
            }
            return counts;
        } finally {
            shard.release(h);
        }
    }

    /**
     * Counts one data block of a table: see {@link Table#sampleEntries()}.
     *
     * @param fileNumber the table's number
     * @param fileSize the table file's size in bytes
     * @return the sample, or {@code null} for a table without data blocks
     * @throws DBException if the file cannot be opened or read (naming it)
     * @throws CorruptionException if the file or the block is damaged (naming the file)
     */
    public EntrySample sampleEntries(long fileNumber, long fileSize) {
        TableCacheShard shard = shard(fileNumber);
        TableHandle h = acquire(shard, fileNumber, fileSize);
        try {
            return h.table(opener, fileSize).sampleEntries();
        } finally {
            shard.release(h);
        }
    }

    /**
     * Drops a table from the cache; called when its file is deleted. The file is closed now if
     * nothing reads it, otherwise when the last iterator reading it is closed.
     *
     * @param fileNumber the table's number
     */
    public void evict(long fileNumber) {
        shard(fileNumber).evict(fileNumber);
        sstTables.remove(fileNumber);
    }

    /**
     * How many table files are open: the cached ones plus evicted ones still being read.
     *
     * @return the count
     */
    public int openTables() {
        return openFiles.get();
    }

    /**
     * How many uses of a table found it cached, and how many had to add it to the cache (and so
     * open it); {@link #iterator}, {@link #get} and {@link #approximateOffsetOf} each count one.
     *
     * @return the hits and the misses since the cache was made
     */
    public long[] hitsAndMisses() {
        long[] sum = new long[2];
        for (TableCacheShard s : shards) {
            long[] shard = s.hitsAndMisses();
            sum[0] += shard[0];
            sum[1] += shard[1];
        }
        return sum;
    }

    /**
     * How many tables are cached (opened or being opened).
     *
     * @return the count, at most {@link #capacity()}
     */
    public int cachedTables() {
        int sum = 0;
        for (TableCacheShard s : shards) {
            sum += s.cached();
        }
        return sum;
    }

    /**
     * The most tables this cache keeps.
     *
     * @return the capacity
     */
    public int capacity() {
        return capacity;
    }

    /**
     * Evicts every table and refuses further use (with {@link DBException}). Tables that open
     * iterators still read are closed when those iterators are closed. Closing twice is
     * harmless.
     */
    @Override
    public void close() {
        for (TableCacheShard s : shards) {
            s.close();
        }
    }

    private TableCacheShard shard(long fileNumber) {
        return shards[(int) (fileNumber ^ (fileNumber >>> 32)) & shardMask];
    }

    private static TableHandle acquire(TableCacheShard shard, long fileNumber, long fileSize) {
        if (fileNumber < 0 || fileSize < 0) {
            throw new IllegalArgumentException("bad table file " + fileNumber + " of size " + fileSize);
        }
        return shard.acquire(fileNumber);
    }

    /** Opens {@code NNNNNN.ldb}, else {@code NNNNNN.sst}, and the table in it. */
    private void open(long fileNumber, long fileSize, TableHandle handle) {
        TableOpenEvent event = TableOpenEvent.start();
        Path path = dbDir.resolve(FileNames.tableFileName(fileNumber));
        Env.RandomAccessFile file = null;
        try {
            if (sstTables.contains(fileNumber)) {
                Path sst = dbDir.resolve(FileNames.sstTableFileName(fileNumber));
                try {
                    file = env.newRandomAccessFile(sst);
                    path = sst;
                } catch (IOException gone) {
                    sstTables.remove(fileNumber); // look again, in C++ LevelDB's order
                }
            }
            if (file == null) {
                try {
                    file = env.newRandomAccessFile(path);
                } catch (IOException e) {
                    Path sst = dbDir.resolve(FileNames.sstTableFileName(fileNumber));
                    try {
                        file = env.newRandomAccessFile(sst);
                        path = sst;
                        sstTables.add(fileNumber);
                    } catch (IOException sstFailure) {
                        e.addSuppressed(sstFailure);
                        throw e;
                    }
                }
            }
        } catch (IOException e) {
            shard(fileNumber).evictFailed(handle);
            if (e instanceof NoSuchFileException) {
                throw new NotFoundException("IO error: " + path + ": no such table file (nor "
                        + FileNames.sstTableFileName(fileNumber) + ")", e);
            }
            throw new IOErrorException("IO error: " + path + ": cannot open table file: " + e, e);
        }
        Table table;
        try {
            table = Table.open(path.toString(), file, fileSize, tableOptions);
        } catch (RuntimeException | Error e) {
            try {
                file.close();
            } catch (IOException closeFailure) {
                e.addSuppressed(closeFailure);
            }
            shard(fileNumber).evictFailed(handle);
            throw e;
        }
        openFiles.incrementAndGet();
        handle.opened(file, table, fileSize);
        event.finish(dbDir.toString(), fileNumber, fileSize);
    }

    @Override
    public String toString() {
        return "TableCache(" + dbDir + ", capacity " + capacity + ", " + openTables() + " open)";
    }
}
