package org.leveldbj.key;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Objects;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.util.Coding;

/**
 * The order of internal keys: user key ascending under the user's comparator, then trailer
 * ({@code sequence << 8 | type}) descending, so the newest entry for a key comes first. This is
 * the comparator the database hands to its tables and memtables. Its name is the user
 * comparator's name: the MANIFEST records and checks that one.
 *
 * <p>Shortening works on the user-key part: when the user comparator shortens the user key,
 * the result gets the largest possible trailer so that it still sorts before every real entry
 * of that shortened user key.
 *
 * <p>Thread safety: immutable; safe for concurrent use if the user comparator is.
 */
public final class InternalKeyComparator implements KeyComparator {
    /**
     * The trailer of shortened keys (index separators): C++ LevelDB's, whose seek type is
     * {@link ValueType#VALUE}, so that tables stay byte for byte as C++ writes them; with the
     * largest sequence number the type never decides an order.
     */
    private static final long MAX_TRAILER = InternalKeys.packTrailer(InternalKeys.MAX_SEQUENCE, ValueType.VALUE);

    private final KeyComparator user;

    /**
     * @param user the order of user keys
     */
    public InternalKeyComparator(KeyComparator user) {
        this.user = Objects.requireNonNull(user, "user");
    }

    /**
     * The order of user keys.
     *
     * @return the user comparator
     */
    public KeyComparator userComparator() {
        return user;
    }

    @Override
    public String name() {
        return user.name();
    }

    /** The user order's trim plus the trailer: user keys are compared first. */
    @Override
    public int bytewisePrefixTrim() {
        int t = user.bytewisePrefixTrim();
        return t < 0 ? -1 : t + InternalKeys.TRAILER_SIZE;
    }

    /**
     * Compares two internal keys.
     *
     * @throws CorruptionException if a key is shorter than {@link InternalKeys#TRAILER_SIZE}
     *     bytes (only a damaged file holds one)
     */
    @Override
    public int compare(ByteBuffer a, int aOffset, int aLength, ByteBuffer b, int bOffset, int bLength) {
        if (aLength < InternalKeys.TRAILER_SIZE || bLength < InternalKeys.TRAILER_SIZE) {
            throw new CorruptionException("internal key too short: " + Math.min(aLength, bLength) + " bytes");
        }
        int aUser = aLength - InternalKeys.TRAILER_SIZE;
        int bUser = bLength - InternalKeys.TRAILER_SIZE;
        int c = user.compare(a, aOffset, aUser, b, bOffset, bUser);
        if (c != 0) {
            return c;
        }
        long aTrailer = Coding.getFixed64(a, aOffset + aUser, aOffset + aLength);
        long bTrailer = Coding.getFixed64(b, bOffset + bUser, bOffset + bLength);
        return Long.compareUnsigned(bTrailer, aTrailer);
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return compare(a, 0, a.length, b, 0, b.length);
    }

    @Override
    public int compare(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
        if (aLength < InternalKeys.TRAILER_SIZE || bLength < InternalKeys.TRAILER_SIZE) {
            throw new CorruptionException("internal key too short: " + Math.min(aLength, bLength) + " bytes");
        }
        int aUser = aLength - InternalKeys.TRAILER_SIZE;
        int bUser = bLength - InternalKeys.TRAILER_SIZE;
        int c = user.compare(a, aOffset, aUser, b, bOffset, bUser);
        if (c != 0) {
            return c;
        }
        return Long.compareUnsigned(Coding.getFixed64(b, bOffset + bUser), Coding.getFixed64(a, aOffset + aUser));
    }

    /**
     * Compares only the user-key parts of two internal keys.
     *
     * @param a an internal key
     * @param b an internal key
     * @return the user comparator's verdict on their user keys
     */
    public int compareUserKeys(byte[] a, byte[] b) {
        return user.compare(a, 0, a.length - InternalKeys.TRAILER_SIZE, b, 0, b.length - InternalKeys.TRAILER_SIZE);
    }

    @Override
    public byte[] findShortestSeparator(byte[] start, byte[] limit) {
        byte[] userStart = InternalKeys.userKey(start);
        byte[] userLimit = InternalKeys.userKey(limit);
        byte[] shorter = user.findShortestSeparator(userStart, userLimit);
        if (shorter.length < userStart.length && user.compare(userStart, shorter) < 0) {
            byte[] out = withMaxTrailer(shorter);
            assert compare(start, out) < 0 && compare(out, limit) < 0;
            return out;
        }
        return start;
    }

    @Override
    public byte[] findShortSuccessor(byte[] key) {
        byte[] userKey = InternalKeys.userKey(key);
        byte[] shorter = user.findShortSuccessor(userKey);
        if (shorter.length < userKey.length && user.compare(userKey, shorter) < 0) {
            byte[] out = withMaxTrailer(shorter);
            assert compare(key, out) < 0;
            return out;
        }
        return key;
    }

    private static byte[] withMaxTrailer(byte[] userKey) {
        byte[] out = Arrays.copyOf(userKey, userKey.length + InternalKeys.TRAILER_SIZE);
        Coding.putFixed64(out, userKey.length, MAX_TRAILER);
        return out;
    }

    @Override
    public String toString() {
        return "InternalKeyComparator(" + user.name() + ")";
    }
}
