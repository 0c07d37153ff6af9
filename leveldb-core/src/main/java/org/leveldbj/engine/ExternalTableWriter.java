package org.leveldbj.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.iq80.leveldb.InvalidArgumentException;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.TableFileInfo;
import org.iq80.leveldb.TableWriter;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.compress.Codecs;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.BlockCache;
import org.leveldbj.table.TableBuilder;
import org.leveldbj.table.TableOptions;

/**
 * The engine's {@link TableWriter}: the database's own {@link TableBuilder} writing internal keys
 * (user key, sequence 0, type {@link ValueType#VALUE} or {@link ValueType#DELETION}) to
 * {@code name.tmp}, renamed to {@code name} by {@link #finish()} once complete and synced.
 *
 * <p>The order check is on user keys under the user comparator, strictly increasing, before
 * anything reaches the builder: a refused key changes nothing. With sequence 0 for every entry,
 * strictly increasing user keys are exactly increasing internal keys.
 *
 * <p>On a machine with more than one processor, the data blocks are compressed, in batches, on a
 * thread of the writer's own while the caller goes on adding entries ({@link TableBuilder}'s
 * executor): the file is the same, written sooner. The thread starts with the first batch and
 * ends with {@link #finish()} or {@link #close()}.
 *
 * <p>The CRC32C of every byte written is kept; a finished file is recorded in
 * {@link WrittenTables} with it, so that an ingestion in this process can tell by one read of
 * the file that it is unchanged instead of decoding it again.
 *
 * <p>Thread safety: confined to one thread, as {@link TableWriter} says.
 */
public final class ExternalTableWriter implements TableWriter {
    private final Env env;
    private final Path target;
    private final Path temp;
    private final KeyComparator userComparator;
    private final ChecksummedFile file;
    private final TableBuilder builder;
    /** Compresses data blocks beside the caller's thread, or {@code null}: one processor. */
    private final ThreadPoolExecutor compressor;
    private byte[] first;
    /** The first internal key, and the type of the last entry. */
    private byte[] firstInternal;
    private ValueType lastType;
    /** The previous user key: its first {@link #previousLength} bytes. */
    private byte[] previous = new byte[64];
    private int previousLength = -1;
    /** The internal key being added, reused. */
    private byte[] internal = new byte[64 + InternalKeys.TRAILER_SIZE];
    private long position;
    private boolean done;

