package org.leveldbj.key;

/**
 * The kind of an internal key's entry, stored in the low byte of its trailer.
 *
 * <p>The byte values are persistent: they appear in log records, tables and MANIFESTs.
 */
public enum ValueType {
    /** A deletion marker: the key has no value as of this sequence number. */
    DELETION(0),
    /** A value for the key. */
    VALUE(1);

    /** The type to use when seeking: sorts first among entries of equal sequence number. */
    public static final ValueType FOR_SEEK = VALUE;

    private final int persistentId;

    ValueType(int persistentId) {
        this.persistentId = persistentId;
    }

    /**
     * The byte stored on disk.
     *
     * @return 0 or 1
     */
    public int persistentId() {
        return persistentId;
    }

    /**
     * Returns the type for a stored byte.
     *
     * @param id the stored byte
     * @return the type, or {@code null} when the byte is not a known type
     */
    public static ValueType fromPersistentId(int id) {
        switch (id) {
            case 0:
                return DELETION;
            case 1:
                return VALUE;
            default:
                return null;
        }
    }
}
