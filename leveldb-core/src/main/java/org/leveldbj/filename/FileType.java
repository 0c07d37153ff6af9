package org.leveldbj.filename;

/** The kinds of file a database directory holds, as recognised by {@link FileNames#parse}. */
public enum FileType {
    /** {@code NNNNNN.log}: a write-ahead log. */
    LOG,
    /** {@code LOCK}: the file locked while the database is open. */
    LOCK,
    /** {@code NNNNNN.ldb}, or {@code NNNNNN.sst} as older versions named it: a sorted table. */
    TABLE,
    /** {@code MANIFEST-NNNNNN}: the log of version edits. */
    DESCRIPTOR,
    /** {@code CURRENT}: names the live MANIFEST. */
    CURRENT,
    /** {@code NNNNNN.dbtmp}: a temporary file, e.g. the next CURRENT before its rename. */
    TEMP,
    /** {@code LOG} or {@code LOG.old}: the human-readable info log. */
    INFO_LOG,
    /** {@code NNNNNN.vlog}: a value file holding separated values. */
    VALUE
}
