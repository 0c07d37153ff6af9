package org.leveldbj.env;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryIteratorException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.iq80.leveldb.Env;
import org.leveldbj.util.MemoryScope;
import org.leveldbj.util.NativeMemory;

/**
 * The {@link Env} of the real file system, built on {@link FileChannel} and {@link Files}.
 *
 * <p>Reading: table files ({@link #newRandomAccessFile}) are memory-mapped whole and read without
 * copying, up to a cap on live mappings per environment ({@link #maxMappings()}, by default 1000
 * on a 64-bit JVM and 0 on a 32-bit one, whose address space is too small). Past the cap, for
 * empty files, for files over {@link Integer#MAX_VALUE} bytes, and when the operating system
 * refuses a mapping, files are read with positional reads into fresh heap buffers instead.
 * Closing a mapped file unmaps it at once: with the foreign memory API on JDK 22 and later,
 * otherwise with {@code sun.misc.Unsafe.invokeCleaner}; where neither exists the garbage
 * collector unmaps it later (logged once at debug level). {@link NativeMemory} makes that choice.
 * Mapping is configured by the system properties {@value #MMAP_PROPERTY} ({@code false} disables
 * it) and {@value #MMAP_LIMIT_PROPERTY} (the cap), read when {@link #FileSystemEnv()} runs, or by
 * {@link #FileSystemEnv(int)}.
 *
 * <p>Writing: write-ahead logs ({@code *.log}, created by {@link #newWritableFile}) are written
 * through a memory mapping ({@link MappedLogFile}): each append lands in the operating system's
 * page cache without a system call. That needs mapping enabled (a cap above 0), a JVM that can
 * unmap at once, and {@value #MMAP_LOGS_PROPERTY} not {@code false}; otherwise, and for every
 * other file, writable files are buffered (64 KiB). Value files ({@code *.vlog}) reserve disk
 * space ahead of their writes ({@code fallocate} past the end, see {@link FileSpace}) where
 * that is available, unless {@value #RESERVE_PROPERTY} is {@code false}. {@code flush()} hands
 * the bytes to the operating system; {@code sync()} also forces them to the device
 * ({@code fdatasync}), including the file's length. A new file's directory entry, and the result of {@link #renameFile} and
 * {@link #deleteFile}, are durable only after {@link #syncDir} of the directory.
 *
 * <p>Locking: {@link #lockFile} takes an operating-system lock (compatible with C++ LevelDB's)
 * and also refuses a second lock on the same file from anywhere in this JVM, whichever
 * environment asks.
 *
 * <p>Thread safety: safe for concurrent use. The handles are documented in {@link Env}.
 *
 * <p>Lifetime: an environment owns no resources besides its mapping permits, which its open
 * random-access files hold until they are closed; it needs no closing. {@link #getDefault()}
 * returns a shared instance.
 */
public final class FileSystemEnv implements Env {
    /** System property; {@code false} disables memory mapping in {@link #FileSystemEnv()}. */
    public static final String MMAP_PROPERTY = "leveldbj.mmap";
    /** System property; the cap on live mappings used by {@link #FileSystemEnv()}. */
    public static final String MMAP_LIMIT_PROPERTY = "leveldbj.mmap.limit";
    /** System property; {@code false} makes write-ahead logs buffered files instead of mapped ones. */
    public static final String MMAP_LOGS_PROPERTY = "leveldbj.mmap.logs";
    /** System property; {@code false} makes value files reserve no disk space ahead of their writes. */
    public static final String RESERVE_PROPERTY = "leveldbj.reserve";
    /** The default cap on live mappings on a 64-bit JVM. */
    public static final int DEFAULT_MMAP_LIMIT = 1000;

    private static final System.Logger LOG = System.getLogger(FileSystemEnv.class.getName());
    private static final boolean WINDOWS =
            System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

    private final MappingLimiter mappings;
    private final FileMapper mapper;
    /** Whether write-ahead logs are written through a mapping ({@link MappedLogFile}). */
    private final boolean mapLogs;
    /** Whether value files reserve disk space ahead of their writes ({@link FileSpace}). */
    private final boolean reserveSpace;

    /** Creates an environment configured by the system properties; see the class comment. */
    public FileSystemEnv() {
        this(defaultMappingLimit());
    }

    /**
     * Creates an environment with a given cap on live mappings.
     *
     * @param maxMappings how many files may be mapped at a time, at least {@code 0}; {@code 0}
     *     disables mapping
     * @throws IllegalArgumentException if {@code maxMappings} is negative
     */
    public FileSystemEnv(int maxMappings) {
        this(maxMappings, MemoryScope::map);
    }

    /**
     * Creates an environment that maps files with a given function; for tests that need the
     * operating system to refuse.
     *
     * @param maxMappings the cap on live mappings
     * @param mapper how a file is mapped into a scope
     */
    FileSystemEnv(int maxMappings, FileMapper mapper) {
        this.mappings = new MappingLimiter(maxMappings);
        this.mapper = mapper;
        this.mapLogs = maxMappings > 0 && NativeMemory.releasesOnClose()
                && !"false".equalsIgnoreCase(System.getProperty(MMAP_LOGS_PROPERTY));
        this.reserveSpace = FileSpace.AVAILABLE && !"false".equalsIgnoreCase(System.getProperty(RESERVE_PROPERTY));
    }

