package org.leveldbj.version;

import java.nio.ByteBuffer;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.PointLookup;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.KeyBatch;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.util.Bytes;

/**
 * Many point lookups passing together through the files of one {@link Version}
 * ({@link Version#getAll}): the same files are read, in the same order, and settle each lookup
 * the same way as {@link Version#get(PointLookup, TableReadOptions, Version.GetStats)} one
 * lookup at a time, but the work is shared. Level 0's files are each asked once for all the
 * lookups in their range, newest file first; a deeper level is walked once from its first
 * file to its last, moving to a later file only when a lookup lies past the current one's end
 * (a binary search over the files not yet passed), and each file is handed all of its lookups
 * at once ({@link TableSource#getAll}). A lookup settled (found or deleted) in one place is
 * left out of every later one.
 *
 * <p>Unlike single lookups, a batch charges no seeks to the files it reads: seek charges are a
 * sample of the read pattern, and single lookups keep providing it.
 *
 * <p>Thread safety: confined to the thread making the lookups; one object per batch.
 */
final class MultiLookup implements KeyBatch {
    private final PointLookup[] lookups;
    private final int count;
    private final KeyComparator ucmp;
    private final InternalKeyComparator icmp;
    private final TableSource tables;
    private final TableReadOptions readOptions;
    /** The lookups handed to the file being read, by index into {@link #lookups}. */
    private final int[] which;

    /**
     * Requires: the first {@code count} lookups are started at one sequence number and sorted by
     * user key, with no key twice.
     */
    MultiLookup(PointLookup[] lookups, int count, InternalKeyComparator icmp, TableSource tables,
                TableReadOptions readOptions) {
        this.lookups = lookups;
        this.count = count;
        this.icmp = icmp;
        this.ucmp = icmp.userComparator();
        this.tables = tables;
        this.readOptions = readOptions;
        this.which = new int[count];
    }

    /**
     * Reads the level-0 files, newest first: each once, for the unsettled lookups within its
     * key range.
     *
     * @param newestFirst level 0's files, newest first
     */
    void level0(FileMetaData[] newestFirst) {
        for (FileMetaData f : newestFirst) {
            int n = 0;
            for (int i = 0; i < count; i++) {
                PointLookup lookup = lookups[i];
                if (lookup.settled()) {
                    continue;
                }
                byte[] userKey = lookup.userKey();
                if (Version.compareUser(ucmp, userKey, f.largest()) > 0) {
                    break; // sorted: every later key is past this file too
                }
                if (Version.compareUser(ucmp, userKey, f.smallest()) >= 0) {
                    which[n++] = i;
                }
            }
            if (n > 0) {
                tables.getAll(f.number(), f.fileSize(), which, n, readOptions, this);
            }
        }
    }

    /**
     * Walks one sorted, disjoint level once, handing each file the unsettled lookups it may
     * hold.
     *
     * @param files the level's files
     */
    void level(List<FileMetaData> files) {
        int size = files.size();
        int file = -1; // the file the lookups in which[0..n) belong to
        int n = 0;
        for (int i = 0; i < count; i++) {
            PointLookup lookup = lookups[i];
            if (lookup.settled()) {
                continue;
            }
            byte[] seekKey = lookup.seekKeyArray();
            int seekLength = lookup.seekKeyLength();
            if (file < 0 || compareLargest(files.get(file), seekKey, seekLength) < 0) {
                if (n > 0) {
                    FileMetaData f = files.get(file);
                    tables.getAll(f.number(), f.fileSize(), which, n, readOptions, this);
                    n = 0;
                }
                file = findFile(files, file + 1, seekKey, seekLength);
                if (file == size) {
                    return; // this key and every later one are past the level's last file
                }
            }
            if (Version.compareUser(ucmp, lookup.userKey(), files.get(file).smallest()) >= 0) {
                which[n++] = i;
            }
        }
        if (n > 0) {
            FileMetaData f = files.get(file);
            tables.getAll(f.number(), f.fileSize(), which, n, readOptions, this);
        }
    }

    private int compareLargest(FileMetaData f, byte[] seekKey, int seekLength) {
        byte[] largest = f.largest();
        return icmp.compare(largest, 0, largest.length, seekKey, 0, seekLength);
    }

    /** The first file at or after {@code from} whose largest key is at or after the key. */
    private int findFile(List<FileMetaData> files, int from, byte[] seekKey, int seekLength) {
        int left = from;
        int right = files.size();
        while (left < right) {
            int mid = (left + right) >>> 1;
            if (compareLargest(files.get(mid), seekKey, seekLength) < 0) {
                left = mid + 1;
            } else {
                right = mid;
            }
        }
        return right;
    }

    @Override
    public ByteBuffer key(int i) {
        return lookups[i].seekKey();
    }

    @Override
    public void accept(int i, ByteBuffer key, ByteBuffer value) {
        settle(lookups[i], ucmp, key, value);
    }

    /**
     * Settles a lookup with the entry a table handed over, if the entry is for its user key: a
     * value (or a reference to a separated value) found, or a deletion.
     *
     * @param lookup the lookup
     * @param ucmp the user-key order
     * @param key the entry's internal key
     * @param value the entry's value
     * @throws CorruptionException if the key is malformed
     */
    static void settle(PointLookup lookup, KeyComparator ucmp, ByteBuffer key, ByteBuffer value) {
        int length = key.remaining();
        if (length < InternalKeys.TRAILER_SIZE) {
            throw new CorruptionException("corrupted internal key in table: '"
                    + Bytes.escape(Bytes.copy(key, key.position(), length)) + "'");
        }
        int userLength = length - InternalKeys.TRAILER_SIZE;
        byte[] userKey = lookup.userKey();
        if (ucmp.compare(key, key.position(), userLength, lookup.userKeyBuffer(), 0, userKey.length) != 0) {
            return;
        }
        long trailer = InternalKeys.trailer(key, key.position(), length);
        int type = InternalKeys.typeByte(trailer);
        if (type == ValueType.VALUE.persistentId() || type == ValueType.VALUE_REFERENCE.persistentId()) {
            lookup.found(type, Bytes.copy(value, value.position(), value.remaining()));
        } else if (type == ValueType.DELETION.persistentId()) {
            lookup.deleted();
        } else {
            throw new CorruptionException("corrupted internal key in table: bad type " + type);
        }
        lookup.settledAt(InternalKeys.sequence(trailer));
    }
}
