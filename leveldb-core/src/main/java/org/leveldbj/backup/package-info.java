/**
 * Incremental backups of a live database: {@link org.leveldbj.backup.BackupEngine} copies what a
 * database consists of at one moment into a backup directory, storing each table and value file
 * once however many backups hold it, and verifies, restores and purges the backups kept there.
 *
 * <h2>What a backup holds</h2>
 * A backup is made from the files {@link org.leveldbj.engine.LiveFiles} captures: every write
 * acknowledged before {@code createBackup} was called and none that started after it returned,
 * the memtables' entries included (they go into a log of the backup's own; nothing is flushed).
 * A restored backup is a database directory that opens with this library, and with C++ LevelDB
 * and goleveldb when the database has no separated values.
 *
 * <h2>Directory layout</h2>
 * <pre>
 * BACKUPDIR/
 *   LEVELDBJ-BACKUP                      marker: this is a backup directory of leveldbj, its format
 *   LOCK                                 locked while an engine creates, verifies, restores or purges
 *   shared/NNNNNN_CCCCCCCC_SIZE.ldb      a table (or .sst), stored once for every backup holding it
 *   shared/NNNNNN_CCCCCCCC_SIZE.vlog     a value file as long as it was when backed up
 *   private/ID/NNNNNN.log                the backup's own log: the memtables' entries
 *   private/ID/MANIFEST-NNNNNN           the backup's own MANIFEST, naming that log
 *   private/ID/CURRENT                   names that MANIFEST
 *   meta/ID                              the backup's meta file: a backup exists iff it exists
 * </pre>
 * {@code NNNNNN} is the file's number in the database (at least six decimal digits),
 * {@code CCCCCCCC} the CRC32C of its bytes (eight lower-case hexadecimal digits, unmasked) and
 * {@code SIZE} its length in bytes (decimal), so one name is one content. A value file is appended
 * to while its database writes it: captured at two lengths, it is two shared files, each holding
 * the bytes up to its length. {@code ID} is the backup's id, a decimal integer from 1, one more
 * than the highest id in {@code meta/} when it is made.
 *
 * <h2>What is copied</h2>
 * While a database stays open, its file numbers are never reused, its tables never change and
 * its value files only grow; so a file of the same name and size as one a backup made from the
 * same open database holds (the same session, below) is that file, and is neither read nor
 * copied again. Any other file of a name and size some backup holds is read and its CRC32C
 * compared: equal, it is not copied (a database closed and opened again, or moved); different
 * (another database made at the same path), it is stored as a new shared file. Every other file
 * is copied, its CRC32C computed on the bytes copied.
 *
 * <p>The marker {@code LEVELDBJ-BACKUP} is two lines of ASCII:
 * <pre>
 * leveldbj backup directory LF
 * format 1 LF
 * </pre>
 * An engine refuses a directory whose marker is missing (unless the directory is new or empty)
 * or names a format it does not know.
 *
 * <h2>Meta file layout (format 1)</h2>
 * UTF-8 text, one field per line, each line ended by a line feed (LF, 0x0a), fields separated by
 * one space (0x20); numbers are decimal ASCII without sign or leading zeros (but {@code 0}):
 * <pre>
 * "leveldbj-backup-meta" SP format LF        format version: 1
 * "id" SP id LF                              the backup's id
 * "time" SP millis LF                        when it was made: milliseconds since 1970-01-01T00:00Z
 * "sequence" SP sequence LF                  the last sequence number it holds
 * "library" SP version LF                    the version of leveldbj that made it (no spaces)
 * "database" SP escaped-path LF              the absolute path of the database it was made from
 * "session" SP hex32 LF                      a random id of the open database it was made from,
 *                                            32 lower-case hex digits; backups made from one open
 *                                            database (one process, one open) share it
 * "new" SP files SP bytes LF                 files and bytes this backup stored that none before held
 * ( "file" SP name SP path SP size SP crc LF )*
 *                                            one line per file of the backup, tables first, then
 *                                            value files, then the log, MANIFEST and CURRENT:
 *                                            name: its name in a restored database (NNNNNN.ldb,
 *                                            MANIFEST-NNNNNN, CURRENT, ...); path: where it is,
 *                                            relative to BACKUPDIR with '/' separators (shared/...
 *                                            or private/ID/...); size: its length in bytes;
 *                                            crc: CRC32C of its bytes, eight lower-case hex digits
 * "crc32c" SP crc LF                         CRC32C of every byte before this line
 * </pre>
 * In the database path a backslash is written {@code \\}, a line feed {@code \n} and a carriage
 * return {@code \r}. A meta file is written to {@code meta/ID.tmp}, synced, renamed to
 * {@code meta/ID} and the directory synced, after every file it lists is synced and named: a
 * backup appears whole or not at all. A file is read back only by the checks above: names that
 * are not plain database file names and paths that leave {@code shared/} or {@code private/ID/}
 * are refused as corruption.
 *
 * <h2>Crashes and leftovers</h2>
 * A crash at any point leaves at most a half-made backup: files in {@code shared/} no meta file
 * lists, a {@code private/ID/} without {@code meta/ID}, temporary files ({@code *.tmp}). None of
 * it is listed, and the next create or purge deletes it (only names of these forms; anything
 * else found there is left alone).
 *
 * <h2>Errors</h2>
 * Every failure is an unchecked {@link org.iq80.leveldb.DBException} whose message names what
 * was being done, the file and the reason: {@link org.iq80.leveldb.IOErrorException} for a file
 * that cannot be read or written (the directory's lock held elsewhere included),
 * {@link org.iq80.leveldb.CorruptionException} for a stored file or meta file that is not what
 * its meta file says, {@link org.leveldbj.backup.NotABackupDirectoryException} for a directory
 * that holds something else, {@link org.leveldbj.backup.BackupNotFoundException} for an unknown
 * id, and {@link org.iq80.leveldb.InvalidArgumentException} for other bad arguments (a restore
 * target that is not empty).
 */
package org.leveldbj.backup;