    /**
     * Returns the shared environment, created on first use by {@link #FileSystemEnv()}.
     *
     * @return the default environment
     */
    public static FileSystemEnv getDefault() {
        return DefaultHolder.INSTANCE;
    }

    /**
     * Returns the cap on live mappings the system properties ask for: {@code 0} when
     * {@value #MMAP_PROPERTY} is {@code false}, else {@value #MMAP_LIMIT_PROPERTY} when set,
     * else {@value #DEFAULT_MMAP_LIMIT} on a 64-bit JVM and {@code 0} on a 32-bit one. Values
     * that do not parse are logged and ignored.
     *
     * @return the cap, at least {@code 0}
     */
    public static int defaultMappingLimit() {
        return mappingLimit(System.getProperty(MMAP_PROPERTY), System.getProperty(MMAP_LIMIT_PROPERTY),
                is64BitJvm());
    }

    /** The rule of {@link #defaultMappingLimit()}, given the property values (or null). */
    static int mappingLimit(String mmap, String limit, boolean is64Bit) {
        if (mmap != null) {
            String value = mmap.trim();
            if (value.equalsIgnoreCase("false")) {
                return 0;
            }
            if (!value.equalsIgnoreCase("true")) {
                LOG.log(System.Logger.Level.WARNING, () -> "Ignoring system property " + MMAP_PROPERTY + "=" + mmap + ": expected true or false");
            }
        }
        if (limit != null) {
            try {
                int parsed = Integer.parseInt(limit.trim());
                if (parsed >= 0) {
                    return parsed;
                }
            } catch (NumberFormatException e) {
                // Reported below.
            }
            LOG.log(System.Logger.Level.WARNING, () -> "Ignoring system property " + MMAP_LIMIT_PROPERTY + "=" + limit + ": expected a number of files, at least 0");
        }
        return is64Bit ? DEFAULT_MMAP_LIMIT : 0;
    }

    private static boolean is64BitJvm() {
        String dataModel = System.getProperty("sun.arch.data.model");
        if (dataModel != null) {
            return dataModel.equals("64");
        }
        return System.getProperty("os.arch", "").contains("64");
    }

    /**
     * Returns the cap on files mapped at a time.
     *
     * @return the cap; {@code 0} when mapping is disabled
     */
    public int maxMappings() {
        return mappings.max();
    }

    /**
     * Returns how many more files could be mapped now.
     *
     * @return a snapshot of the free permits, between {@code 0} and {@link #maxMappings()}
     */
    public int availableMappings() {
        return mappings.available();
    }

    /**
     * Tells whether closing a mapped file unmaps it at once on this JVM.
     *
     * @return {@code false} when the garbage collector unmaps
     */
    public boolean unmapsOnClose() {
        return NativeMemory.releasesOnClose();
    }

    @Override
    public SequentialFile newSequentialFile(Path file) throws IOException {
        return new FileSystemSequentialFile(file, open(file, StandardOpenOption.READ));
    }

    @Override
    public RandomAccessFile newRandomAccessFile(Path file) throws IOException {
        FileChannel channel = open(file, StandardOpenOption.READ);
        try {
            long size = channel.size();
            if (size > 0 && size <= Integer.MAX_VALUE && mappings.tryAcquire()) {
                RandomAccessFile mapped = tryMap(file, channel, size);
                if (mapped != null) {
                    return mapped;
                }
            }
            return new PositionalRandomAccessFile(file, channel, size);
        } catch (IOException | RuntimeException | Error e) {
            closeAfterFailure(channel, e);
            if (e instanceof IOException) {
                throw IoErrors.withPath(file, (IOException) e);
            }
            throw e;
        }
    }

    /**
     * Maps the file. Requires: the caller took a permit, which passes to the returned file or is
     * released here. On success the channel is closed; on a refused mapping it is left open. An
     * interrupt is reported, not mistaken for a refusal (it has closed the channel).
     *
     * @return the mapped file, or {@code null} when the operating system refused the mapping
     */
    private RandomAccessFile tryMap(Path file, FileChannel channel, long size) throws IOException {
        MemoryScope scope = NativeMemory.open();
        ByteBuffer bytes;
        try {
            bytes = mapper.map(scope, channel, 0, size);
        } catch (IOException | RuntimeException | Error e) {
            scope.close();
            mappings.release();
            if (e instanceof ClosedByInterruptException) {
                throw (IOException) e;
            }
            if (e instanceof IOException) {
                LOG.log(System.Logger.Level.DEBUG, () -> "Cannot map " + file + " (" + size + " bytes), reading it with positional reads instead: " + e.toString());
                return null;
            }
            throw e;
        }
        MappedRandomAccessFile mapped = new MappedRandomAccessFile(file, scope, bytes, mappings);
        try {
            channel.close();
        } catch (IOException e) {
            mapped.close();
            throw e;
        }
        return mapped;
    }

