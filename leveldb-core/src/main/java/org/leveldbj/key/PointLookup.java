package org.leveldbj.key;

import java.nio.ByteBuffer;
import org.leveldbj.util.Coding;

/**
 * One point lookup ("get") as it passes from the memtables to the table files: the user key
 * sought, the internal key to seek (the user key followed by the snapshot's sequence number and
 * {@link ValueType#FOR_SEEK}, so that the first entry at or after it is the newest one the
 * snapshot sees), and the answer once a source settles it. An object is reused from one lookup to
 * the next, so that a lookup allocates nothing but the value it returns.
 *
 * <p>Thread safety: confined to one thread.
 */
public final class PointLookup {
    /** No source has settled the lookup yet. */
    public static final int UNSETTLED = 0;
    /** A value was found. */
    public static final int FOUND = 1;
    /** A deletion was found: older sources must not be consulted. */
    public static final int DELETED = 2;

    private byte[] userKey;
    private long sequence;
    private byte[] seekKey = new byte[64];
    private int seekKeyLength;
    private ByteBuffer seekKeyView = ByteBuffer.wrap(seekKey);
    private int state;
    private byte[] value;
    private boolean reference;
    private long entrySequence;

    /**
     * Starts a lookup.
     *
     * @param key the user key
     * @param snapshotSequence the newest sequence number the lookup may see
     */
    public void start(byte[] key, long snapshotSequence) {
        long trailer = InternalKeys.packTrailer(snapshotSequence, ValueType.FOR_SEEK);
        int n = key.length + InternalKeys.TRAILER_SIZE;
        if (seekKey.length < n) {
            seekKey = new byte[Math.max(n, 2 * seekKey.length)];
            seekKeyView = ByteBuffer.wrap(seekKey);
        }
        System.arraycopy(key, 0, seekKey, 0, key.length);
        Coding.putFixed64(seekKey, key.length, trailer);
        seekKeyLength = n;
        userKey = key;
        sequence = snapshotSequence;
        state = UNSETTLED;
        value = null;
        reference = false;
        entrySequence = -1;
    }

    /** Forgets the key and the value, so that an idle lookup holds on to neither. */
    public void clear() {
        userKey = null;
        value = null;
        state = UNSETTLED;
    }

    /** @return the user key sought */
    public byte[] userKey() {
        return userKey;
    }

    /**
     * The user key as a buffer, for comparisons by absolute index: its bytes 0 to
     * {@code userKey().length} are the user key (the seek key begins with it).
     *
     * @return the seek key's buffer; callers must not move its position or limit
     */
    public ByteBuffer userKeyBuffer() {
        return seekKey();
    }

    /** @return the snapshot's sequence number */
    public long sequence() {
        return sequence;
    }

    /** @return the seek key's array: bytes 0 to {@link #seekKeyLength()} are the internal key */
    public byte[] seekKeyArray() {
        return seekKey;
    }

    /** @return the seek key's length */
    public int seekKeyLength() {
        return seekKeyLength;
    }

    /**
     * The seek key as a buffer; callers must not move its position or limit.
     *
     * @return a buffer whose remaining bytes are the internal key
     */
    public ByteBuffer seekKey() {
        seekKeyView.limit(seekKeyLength).position(0);
        return seekKeyView;
    }

    /**
     * Settles the lookup with a value.
     *
     * @param found the value, owned by the lookup's caller from now on
     */
    public void found(byte[] found) {
        state = FOUND;
        value = found;
        reference = false;
    }

    /**
     * Settles the lookup with a separated value: {@link #value()} is then the encoding of its
     * {@link org.leveldbj.vlog.ValueReference}, which the caller resolves.
     *
     * @param encodedReference the reference's encoding, owned by the lookup's caller from now on
     */
    public void foundReference(byte[] encodedReference) {
        found(encodedReference);
        reference = true;
    }

    /**
     * Settles the lookup with a value of an entry of the given type: a plain value or a
     * reference.
     *
     * @param type {@link ValueType#VALUE} or {@link ValueType#VALUE_REFERENCE} persistent id
     * @param found the value or the reference's encoding
     */
    public void found(int type, byte[] found) {
        if (type == ValueType.VALUE_REFERENCE.persistentId()) {
            foundReference(found);
        } else {
            found(found);
        }
    }

    /** @return whether the value found is a reference to a separated value */
    public boolean isReference() {
        return reference;
    }

    /**
     * Notes the sequence number of the entry that settled the lookup (a value or a deletion),
     * for callers that ask when a key was last written.
     *
     * @param sequence the entry's sequence number
     */
    public void settledAt(long sequence) {
        entrySequence = sequence;
    }

    /**
     * The sequence number of the entry that settled the lookup.
     *
     * @return the sequence number, or {@code -1} while unsettled
     */
    public long entrySequence() {
        return entrySequence;
    }

    /** Settles the lookup with a deletion. */
    public void deleted() {
        state = DELETED;
        value = null;
        reference = false;
    }

    /** @return whether a value or a deletion was found */
    public boolean settled() {
        return state != UNSETTLED;
    }

    /** @return {@link #UNSETTLED}, {@link #FOUND} or {@link #DELETED} */
    public int state() {
        return state;
    }

    /** @return the value found, or {@code null} */
    public byte[] value() {
        return value;
    }
}
