package org.leveldbj.key;

import java.util.Arrays;
import org.leveldbj.util.Bytes;

/**
 * The parts of an internal key, for code off the hot path (recovery, repair, dumps, tests).
 *
 * <p>Thread safety: immutable (the user key array is not copied; do not modify it).
 *
 * @param userKey the user key
 * @param sequence the sequence number
 * @param type the value type
 */
public record ParsedInternalKey(byte[] userKey, long sequence, ValueType type) {
    /**
     * Encodes these parts as an internal key.
     *
     * @return a new array
     */
    public byte[] encode() {
        return InternalKeys.encode(userKey, sequence, type);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ParsedInternalKey p && Arrays.equals(userKey, p.userKey)
                && sequence == p.sequence && type == p.type;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(userKey) * 31 + Long.hashCode(sequence) * 7 + type.hashCode();
    }

    @Override
    public String toString() {
        return "'" + Bytes.escape(userKey) + "' @ " + sequence + " : " + type;
    }
}
