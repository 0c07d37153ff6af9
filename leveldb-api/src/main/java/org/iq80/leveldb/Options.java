package org.iq80.leveldb;

/**
 * Options for opening a database, passed to {@link DBFactory#open(java.io.File, Options)}: how
 * to open it and how it behaves while open.
 *
 * <p>The defaults are those of leveldb-api 0.12, which mostly follow C++ LevelDB:
 *
 * <table>
 *   <caption>Options and their defaults</caption>
 *   <tr><th>Option</th><th>Default</th></tr>
 *   <tr><td>{@link #createIfMissing()}</td><td>{@code true}</td></tr>
 *   <tr><td>{@link #errorIfExists()}</td><td>{@code false}</td></tr>
 *   <tr><td>{@link #writeBufferSize()}</td><td>4 MiB</td></tr>
 *   <tr><td>{@link #maxOpenFiles()}</td><td>1000</td></tr>
 *   <tr><td>{@link #blockRestartInterval()}</td><td>16</td></tr>
 *   <tr><td>{@link #blockSize()}</td><td>4 KiB</td></tr>
 *   <tr><td>{@link #compressionType()}</td><td>{@link CompressionType#SNAPPY}</td></tr>
 *   <tr><td>{@link #verifyChecksums()}</td><td>{@code true}</td></tr>
 *   <tr><td>{@link #paranoidChecks()}</td><td>{@code false}</td></tr>
 *   <tr><td>{@link #comparator()}</td><td>{@code null} (unsigned byte order)</td></tr>
 *   <tr><td>{@link #logger()}</td><td>{@code null} (the {@code LOG} file)</td></tr>
 *   <tr><td>{@link #cacheSize()}</td><td>{@code 0} (an 8 MiB cache)</td></tr>
 *   <tr><td>{@link #cache()} (extension)</td><td>{@code null} (a cache of its own)</td></tr>
 *   <tr><td>{@link #backgroundPool()} (extension)</td><td>{@code null} (the engine's default pool)</td></tr>
 *   <tr><td>{@link #writeBufferBudget()} (extension)</td><td>{@code null} (no shared limit)</td></tr>
 *   <tr><td>{@link #filterPolicy()} (extension)</td><td>{@code null} (no filters)</td></tr>
 *   <tr><td>{@link #prefixExtractor()} (extension)</td><td>{@code null} (no prefix filters)</td></tr>
 *   <tr><td>{@link #compactionFilter()} (extension)</td><td>{@code null} (compactions keep every value)</td></tr>
 *   <tr><td>{@link #maxFileSize()} (extension)</td><td>2 MiB</td></tr>
 *   <tr><td>{@link #env()} (extension)</td><td>{@code null} (the file system)</td></tr>
 *   <tr><td>{@link #readOnly()} (extension)</td><td>{@code false}</td></tr>
 *   <tr><td>{@link #tableFileSuffix()} (extension)</td><td>{@link TableFileSuffix#AUTO}</td></tr>
 *   <tr><td>{@link #valueThreshold()} (extension)</td><td>{@code 0} (values stay in the tables)</td></tr>
 *   <tr><td>{@link #valueGarbageRatio()} (extension)</td><td>{@code 0.25}</td></tr>
 * </table>
 *
 * <p>Setters return {@code this} so that calls can be chained. Setters of sizes and counts reject
 * values that can never work (zero or negative sizes) with an {@link IllegalArgumentException}
 * naming the option and the value; the engine may further clamp a legal value to the range it
 * supports, as C++ LevelDB does.
 *
 * <p>Thread safety: not safe for concurrent modification. The database reads the options while
 * it opens and keeps what it needs, so changing an instance afterwards has no effect on an open
 * database.
 */