    private ExternalTableWriter(Env env, Path target, TableOptions options) {
        this.env = env;
        this.target = target;
        this.temp = target.resolveSibling(target.getFileName() + ".tmp");
        this.userComparator = ((InternalKeyComparator) options.comparator()).userComparator();
        if (env.fileExists(target)) {
            throw new InvalidArgumentException("Invalid argument: " + target + " exists");
        }
        try {
            if (env.fileExists(temp)) {
                env.deleteFile(temp); // left by a writer that never finished
            }
            this.file = new ChecksummedFile(env.newWritableFile(temp));
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + temp + ": creating a table file: " + e.getMessage(), e);
        }
        this.compressor = Runtime.getRuntime().availableProcessors() > 1 ? compressorFor(target) : null;
        this.builder = new TableBuilder(options, file, compressor);
    }

    /** One thread for one writer, started by its first batch of blocks. */
    private static ThreadPoolExecutor compressorFor(Path target) {
        return new ThreadPoolExecutor(0, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
            Thread t = new Thread(task, "leveldbj-table-writer " + target.getFileName());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * A writer with a database's table settings.
     *
     * @param env the environment
     * @param target the file to write
     * @param tableOptions the database's table settings (internal-key comparator)
     * @return the writer
     */
    static ExternalTableWriter create(Env env, Path target, TableOptions tableOptions) {
        return new ExternalTableWriter(env, target, tableOptions.withBlockCache(BlockCache.NONE));
    }

    /**
     * A writer with the table settings a database opened with these options would use.
     *
     * @param target the file to write
     * @param options the options (comparator, block size, restart interval, compression,
     *     filter policy, environment)
     * @return the writer
     * @throws InvalidArgumentException if the file exists
     * @throws org.iq80.leveldb.DBException if the compression has no implementation
     */
    public static ExternalTableWriter create(Path target, Options options) {
        Arguments.checkNotNull(target, "file");
        Arguments.checkNotNull(options, "options");
        Codecs.forId(options.compressionType().persistentId());
        Env env = options.env() != null ? options.env() : FileSystemEnv.getDefault();
        InternalKeyComparator icmp = new InternalKeyComparator(UserComparators.of(options.comparator()));
        return new ExternalTableWriter(env, target, DbImpl.tableOptions(options, icmp, BlockCache.NONE));
    }

    @Override
    public void put(byte[] key, byte[] value) {
        Arguments.checkNotNull(key, "key");
        Arguments.checkNotNull(value, "value");
        add(key, value, ValueType.VALUE);
    }

    @Override
    public void delete(byte[] key) {
        Arguments.checkNotNull(key, "key");
        add(key, new byte[0], ValueType.DELETION);
    }

    private void add(byte[] key, byte[] value, ValueType type) {
        checkUsable();
        int order = previousLength < 0 ? 1 : userComparator.compare(key, 0, key.length, previous, 0, previousLength);
        if (order <= 0) {
            byte[] before = Arrays.copyOf(previous, previousLength);
            throw new InvalidArgumentException("Invalid argument: key at position " + position + " ("
                    + describe(key) + ") is not after the key at position " + (position - 1) + " (" + describe(before)
                    + ") under comparator " + userComparator.name()
                    + (order == 0 ? ": duplicate key" : ": keys must be added in increasing order"));
        }
        int length = key.length + InternalKeys.TRAILER_SIZE;
        if (internal.length < length) {
            internal = new byte[Math.max(length, 2 * internal.length)];
        }
        System.arraycopy(key, 0, internal, 0, key.length);
        long trailer = InternalKeys.packTrailer(0, type);
        for (int i = 0; i < InternalKeys.TRAILER_SIZE; i++) {
            internal[key.length + i] = (byte) (trailer >>> (8 * i));
        }
        try {
            builder.add(java.nio.ByteBuffer.wrap(internal, 0, length), java.nio.ByteBuffer.wrap(value));
        } catch (IOException e) {
            throw failure("writing", e);
        }
        if (first == null) {
            first = key.clone();
            firstInternal = InternalKeys.encode(first, 0, type);
        }
        lastType = type;
        if (previous.length < key.length) {
            previous = new byte[Math.max(key.length, 2 * previous.length)];
        }
        System.arraycopy(key, 0, previous, 0, key.length);
        previousLength = key.length;
        position++;
    }

    @Override
    public TableFileInfo finish() {
        checkUsable();
        if (position == 0) {
            throw new InvalidArgumentException("Invalid argument: " + target + ": a table needs at least one entry");
        }
        done = true;
        try {
            builder.finish();
            stopCompressor();
            file.sync();
            file.close();
            env.renameFile(temp, target);
            env.syncDir(target.toAbsolutePath().getParent());
        } catch (IOException | RuntimeException e) {
            abandon(e);
            throw e instanceof IOException io ? failure("finishing", io) : (RuntimeException) e;
        }
        byte[] last = Arrays.copyOf(previous, previousLength);
        WrittenTables.record(env, target, new WrittenTables.Written(builder.fileSize(), file.crc32c(),
                userComparator.name(), position, firstInternal, InternalKeys.encode(last, 0, lastType)));
        return new TableFileInfo(target.toFile(), builder.fileSize(), position, first, last);
    }

    @Override
    public void close() {
        if (done) {
            return;
        }
        done = true;
        builder.abandon();
        abandon(new RuntimeException());
    }

    private void abandon(Exception holder) {
        stopCompressor();
        try {
            file.close();
        } catch (IOException suppressed) {
            holder.addSuppressed(suppressed);
        }
        try {
            if (env.fileExists(temp)) {
                env.deleteFile(temp);
            }
        } catch (IOException suppressed) {
            holder.addSuppressed(suppressed);
        }
    }

    private void stopCompressor() {
        if (compressor != null) {
            compressor.shutdown(); // a compression task touches only its own blocks: no need to wait
        }
    }

    private void checkUsable() {
        if (done) {
            throw new IllegalStateException("table writer for " + target + " is finished or closed");
        }
    }

    private IOErrorException failure(String what, IOException e) {
        return new IOErrorException("IO error: " + temp + ": " + what + " a table: " + e.getMessage(), e);
    }

    /** A key for a message: printable ASCII as it is, else its bytes in hex (at most 64). */
    static String describe(byte[] key) {
        byte[] shown = key.length > 64 ? Arrays.copyOf(key, 64) : key;
        boolean printable = true;
        for (byte b : shown) {
            printable &= b >= 0x20 && b < 0x7f;
        }
        StringBuilder sb = new StringBuilder();
        if (printable) {
            sb.append('\'').append(new String(shown, java.nio.charset.StandardCharsets.US_ASCII)).append('\'');
        } else {
            sb.append("0x");
            for (byte b : shown) {
                sb.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
            }
        }
        return key.length > 64 ? sb + "... (" + key.length + " bytes)" : sb.toString();
    }

    @Override
    public String toString() {
        return "TableWriter[" + target + ", " + position + " entries" + (done ? ", done]" : "]");
    }
}
