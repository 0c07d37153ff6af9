package org.leveldbj.memtable;

import java.nio.ByteBuffer;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.LookupResult;
import org.leveldbj.key.ValueType;
import org.leveldbj.util.Bytes;

/**
 * The reference a memtable is checked against: a {@link TreeMap} from internal key to value,
 * ordered by user key (through the user comparator) then trailer descending, plus the seed
 * helper shared by the randomized tests.
 */
final class Model {
    final KeyComparator user;
    final TreeMap<byte[], byte[]> entries;

    Model(KeyComparator user) {
        this.user = user;
        this.entries = new TreeMap<>(order(user));
    }

    /** Internal-key order over encoded internal keys. */
    static Comparator<byte[]> order(KeyComparator user) {
        return (a, b) -> {
            int c = user.compare(ByteBuffer.wrap(a), 0, a.length - 8, ByteBuffer.wrap(b), 0, b.length - 8);
            if (c != 0) {
                return c;
            }
            return Long.compareUnsigned(InternalKeys.trailer(b), InternalKeys.trailer(a));
        };
    }

    void add(long sequence, ValueType type, byte[] key, byte[] value) {
        entries.put(InternalKeys.encode(key, sequence, type), value);
    }

    /** The answer a memtable's get must give, computed by scanning the user key's entries. */
    LookupResult get(byte[] userKey, long snapshot) {
        byte[] from = InternalKeys.encode(userKey, InternalKeys.MAX_SEQUENCE, ValueType.VALUE);
        long bestSequence = -1;
        Map.Entry<byte[], byte[]> best = null;
        for (Map.Entry<byte[], byte[]> e : entries.tailMap(from, true).entrySet()) {
            byte[] k = e.getKey();
            if (user.compare(ByteBuffer.wrap(k), 0, k.length - 8, ByteBuffer.wrap(userKey), 0, userKey.length) != 0) {
                break;
            }
            long sequence = InternalKeys.sequence(InternalKeys.trailer(k));
            if (sequence <= snapshot && sequence > bestSequence) {
                bestSequence = sequence;
                best = e;
            }
        }
        if (best == null) {
            return LookupResult.NOT_FOUND;
        }
        if (InternalKeys.typeByte(InternalKeys.trailer(best.getKey())) == ValueType.DELETION.persistentId()) {
            return LookupResult.DELETED;
        }
        return LookupResult.found(best.getValue());
    }

    static String describe(byte[] internalKey) {
        return InternalKeys.toString(internalKey);
    }

    static String describe(ByteBuffer internalKey) {
        return describe(Bytes.toArray(internalKey));
    }
}