public class Options {
    private boolean createIfMissing = true;
    private boolean errorIfExists;
    private int writeBufferSize = 4 << 20;
    private int maxOpenFiles = 1000;
    private int blockRestartInterval = 16;
    private int blockSize = 4 * 1024;
    private CompressionType compressionType = CompressionType.SNAPPY;
    private boolean verifyChecksums = true;
    private boolean paranoidChecks;
    private DBComparator comparator;
    private Cache cache;
    private BackgroundPool backgroundPool;
    private WriteBufferBudget writeBufferBudget;
    private Logger logger;
    private long cacheSize;
    private FilterPolicy filterPolicy;
    private PrefixExtractor prefixExtractor;
    private CompactionFilter compactionFilter;
    private long maxFileSize = 2 << 20;
    private Env env;
    private boolean readOnly;
    private TableFileSuffix tableFileSuffix = TableFileSuffix.AUTO;
    private int valueThreshold;
    private double valueGarbageRatio = 0.25;

    /** Creates options with the defaults listed in the class description. */
    public Options() {
    }

    /**
     * Creates a copy of other options (an extension): every setting, including the extensions,
     * is copied; objects such as the comparator, cache, logger and environment are shared, not
     * copied.
     *
     * @param other the options to copy
     * @throws NullPointerException if {@code other} is {@code null}
     */
    public Options(Options other) {
        this.createIfMissing = other.createIfMissing;
        this.errorIfExists = other.errorIfExists;
        this.writeBufferSize = other.writeBufferSize;
        this.maxOpenFiles = other.maxOpenFiles;
        this.blockRestartInterval = other.blockRestartInterval;
        this.blockSize = other.blockSize;
        this.compressionType = other.compressionType;
        this.verifyChecksums = other.verifyChecksums;
        this.paranoidChecks = other.paranoidChecks;
        this.comparator = other.comparator;
        this.cache = other.cache;
        this.backgroundPool = other.backgroundPool;
        this.writeBufferBudget = other.writeBufferBudget;
        this.logger = other.logger;
        this.cacheSize = other.cacheSize;
        this.filterPolicy = other.filterPolicy;
        this.prefixExtractor = other.prefixExtractor;
        this.compactionFilter = other.compactionFilter;
        this.maxFileSize = other.maxFileSize;
        this.env = other.env;
        this.readOnly = other.readOnly;
        this.tableFileSuffix = other.tableFileSuffix;
        this.valueThreshold = other.valueThreshold;
        this.valueGarbageRatio = other.valueGarbageRatio;
    }

    /**
     * Tells whether opening a missing database creates it. Default {@code true}.
     *
     * @return {@code true} when a missing database is created
     */
    public boolean createIfMissing() {
        return createIfMissing;
    }

    /**
     * Sets whether opening a missing database creates it; when {@code false}, opening a missing
     * database fails.
     *
     * @param createIfMissing {@code true} to create a missing database
     * @return this object
     */
    public Options createIfMissing(boolean createIfMissing) {
        this.createIfMissing = createIfMissing;
        return this;
    }

    /**
     * Tells whether opening an existing database fails. Default {@code false}.
     *
     * @return {@code true} when an existing database is an error
     */
    public boolean errorIfExists() {
        return errorIfExists;
    }

    /**
     * Sets whether opening an existing database fails, to make sure a new one is created.
     *
     * @param errorIfExists {@code true} to fail when the database exists
     * @return this object
     */
    public Options errorIfExists(boolean errorIfExists) {
        this.errorIfExists = errorIfExists;
        return this;
    }

    /**
     * Returns how many bytes of writes are gathered in memory before they are written to a table
     * file. Default 4 MiB.
     *
     * @return the write buffer size in bytes
     */
    public int writeBufferSize() {
        return writeBufferSize;
    }

    /**
     * Sets how many bytes of writes are gathered in memory before they are written to a table
     * file. Larger buffers speed up bulk loads but use more memory (up to two buffers at a time)
     * and make recovery after a crash take longer.
     *
     * @param writeBufferSize the size in bytes, at least {@code 1}
     * @return this object
     * @throws IllegalArgumentException if the size is less than {@code 1}
     */
    public Options writeBufferSize(int writeBufferSize) {
        this.writeBufferSize = Arguments.checkAtLeast(writeBufferSize, 1, "writeBufferSize");
        return this;
    }

    /**
     * Returns how many files the database may keep open at once. Default 1000.
     *
     * @return the limit on open files
     */
    public int maxOpenFiles() {
        return maxOpenFiles;
    }

