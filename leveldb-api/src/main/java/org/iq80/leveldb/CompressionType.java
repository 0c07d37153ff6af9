package org.iq80.leveldb;

/**
 * How the blocks of a table file are compressed.
 *
 * <p>The {@linkplain #persistentId() persistent id} is the byte C++ LevelDB writes in the trailer
 * after every block, so the ids are part of the on-disk format and never change. A table may mix
 * compressed and uncompressed blocks: a block that does not shrink by at least an eighth is
 * stored uncompressed whatever this setting says.
 */
public enum CompressionType {
    /** No compression; persistent id {@code 0}. */
    NONE(0x00),

    /** Snappy compression, the default; persistent id {@code 1}. */
    SNAPPY(0x01),

    /**
     * Zstandard compression; persistent id {@code 2}.
     *
     * <p>This is an extension of the 0.12 API, matching C++ LevelDB's {@code kZstdCompression}.
     * Builds of C++ LevelDB without zstd support (such as many distributions' 1.23 packages)
     * cannot read blocks compressed this way.
     */
    ZSTD(0x02);

    private final int persistentId;

    CompressionType(int persistentId) {
        this.persistentId = persistentId;
    }

    /**
     * Returns the compression type stored on disk with the given id.
     *
     * @param persistentId the id read from a block trailer
     * @return the matching type, never {@code null}
     * @throws IllegalArgumentException if no type has that id
     */
    public static CompressionType getCompressionTypeByPersistentId(int persistentId) {
        for (CompressionType type : values()) {
            if (type.persistentId == persistentId) {
                return type;
            }
        }
        throw new IllegalArgumentException("Unknown persistentId " + persistentId);
    }

    /**
     * Returns the id that stands for this type on disk.
     *
     * @return the id written in a block trailer: {@code 0}, {@code 1} or {@code 2}
     */
    public int persistentId() {
        return persistentId;
    }
}
