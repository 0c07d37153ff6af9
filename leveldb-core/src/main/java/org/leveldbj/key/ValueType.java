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
    VALUE(1),
    /**
     * A value for the key kept in a value file: the entry's value is a
     * {@link org.leveldbj.vlog.ValueReference}'s encoding. Only databases with separated values
     * hold such entries (C++ LevelDB knows types 0 and 1 alone).
     */
    VALUE_REFERENCE(2);

    /**
     * The type to use when seeking: the highest, so that a seek key sorts before every entry of
     * its sequence number.
     */
    public static final ValueType FOR_SEEK = VALUE_REFERENCE;

    private final int persistentId;

    ValueType(int persistentId) {
        this.persistentId = persistentId;
    }

    /**
     * The byte stored on disk.
     *
     * @return 0, 1 or 2
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
            case 2:
                return VALUE_REFERENCE;
            default:
                return null;
        }
    }
}