    /**
     * Sets how many files the database may keep open at once; a few are reserved for logs and
     * the MANIFEST, the rest for the table cache.
     *
     * @param maxOpenFiles the limit, at least {@code 1}
     * @return this object
     * @throws IllegalArgumentException if the limit is less than {@code 1}
     */
    public Options maxOpenFiles(int maxOpenFiles) {
        this.maxOpenFiles = Arguments.checkAtLeast(maxOpenFiles, 1, "maxOpenFiles");
        return this;
    }

    /**
     * Returns how many keys of a table block are prefix-compressed against their predecessor
     * between two restart points, where a key is stored whole. Default 16.
     *
     * @return the restart interval
     */
    public int blockRestartInterval() {
        return blockRestartInterval;
    }

    /**
     * Sets the number of keys between restart points in table blocks. Smaller intervals make
     * seeks within a block faster and blocks larger.
     *
     * @param restartInterval the interval, at least {@code 1}
     * @return this object
     * @throws IllegalArgumentException if the interval is less than {@code 1}
     */
    public Options blockRestartInterval(int restartInterval) {
        this.blockRestartInterval =
                Arguments.checkAtLeast(restartInterval, 1, "blockRestartInterval");
        return this;
    }

    /**
     * Returns the approximate size of the uncompressed data in one table block. Default 4 KiB.
     *
     * @return the block size in bytes
     */
    public int blockSize() {
        return blockSize;
    }

    /**
     * Sets the approximate size of the uncompressed data in one table block, the unit of reading
     * and caching. Larger blocks suit scans, smaller ones random reads.
     *
     * @param blockSize the size in bytes, at least {@code 1}
     * @return this object
     * @throws IllegalArgumentException if the size is less than {@code 1}
     */
    public Options blockSize(int blockSize) {
        this.blockSize = Arguments.checkAtLeast(blockSize, 1, "blockSize");
        return this;
    }

    /**
     * Returns how new table blocks are compressed. Default {@link CompressionType#SNAPPY}.
     *
     * @return the compression type
     */
    public CompressionType compressionType() {
        return compressionType;
    }

    /**
     * Sets how new table blocks are compressed. Existing blocks keep their compression; reading
     * understands every type.
     *
     * @param compressionType the compression type
     * @return this object
     * @throws IllegalArgumentException if {@code compressionType} is {@code null}
     */
    public Options compressionType(CompressionType compressionType) {
        Arguments.checkNotNull(compressionType, "compressionType");
        this.compressionType = compressionType;
        return this;
    }

    /**
     * Tells whether every read checks the checksums of the blocks it reads, whatever its
     * {@link ReadOptions#verifyChecksums()} says. Default {@code true}.
     *
     * @return {@code true} when reads verify checksums
     */
    public boolean verifyChecksums() {
        return verifyChecksums;
    }

    /**
     * Sets whether every read checks the checksums of the blocks it reads; a mismatch fails the
     * read with a {@link CorruptionException}.
     *
     * @param verifyChecksums {@code true} to verify checksums on every read
     * @return this object
     */
    public Options verifyChecksums(boolean verifyChecksums) {
        this.verifyChecksums = verifyChecksums;
        return this;
    }

    /**
     * Returns the capacity of the cache of uncompressed table blocks. Default {@code 0}, which
     * means the default capacity of 8 MiB.
     *
     * @return the cache size in bytes, {@code 0} for the default
     */
    public long cacheSize() {
        return cacheSize;
    }

    /**
     * Sets the capacity of the cache of uncompressed table blocks.
     *
     * @param cacheSize the size in bytes, or {@code 0} for the default of 8 MiB
     * @return this object
     * @throws IllegalArgumentException if the size is negative
     */
    public Options cacheSize(long cacheSize) {
        this.cacheSize = Arguments.checkAtLeast(cacheSize, 0, "cacheSize");
        return this;
    }

    /**
     * Returns the block cache shared with other databases. Default {@code null}: the database
     * has a cache of its own, of {@link #cacheSize()} bytes. An extension of the 0.12 API.
     *
     * @return the shared cache, or {@code null}
     */
    public Cache cache() {
        return cache;
    }

