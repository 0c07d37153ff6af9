package org.leveldbj.key;

import java.nio.ByteBuffer;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.util.Bytes;
import org.leveldbj.util.Coding;

/**
 * Encoding and decoding of internal keys (layout in the package documentation).
 *
 * <p>Thread safety: stateless.
 */
public final class InternalKeys {
    /** Length of the trailer that follows the user key. */
    public static final int TRAILER_SIZE = 8;
    /** The largest sequence number: 56 bits. */
    public static final long MAX_SEQUENCE = (1L << 56) - 1;

    private InternalKeys() {
    }

    /**
     * Packs a sequence number and type into a trailer.
     *
     * @param sequence the sequence number, {@code 0 <= sequence <= MAX_SEQUENCE}
     * @param type the value type
     * @return {@code sequence << 8 | type}
     */
    public static long packTrailer(long sequence, ValueType type) {
        if (sequence < 0 || sequence > MAX_SEQUENCE) {
            throw new IllegalArgumentException("sequence " + sequence + " outside [0, " + MAX_SEQUENCE + "]");
        }
        return (sequence << 8) | type.persistentId();
    }

    /**
     * The sequence number of a trailer.
     *
     * @param trailer a packed trailer
     * @return its sequence number
     */
    public static long sequence(long trailer) {
        return trailer >>> 8;
    }

    /**
     * The type byte of a trailer (not validated).
     *
     * @param trailer a packed trailer
     * @return its low byte
     */
    public static int typeByte(long trailer) {
        return (int) (trailer & 0xff);
    }

    /**
     * Builds an internal key.
     *
     * @param userKey the user key
     * @param sequence the sequence number
     * @param type the value type
     * @return a new array: the user key followed by the trailer
     */
    public static byte[] encode(byte[] userKey, long sequence, ValueType type) {
        byte[] out = new byte[userKey.length + TRAILER_SIZE];
        System.arraycopy(userKey, 0, out, 0, userKey.length);
        Coding.putFixed64(out, userKey.length, packTrailer(sequence, type));
        return out;
    }

    /**
     * Returns the user key of an internal key.
     *
     * @param internalKey an internal key
     * @return a new array holding the user key
     * @throws CorruptionException if the key is shorter than a trailer
     */
    public static byte[] userKey(byte[] internalKey) {
        checkLength(internalKey.length);
        return java.util.Arrays.copyOf(internalKey, internalKey.length - TRAILER_SIZE);
    }

    /**
     * Returns the trailer of an internal key.
     *
     * @param internalKey an internal key
     * @return the packed sequence and type
     * @throws CorruptionException if the key is shorter than a trailer
     */
    public static long trailer(byte[] internalKey) {
        checkLength(internalKey.length);
        return Coding.getFixed64(internalKey, internalKey.length - TRAILER_SIZE);
    }

    /**
     * Returns the trailer of an internal key held in a buffer range.
     *
     * @param buf the buffer
     * @param offset absolute index of the key's first byte
     * @param length the internal key's length
     * @return the packed sequence and type
     * @throws CorruptionException if the key is shorter than a trailer
     */
    public static long trailer(ByteBuffer buf, int offset, int length) {
        checkLength(length);
        return Coding.getFixed64(buf, offset + length - TRAILER_SIZE, offset + length);
    }

    /**
     * Decodes an internal key, checking that it has a trailer and a known type.
     *
     * @param internalKey an internal key
     * @return the parsed parts
     * @throws CorruptionException if the key is too short or its type unknown
     */
    public static ParsedInternalKey parse(byte[] internalKey) {
        long trailer = trailer(internalKey);
        ValueType type = ValueType.fromPersistentId(typeByte(trailer));
        if (type == null) {
            throw new CorruptionException("bad internal key type " + typeByte(trailer)
                    + " in key '" + Bytes.escape(internalKey) + "'");
        }
        return new ParsedInternalKey(userKey(internalKey), sequence(trailer), type);
    }

    /**
     * Renders an internal key for messages and dumps: {@code 'user key' @ sequence : type}.
     *
     * @param internalKey an internal key
     * @return the readable form; malformed keys are shown as bad
     */
    public static String toString(byte[] internalKey) {
        if (internalKey.length < TRAILER_SIZE) {
            return "(bad)" + Bytes.escape(internalKey);
        }
        long trailer = trailer(internalKey);
        ValueType type = ValueType.fromPersistentId(typeByte(trailer));
        return "'" + Bytes.escape(userKey(internalKey)) + "' @ " + sequence(trailer) + " : "
                + (type == null ? "bad type " + typeByte(trailer) : type.name().toLowerCase(java.util.Locale.ROOT));
    }

    private static void checkLength(int length) {
        if (length < TRAILER_SIZE) {
            throw new CorruptionException("internal key too short (" + length + " bytes)");
        }
    }
}
