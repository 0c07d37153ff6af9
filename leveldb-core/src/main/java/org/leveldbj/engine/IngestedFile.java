package org.leveldbj.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.BlockCache;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;

/**
 * A table file offered for ingestion, read completely and found sound. A file that a
 * {@link ExternalTableWriter} of this process finished, for the same user comparator, is sound
 * when its bytes still have the CRC32C they were written with ({@link WrittenTables}): the writer
 * enforced what follows as it wrote. Any other file is decoded in full: every block's checksum
 * matches and it decodes, every key is an internal key with sequence number 0 and type value or
 * deletion (what {@link ExternalTableWriter} writes), and the user keys increase strictly under
 * the database's comparator. Anything else is a {@link CorruptionException} naming the file, the
 * offset of the block (or of the footer) and the reason; an unreadable file an
 * {@link IOErrorException}.
 *
 * <p>Immutable once {@link #check checked}.
 *
 * @param path the file as given
 * @param size its size in bytes
 * @param entries its entry count
 * @param smallest its first internal key
 * @param largest its last internal key
 * @param byWriterChecksum whether its writer's CRC32C vouched for it (rather than a full decode)
 */
record IngestedFile(Path path, long size, long entries, byte[] smallest, byte[] largest, boolean byWriterChecksum) {

    /** @return the first user key */
    byte[] smallestUserKey() {
        return InternalKeys.userKey(smallest);
    }

    /** @return the last user key */
    byte[] largestUserKey() {
        return InternalKeys.userKey(largest);
    }

    /**
     * Reads a whole file and checks it.
     *
     * @param env the environment
     * @param path the file
     * @param tableOptions the database's table settings (its comparator, filter policy)
     * @return what it holds
     * @throws CorruptionException if it is not a sound table of this kind
     * @throws IOErrorException if it cannot be read
     */
    static IngestedFile check(Env env, Path path, TableOptions tableOptions) {
        String name = path.toString();
        long size;
        try {
            size = env.getFileSize(path);
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + name + ": " + e.getMessage(), e);
        }
        String comparator = ((InternalKeyComparator) tableOptions.comparator()).userComparator().name();
        try {
            WrittenTables.Written written = WrittenTables.unchanged(env, path, size, comparator);
            if (written != null) {
                return new IngestedFile(path, size, written.entries(), written.smallest(), written.largest(), true);
            }
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + name + ": " + e.getMessage(), e);
        }
        try (Env.RandomAccessFile file = env.newRandomAccessFile(path)) {
            TableOptions options = tableOptions.withBlockCache(BlockCache.NONE).withVerifyChecksums(true);
            Table table = Table.open(name, file, size, options);
            if (table.filterError() != null) {
                throw table.filterError(); // a reader with the database's filter policy would trip on it
            }
            return scan(table, path, size, options);
        } catch (IOException e) {
            throw new IOErrorException("IO error: " + name + ": " + e.getMessage(), e);
        } catch (CorruptionException e) {
            throw e.file() == null ? new CorruptionException(e.reason(), name, e.offset(), e) : e;
        } catch (DBException e) {
            throw e;
        } catch (RuntimeException e) {
            // A decoder that let a malformed input through: still a damaged file, never a crash.
            throw new CorruptionException("undecodable table: " + e, name, CorruptionException.UNKNOWN_OFFSET, e);
        }
    }

    private static IngestedFile scan(Table table, Path path, long size, TableOptions options) {
        String name = path.toString();
        KeyComparator user = ((InternalKeyComparator) options.comparator()).userComparator();
        byte[] first = null;
        byte[] previous = new byte[64];
        int previousLength = 0;
        long entries = 0;
        try (SortedIterator it = table.iterator(new TableReadOptions(true, false))) {
            for (it.seekToFirst(); it.valid(); it.next()) {
                ByteBuffer key = it.key();
                int length = key.remaining();
                if (length < InternalKeys.TRAILER_SIZE) {
                    throw new CorruptionException("entry " + entries + ": key of " + length
                            + " bytes is too short for an internal key", name, it.sourceOffset());
                }
                long trailer = InternalKeys.trailer(key, key.position(), length);
                int type = InternalKeys.typeByte(trailer);
                if (type != ValueType.VALUE.persistentId() && type != ValueType.DELETION.persistentId()) {
                    throw new CorruptionException("entry " + entries + ": type " + type
                            + " is neither a value nor a deletion", name, it.sourceOffset());
                }
                long sequence = InternalKeys.sequence(trailer);
                if (sequence != 0) {
                    throw new CorruptionException("entry " + entries + ": sequence number " + sequence
                            + " (a table for ingestion, as a TableWriter makes it, has 0)", name, it.sourceOffset());
                }
                if (entries > 0 && user.compare(key, key.position(), length - InternalKeys.TRAILER_SIZE,
                        ByteBuffer.wrap(previous), 0, previousLength - InternalKeys.TRAILER_SIZE) <= 0) {
                    throw new CorruptionException("entry " + entries + ": key is not after the previous one under comparator "
                            + user.name(), name, it.sourceOffset());
                }
                if (previous.length < length) {
                    previous = new byte[Math.max(length, 2 * previous.length)];
                }
                key.get(key.position(), previous, 0, length);
                previousLength = length;
                if (first == null) {
                    first = java.util.Arrays.copyOf(previous, length);
                }
                entries++;
            }
        }
        if (entries == 0) {
            throw new CorruptionException("table holds no entry", name, 0);
        }
        return new IngestedFile(path, size, entries, first, java.util.Arrays.copyOf(previous, previousLength), false);
    }
}