    /**
     * Sets a block cache shared with other databases; {@link #cacheSize()} is then ignored.
     *
     * @param cache a cache the engine made, or {@code null} for a cache of the database's own
     * @return this object
     */
    public Options cache(Cache cache) {
        this.cache = cache;
        return this;
    }

    /**
     * Returns the threads that run the database's flushes and compactions. Default
     * {@code null}: the engine's default pool, shared by every database of the process opened
     * without one. An extension of the 0.12 API.
     *
     * @return the pool, or {@code null}
     */
    public BackgroundPool backgroundPool() {
        return backgroundPool;
    }

    /**
     * Sets the threads that run the database's flushes and compactions, shared with the other
     * databases given the same pool; the pool must stay open while they are.
     *
     * @param backgroundPool a pool the engine made, or {@code null} for the default pool
     * @return this object
     */
    public Options backgroundPool(BackgroundPool backgroundPool) {
        this.backgroundPool = backgroundPool;
        return this;
    }

    /**
     * Returns the limit on memtable memory shared with other databases. Default {@code null}:
     * only {@link #writeBufferSize()} limits the memtable. An extension of the 0.12 API.
     *
     * @return the budget, or {@code null}
     */
    public WriteBufferBudget writeBufferBudget() {
        return writeBufferBudget;
    }

    /**
     * Sets a limit on the memtable memory of every database given the same budget: past it, the
     * one with the largest memtable writes it to a table early. A read-only database does not
     * take part.
     *
     * @param writeBufferBudget a budget the engine made, or {@code null} for none
     * @return this object
     */
    public Options writeBufferBudget(WriteBufferBudget writeBufferBudget) {
        this.writeBufferBudget = writeBufferBudget;
        return this;
    }

    /**
     * Returns the order of the keys. Default {@code null}: unsigned lexicographic byte order,
     * C++ LevelDB's {@code leveldb.BytewiseComparator}.
     *
     * @return the comparator, or {@code null} for byte order
     */
    public DBComparator comparator() {
        return comparator;
    }

    /**
     * Sets the order of the keys. A database must be opened with the comparator it was created
     * with.
     *
     * @param comparator the comparator, or {@code null} for unsigned byte order
     * @return this object
     */
    public Options comparator(DBComparator comparator) {
        this.comparator = comparator;
        return this;
    }

    /**
     * Returns where the database's informational messages go. Default {@code null}: the
     * {@code LOG} file in the database directory.
     *
     * @return the logger, or {@code null}
     */
    public Logger logger() {
        return logger;
    }

    /**
     * Sets where the database's informational messages go.
     *
     * @param logger the logger, or {@code null} for the {@code LOG} file
     * @return this object
     */
    public Options logger(Logger logger) {
        this.logger = logger;
        return this;
    }

    /**
     * Tells whether the database checks its data aggressively and stops at the first sign of
     * corruption. Default {@code false}.
     *
     * @return {@code true} for paranoid checks
     */
    public boolean paranoidChecks() {
        return paranoidChecks;
    }

    /**
     * Sets whether the database checks its data aggressively: when {@code true}, a damaged log
     * record found during recovery fails the open instead of being skipped, and compactions
     * verify the checksums of the blocks they read.
     *
     * @param paranoidChecks {@code true} for paranoid checks
     * @return this object
     */
    public Options paranoidChecks(boolean paranoidChecks) {
        this.paranoidChecks = paranoidChecks;
        return this;
    }

    /**
     * Returns the filter policy of new table files. Default {@code null}: no filters.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @return the filter policy, or {@code null}
     */
    public FilterPolicy filterPolicy() {
        return filterPolicy;
    }

    /**
     * Sets the filter policy of new table files, for example
     * {@code FilterPolicy.bloom(10)}, which lets most reads of absent keys skip reading table
     * blocks. Tables written without filters are read as before.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @param filterPolicy the filter policy, or {@code null} for no filters
     * @return this object
     */
    public Options filterPolicy(FilterPolicy filterPolicy) {
        this.filterPolicy = filterPolicy;
        return this;
    }

