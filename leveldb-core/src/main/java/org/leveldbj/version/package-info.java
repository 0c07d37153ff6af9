/**
 * Versions of the database's file set and the MANIFEST records that describe changes to it.
 *
 * <h2>VersionEdit byte layout</h2>
 * A MANIFEST is a log (see {@code org.leveldbj.log}) whose records are encoded version edits.
 * An edit is a sequence of fields, each a varint32 tag followed by its value:
 * <pre>
 * tag 1  comparator       length-prefixed name
 * tag 2  log number       varint64
 * tag 3  next file number varint64
 * tag 4  last sequence    varint64
 * tag 5  compact pointer  varint32 level, length-prefixed internal key
 * tag 6  deleted file     varint32 level, varint64 file number
 * tag 7  new file         varint32 level, varint64 file number, varint64 file size,
 *                         length-prefixed smallest internal key, length-prefixed largest
 * tag 9  prev log number  varint64
 * </pre>
 * Tag 8 (large value references) belonged to an early format and is rejected, as is every
 * other unknown tag. Levels are below {@link org.leveldbj.version.VersionEdit#NUM_LEVELS}.
 *
 * <p>Thread safety: a {@code VersionEdit} is a mutable value confined to one thread.
 */
package org.leveldbj.version;
