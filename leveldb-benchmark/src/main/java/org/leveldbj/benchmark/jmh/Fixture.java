package org.leveldbj.benchmark.jmh;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;

/**
 * What the JMH experiments share: a database in a fresh temporary directory, db_bench's keys
 * and the block cache sizes the experiments compare.
 */
final class Fixture {
    /**
     * The block cache size that caches nothing. {@code Options.cacheSize(0)} asks for the
     * default 8 MiB cache ({@code ClockBlockCache.forCacheSize}), so "off" is one byte: the cache
     * gives each of its 16 shards a sixteenth of the capacity rounded up, one byte, and never
     * caches a block larger than a shard.
     */
    static final long CACHE_OFF = 1;

    /** The "on" size of the experiments: 100 MB, as in the documented experiment. */
    static final long CACHE_100MB = 100L * 1024 * 1024;
    /** A block cache that holds every block of a 1,000,000-entry database uncompressed. */
    static final long CACHE_1GB = 1024L * 1024 * 1024;

    private final Path directory;
    private final DB db;

    private Fixture(Path directory, DB db) {
        this.directory = directory;
        this.db = db;
    }

    /**
     * Opens a new, empty database in a temporary directory of its own.
     *
     * @param options the options, with {@code createIfMissing} set by this method
     * @return the open fixture; {@link #close()} deletes the database
     */
    static Fixture open(Options options) {
        try {
            Path directory = Files.createTempDirectory("leveldbj-jmh-");
            return new Fixture(directory, LevelDbFactory.factory.open(directory.toFile(), options.createIfMissing(true)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    DB db() {
        return db;
    }

    /** @return the database's directory */
    Path directory() {
        return directory;
    }

    /**
     * Opens a copy of a closed database in a new temporary directory.
     *
     * @param template the directory of a closed database
     * @param options the options
     * @return the open fixture; {@link #close()} deletes the copy
     */
    static Fixture openCopy(Path template, Options options) {
        try {
            Path directory = Files.createTempDirectory("leveldbj-jmh-");
            try (Stream<Path> files = Files.list(template)) {
                for (Path f : files.toList()) {
                    Files.copy(f, directory.resolve(f.getFileName()));
                }
            }
            return new Fixture(directory, LevelDbFactory.factory.open(directory.toFile(), options));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Closes the database and keeps its files, for {@link #openCopy}.
     *
     * @return the directory
     */
    Path closeKeepingFiles() {
        try {
            db.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return directory;
    }

    /**
     * Deletes a directory and everything in it.
     *
     * @param directory the directory
     */
    static void delete(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The total size of the database's tables ({@code .ldb} and {@code .sst} files), leaving out
     * the log, the manifest and the info log.
     *
     * @return bytes on disk
     */
    long tableBytes() {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".ldb") || f.getFileName().toString().endsWith(".sst"))
                    .mapToLong(f -> f.toFile().length())
                    .sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Closes the database and deletes its directory. */
    void close() {
        try {
            db.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        delete(directory);
    }

    /**
     * The block cache size for a {@code cache} parameter.
     *
     * @param cache {@code off}, {@code 100MB} or {@code 1GB}
     * @return the size to pass to {@code Options.cacheSize}
     */
    static long cacheSize(String cache) {
        return switch (cache) {
            case "off" -> CACHE_OFF;
            case "100MB" -> CACHE_100MB;
            case "1GB" -> CACHE_1GB;
            default -> throw new IllegalArgumentException("cache must be off, 100MB or 1GB: " + cache);
        };
    }

    /**
     * db_bench's key for an index: sixteen decimal digits, so that index order is key order.
     *
     * @param index the index, at least 0
     * @return the key's bytes
     */
    static byte[] key(long index) {
        byte[] key = new byte[16];
        long rest = index;
        for (int i = 15; i >= 0; i--) {
            key[i] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        return key;
    }

    /**
     * A value that compresses to about half its size: random letters, then a run of one byte.
     *
     * @param random the source of the random half
     * @param size the length
     * @return a new value
     */
    static byte[] value(SplittableRandom random, int size) {
        byte[] value = new byte[size];
        int half = size / 2;
        for (int i = 0; i < size; i++) {
            value[i] = i < half ? (byte) ('a' + random.nextInt(26)) : (byte) 'x';
        }
        return value;
    }

    /**
     * Puts keys {@code 0, step, 2 * step, ...} ({@code count} of them) with values of
     * {@code valueSize} bytes.
     *
     * @param db the database
     * @param count how many keys
     * @param step the distance between consecutive key indexes
     * @param valueSize the value length
     */
    static void fill(DB db, int count, int step, int valueSize) {
        SplittableRandom random = new SplittableRandom(301);
        for (int i = 0; i < count; i++) {
            db.put(key((long) i * step), value(random, valueSize));
        }
    }

    /**
     * Like {@link #fill}, but in a random order (the same for every run), so that the tables
     * flushed from the memtable overlap and compactions move data down level by level.
     *
     * @param db the database
     * @param count how many keys
     * @param step the distance between consecutive key indexes
     * @param valueSize the value length
     */
    static void fillShuffled(DB db, int count, int step, int valueSize) {
        SplittableRandom random = new SplittableRandom(303);
        for (int i : shuffledOrder(random, count)) {
            db.put(key((long) i * step), value(random, valueSize));
        }
    }

    /**
     * Writes a small JSON object to {@code <dir>/<name>.json}, where the directory is the system
     * property {@code leveldbj.jmh.dir} (set by {@code bin/jmh}) or {@code target/jmh}.
     *
     * @param name the file name without extension
     * @param json the content
     * @return the file written
     */
    static File writeResult(String name, String json) {
        try {
            Path dir = Path.of(System.getProperty("leveldbj.jmh.dir", "target/jmh"));
            Files.createDirectories(dir);
            Path file = dir.resolve(name + ".json");
            Files.writeString(file, json + System.lineSeparator(), StandardCharsets.UTF_8);
            return file.toFile();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The numbers 0 to {@code count - 1} in a random order (Fisher-Yates, from {@code random}).
     *
     * @param random the source of the order
     * @param count how many numbers
     * @return the shuffled numbers
     */
    static int[] shuffledOrder(SplittableRandom random, int count) {
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        for (int i = count - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }
}