    /**
     * Returns the prefix extractor of new table files. Default {@code null}: no prefix filters.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @return the prefix extractor, or {@code null}
     */
    public PrefixExtractor prefixExtractor() {
        return prefixExtractor;
    }

    /**
     * Sets the prefix extractor, for example {@code PrefixExtractor.upToDelimiter(':')}: every new
     * table file then holds a Bloom filter on the prefixes of its keys (built with
     * {@link #filterPolicy()}'s bits per key, or 10 without a filter policy), so that a
     * {@code prefixIterator}, or an iterator whose two bounds share one prefix, skips the tables
     * and blocks that hold no key of that prefix. Tables written without it, or under an
     * extractor of another name, are read as before, without skipping. The filter is kept under a
     * metaindex name of this library's own, which C++ LevelDB and goleveldb ignore. Needs the
     * byte-wise key order: with a {@link #comparator()} set, opening fails.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @param prefixExtractor the prefix extractor, or {@code null} for no prefix filters
     * @return this object
     */
    public Options prefixExtractor(PrefixExtractor prefixExtractor) {
        this.prefixExtractor = prefixExtractor;
        return this;
    }

    /**
     * Returns the filter compactions ask about the values they rewrite. Default {@code null}:
     * compactions keep every value.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @return the compaction filter, or {@code null}
     */
    public CompactionFilter compactionFilter() {
        return compactionFilter;
    }

    /**
     * Sets the filter compactions ask about the values they rewrite: it keeps, removes or
     * replaces each ({@link CompactionFilter} says which entries it sees, and what it must
     * guarantee: it runs on background threads). Memtable flushes do not filter.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @param compactionFilter the filter, or {@code null} for none
     * @return this object
     */
    public Options compactionFilter(CompactionFilter compactionFilter) {
        this.compactionFilter = compactionFilter;
        return this;
    }

    /**
     * Returns the size at which the database starts a new table file while writing. Default
     * 2 MiB, as in C++ LevelDB.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @return the maximum table file size in bytes
     */
    public long maxFileSize() {
        return maxFileSize;
    }

    /**
     * Sets the size at which the database starts a new table file while writing. Larger files
     * mean fewer files and longer compactions; file systems that handle large files well may
     * benefit from larger values.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @param maxFileSize the size in bytes, at least {@code 1}
     * @return this object
     * @throws IllegalArgumentException if the size is less than {@code 1}
     */
    public Options maxFileSize(long maxFileSize) {
        this.maxFileSize = Arguments.checkAtLeast(maxFileSize, 1, "maxFileSize");
        return this;
    }

    /**
     * Returns the environment through which the database reaches its files. Default
     * {@code null}: the engine's default file-system environment.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @return the environment, or {@code null} for the default
     */
    public Env env() {
        return env;
    }

    /**
     * Sets the environment through which the database reaches its files, for example an
     * in-memory or fault-injecting one in tests.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @param env the environment, or {@code null} for the default file-system environment
     * @return this object
     */
    public Options env(Env env) {
        this.env = env;
        return this;
    }

    /**
     * Tells whether the database is opened read-only. Default {@code false}.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @return {@code true} when the database is opened read-only
     */
    public boolean readOnly() {
        return readOnly;
    }

    /**
     * Sets whether the database is opened read-only, as RocksDB's {@code OpenForReadOnly} does:
     * opening then leaves every file of the directory as it is. A missing database is not
     * created (whatever {@link #createIfMissing()} says); the write-ahead logs are replayed into
     * memory only, however large; no log, table, MANIFEST, CURRENT or {@code LOG} file is
     * written, renamed or deleted, and no compaction runs. Informational messages go to
     * {@link #logger()} when one is set and are dropped otherwise.
     *
     * <p>Reads, iterators, snapshots, properties and approximate sizes work as usual. Writes,
     * {@code compactRange} and suspending or resuming compactions throw a
     * {@link DBException} saying that the database is open read-only.
     *
     * <p>A read-only database takes the directory's {@code LOCK} exclusively, as a writable one
     * does, so it cannot be opened while another process or database holds the database open
     * (nor can another open it while it is open). It opens the lock file without creating it:
     * when the directory has no {@code LOCK} file, the database is opened without a lock.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @param readOnly {@code true} to open the database read-only
     * @return this object
     */
    public Options readOnly(boolean readOnly) {
        this.readOnly = readOnly;
        return this;
    }

