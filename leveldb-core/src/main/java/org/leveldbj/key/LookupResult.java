package org.leveldbj.key;

import java.util.Objects;

/**
 * What a memtable knows about a user key as of a snapshot: the newest visible entry is a value
 * ({@link Status#FOUND}, with a copy of the value), a deletion ({@link Status#DELETED}: the
 * search must stop, older data is shadowed), or there is no visible entry
 * ({@link Status#NOT_FOUND}: search older data).
 *
 * <p>The two outcomes without a value are shared constants, so only a found value costs an
 * allocation besides its copy.
 *
 * <p>Thread safety: immutable. The value array is the caller's to keep (and to change).
 */
public final class LookupResult {
    /** The outcome of a lookup. */
    public enum Status {
        /** The newest visible entry is a value. */
        FOUND,
        /** The newest visible entry is a deletion. */
        DELETED,
        /** No entry for the key is visible. */
        NOT_FOUND
    }

    /** No visible entry. */
    public static final LookupResult NOT_FOUND = new LookupResult(Status.NOT_FOUND, null);
    /** The newest visible entry is a deletion. */
    public static final LookupResult DELETED = new LookupResult(Status.DELETED, null);

    private final Status status;
    private final byte[] value;

    private LookupResult(Status status, byte[] value) {
        this.status = status;
        this.value = value;
    }

    /**
     * A found value.
     *
     * @param value the value (kept, not copied)
     * @return the result
     */
    public static LookupResult found(byte[] value) {
        return new LookupResult(Status.FOUND, Objects.requireNonNull(value, "value"));
    }

    /**
     * The outcome.
     *
     * @return the status
     */
    public Status status() {
        return status;
    }

    /**
     * Tells whether a value was found.
     *
     * @return {@code status() == FOUND}
     */
    public boolean isFound() {
        return status == Status.FOUND;
    }

    /**
     * The value found. Requires: {@link #isFound()}.
     *
     * @return the value
     * @throws IllegalStateException if no value was found
     */
    public byte[] value() {
        if (value == null) {
            throw new IllegalStateException("no value: " + status);
        }
        return value;
    }

    @Override
    public String toString() {
        return value == null ? status.toString() : status + "(" + value.length + " bytes)";
    }
}
