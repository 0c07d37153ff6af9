package org.iq80.leveldb;

/**
 * A {@link Transaction#commit()} refused because a key the transaction read or wrote was
 * changed, by anyone, after the transaction began: another transaction, a plain
 * {@link DB#put}, {@link DB#delete} or {@link DB#write}. Nothing of the transaction was written;
 * the transaction is finished. The usual answer is to begin a new transaction and do the work
 * again, reading the new values.
 *
 * <p>{@link #key()} is one conflicting key (the first one found); there may be others. The
 * message names it, printable ASCII as is and other bytes as {@code \xNN}.
 *
 * <p>This is an extension of the 0.12 API.
 */
public class TransactionConflictException extends DBException {
    private static final long serialVersionUID = 1L;

    private final byte[] key;

    /**
     * Creates an exception.
     *
     * @param key the conflicting key (copied)
     * @param changedAt the sequence number of the newest write to the key
     * @param beganAt the sequence number the transaction began at
     */
    public TransactionConflictException(byte[] key, long changedAt, long beganAt) {
        super("transaction conflict: key '" + escape(key) + "' was written at sequence " + changedAt
                + ", after the transaction began at sequence " + beganAt);
        this.key = key.clone();
    }

    /**
     * The conflicting key.
     *
     * @return a copy of the key
     */
    public byte[] key() {
        return key.clone();
    }

    private static String escape(byte[] key) {
        StringBuilder b = new StringBuilder(key.length);
        for (byte x : key) {
            int c = x & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '\\' && c != '\'') {
                b.append((char) c);
            } else {
                b.append(String.format("\\x%02x", c));
            }
        }
        return b.toString();
    }
}