    /**
     * Returns the suffix of the table files the database writes.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @return the suffix rule, {@link TableFileSuffix#AUTO} by default
     */
    public TableFileSuffix tableFileSuffix() {
        return tableFileSuffix;
    }

    /**
     * Sets the suffix of the table files the database writes. The default,
     * {@link TableFileSuffix#AUTO}, writes {@code .sst}, which every LevelDB reader opens, unless
     * the directory already holds {@code .ldb} tables: so a database created by this library,
     * leveldbjni 1.8, iq80 leveldb or C++ LevelDB before 1.14 stays readable by all of them
     * (those three open only {@code .sst}). Tables already in the directory keep their names
     * whatever this says.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @param tableFileSuffix the suffix rule
     * @return this object
     */
    public Options tableFileSuffix(TableFileSuffix tableFileSuffix) {
        Arguments.checkNotNull(tableFileSuffix, "tableFileSuffix");
        this.tableFileSuffix = tableFileSuffix;
        return this;
    }

    /**
     * Returns the size from which values are kept in value files instead of the tables.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @return the threshold in bytes; {@code 0} (the default) keeps every value in the tables
     */
    public int valueThreshold() {
        return valueThreshold;
    }

    /**
     * Separates large values from the keys (as WiscKey and RocksDB's BlobDB do): a value of at
     * least {@code valueThreshold} bytes is written once, to an append-only value file
     * ({@code NNNNNN.vlog}), and the tables hold a small reference to it, so compactions no
     * longer copy it. Smaller values stay in the tables. Reads, iterators, snapshots and batches
     * behave as without separation; a large value costs one more read.
     *
     * <p>Format: once a database has been opened with a threshold, its MANIFEST names a
     * comparator other implementations do not know, so C++ LevelDB, goleveldb and versions of
     * this library without value files refuse to open it rather than misread references as
     * values. It stays so when reopened without a threshold (its references are still read);
     * the command-line tool's {@code rewrite} command turns it back into a plain LevelDB
     * database. {@code 0} turns separation off for new writes.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @param valueThreshold the smallest value, in bytes, to separate; {@code 0} for none
     * @return this object
     * @throws IllegalArgumentException if {@code valueThreshold} is negative
     */
    public Options valueThreshold(int valueThreshold) {
        if (valueThreshold < 0) {
            throw new IllegalArgumentException("valueThreshold must not be negative: " + valueThreshold);
        }
        this.valueThreshold = valueThreshold;
        return this;
    }

    /**
     * Returns the share of a value file's bytes that must be garbage before its remaining
     * values are copied elsewhere and the file deleted.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @return the ratio, {@code 0.25} by default
     */
    public double valueGarbageRatio() {
        return valueGarbageRatio;
    }

    /**
     * Sets when the space of overwritten and deleted separated values ({@link #valueThreshold})
     * comes back: once at least this share of a value file's bytes is garbage, a background
     * thread copies the values it still holds to the current value file (through compactions,
     * which never block writers and keep what snapshots and iterators see) and deletes it.
     * Value files then take at most about {@code 1 / (1 - ratio)} times the live values' size;
     * a lower ratio saves space and copies more. A file whose values are all garbage is deleted
     * whatever the ratio.
     *
     * <p>This is an extension of the 0.12 API.
     *
     * @param valueGarbageRatio the share, above 0 and at most 1
     * @return this object
     * @throws IllegalArgumentException if the ratio is not in (0, 1]
     */
    public Options valueGarbageRatio(double valueGarbageRatio) {
        if (!(valueGarbageRatio > 0 && valueGarbageRatio <= 1)) {
            throw new IllegalArgumentException("valueGarbageRatio must be in (0, 1]: " + valueGarbageRatio);
        }
        this.valueGarbageRatio = valueGarbageRatio;
        return this;
    }
}