    @Override
    public WritableFile newWritableFile(Path file) throws IOException {
        if (mapLogs && nameEndsWith(file, ".log")) {
            return new MappedLogFile(file, open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING));
        }
        return new FileSystemWritableFile(file, open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING), reserveSpace && nameEndsWith(file, ".vlog"));
    }

    /**
     * Tells whether this environment writes write-ahead logs through a memory mapping.
     *
     * @return {@code true} when {@code *.log} files are {@link MappedLogFile}s
     */
    public boolean mapsLogs() {
        return mapLogs;
    }

    /**
     * Tells whether this environment reserves disk space ahead of the writes of value files.
     *
     * @return {@code true} on Linux where JNA loads and {@value #RESERVE_PROPERTY} is not
     *     {@code false}
     */
    public boolean reservesSpace() {
        return reserveSpace;
    }

    /**
     * Tells a file's kind by the end of its name: {@code ".log"} for a write-ahead log,
     * {@code ".vlog"} for a value file (separated values).
     */
    private static boolean nameEndsWith(Path file, String suffix) {
        Path name = file.getFileName();
        return name != null && name.toString().endsWith(suffix);
    }

    @Override
    public WritableFile newAppendableFile(Path file) throws IOException {
        return new FileSystemWritableFile(file, open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND));
    }

    private static FileChannel open(Path file, StandardOpenOption... options) throws IOException {
        try {
            return FileChannel.open(file, options);
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        }
    }

    private static void closeAfterFailure(FileChannel channel, Throwable failure) {
        try {
            channel.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    @Override
    public boolean fileExists(Path file) {
        return Files.exists(file);
    }

    @Override
    public boolean isDirectory(Path path) {
        return Files.isDirectory(path);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Links with {@link Files#createLink}; copies when the file system refuses (another file
     * system, or one without hard links).
     */
    @Override
    public boolean linkOrCopyFile(Path source, Path target) throws IOException {
        try {
            Files.createLink(target, source);
            return true;
        } catch (FileAlreadyExistsException | NoSuchFileException e) {
            throw e;
        } catch (UnsupportedOperationException | FileSystemException e) {
            try (SequentialFile in = newSequentialFile(source)) {
                copyFile(in, target, Long.MAX_VALUE);
            }
            return false;
        }
    }

    @Override
    public List<String> getChildren(Path dir) throws IOException {
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                names.add(entry.getFileName().toString());
            }
        } catch (DirectoryIteratorException e) {
            throw IoErrors.withPath(dir, e.getCause());
        } catch (IOException e) {
            throw IoErrors.withPath(dir, e);
        }
        return names;
    }

    @Override
    public long getFileSize(Path file) throws IOException {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        }
    }

    @Override
    public void deleteFile(Path file) throws IOException {
        if (Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileSystemException(file.toString(), null, "is a directory, not a file");
        }
        try {
            Files.delete(file);
        } catch (IOException e) {
            throw IoErrors.withPath(file, e);
        }
    }

    @Override
    public void createDir(Path dir) throws IOException {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw IoErrors.withPath(dir, e);
        }
    }

    @Override
    public void deleteDir(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new NotDirectoryException(dir.toString());
            }
            throw new NoSuchFileException(dir.toString());
        }
        try {
            Files.delete(dir);
        } catch (IOException e) {
            throw IoErrors.withPath(dir, e);
        }
    }

    @Override
    public void renameFile(Path source, Path target) throws IOException {
        try {
            Files.move(source, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw IoErrors.withPath(source, e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>Opens the directory and forces it. On Windows, where a directory cannot be opened as a
     * channel and the file system orders its metadata updates itself, the failure to do so is
     * ignored; a missing directory is reported everywhere.
     */
    @Override
    public void syncDir(Path dir) throws IOException {
        FileChannel channel;
        try {
            channel = FileChannel.open(dir, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            if (WINDOWS && Files.isDirectory(dir)) {
                return;
            }
            throw IoErrors.withPath(dir, e);
        }
        try (channel) {
            channel.force(true);
        } catch (IOException e) {
            if (WINDOWS) {
                return;
            }
            throw IoErrors.withPath(dir, e);
        }
    }

    @Override
    public FileLock lockFile(Path file) throws IOException {
        return FileSystemFileLock.acquire(file, true);
    }

    @Override
    public FileLock lockExistingFile(Path file) throws IOException {
        try {
            return FileSystemFileLock.acquire(file, false);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "FileSystemEnv[maxMappings=" + mappings.max() + ", unmapping=" + NativeMemory.mechanism() + "]";
    }

    /**
     * How a file is mapped: {@link MemoryScope#map} outside tests.
     *
     * <p>Thread safety: implementations are safe for concurrent use.
     */
    @FunctionalInterface
    interface FileMapper {
        /**
         * Maps part of a file read-only into a scope.
         *
         * @return a read-only buffer at position 0, owned by {@code scope}
         * @throws IOException if the operating system refuses the mapping
         */
        ByteBuffer map(MemoryScope scope, FileChannel channel, long position, long size) throws IOException;
    }

    /** Creates the shared instance on first use. */
    private static final class DefaultHolder {
        static final FileSystemEnv INSTANCE = new FileSystemEnv();
    }
}
