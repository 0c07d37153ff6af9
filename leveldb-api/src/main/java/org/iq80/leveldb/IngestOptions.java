package org.iq80.leveldb;

/**
 * How {@link ExtendedDB#ingest(IngestOptions, java.io.File...)} takes files into the database.
 * An extension of the 0.12 API.
 *
 * <p>Not thread safe: a mutable holder of settings, read once when passed.
 */
public final class IngestOptions {
    private boolean moveFiles;

    /** Default settings: the files are copied into the database and left as they were. */
    public IngestOptions() {
    }

    /**
     * Whether the files are moved into the database rather than copied: a file the database
     * can take as it is is hard-linked into the database directory and its original name
     * removed once the ingestion is recorded (a copy, then the removal, where the file system
     * cannot link). A file the database must rewrite is removed after the rewrite is recorded.
     * Default {@code false}: the files are copied and left as they were.
     *
     * @param value whether to move
     * @return this
     */
    public IngestOptions moveFiles(boolean value) {
        this.moveFiles = value;
        return this;
    }

    /**
     * Whether the files are moved into the database.
     *
     * @return whether the files are moved into the database
     */
    public boolean moveFiles() {
        return moveFiles;
    }

    @Override
    public String toString() {
        return "IngestOptions[moveFiles=" + moveFiles + "]";
    }
}
