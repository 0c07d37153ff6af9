package org.leveldbj.backup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.IOErrorException;
import org.leveldbj.filename.FileNames;

/**
 * The files of a backup directory (see the package overview for the layout): its marker, lock,
 * meta files, and the deletion of what interrupted backups and purged ones left.
 *
 * <p>Thread safety: the methods that change the directory are called with its lock held
 * ({@link #lock()}); reading meta files needs no lock.
 */
final class BackupDirectory {
    static final String MARKER = "LEVELDBJ-BACKUP";
    static final String LOCK = "LOCK";
    static final String SHARED = "shared";
    static final String PRIVATE = "private";
    static final String META = "meta";
    static final String TEMP_SUFFIX = ".tmp";
    static final int FORMAT = BackupMeta.FORMAT;

    private static final String MARKER_FIRST_LINE = "leveldbj backup directory";
    private static final int MAX_META_BYTES = 64 << 20;
    /** {@code NNNNNN_CCCCCCCC_SIZE.ext}: number, CRC32C, size, a table's or value file's suffix. */
    private static final Pattern SHARED_NAME = Pattern.compile("[0-9]+_[0-9a-f]{8}_[0-9]+\\.(ldb|sst|vlog)");
    private static final Pattern ID = Pattern.compile("[1-9][0-9]{0,9}");

    private final Env env;
    private final Path dir;

    private BackupDirectory(Env env, Path dir) {
        this.env = env;
        this.dir = dir;
    }

    /**
     * Opens a backup directory, making a new one where there is none or an empty one.
     *
     * @param env the environment
     * @param dir the directory
     * @param create whether to make a missing or empty directory a backup directory
     * @return the directory
     * @throws NotABackupDirectoryException if it is missing (without {@code create}), a file, or
     *     holds something other than backups of a format this version knows
     * @throws IOException if it cannot be read or made
     */
    static BackupDirectory open(Env env, Path dir, boolean create) throws IOException {
        BackupDirectory d = new BackupDirectory(env, dir.toAbsolutePath().normalize());
        d.check(create);
        return d;
    }

    private void check(boolean create) throws IOException {
        if (env.fileExists(marker())) {
            readMarker();
            return;
        }
        if (!env.fileExists(dir)) {
            if (!create) {
                throw new NotABackupDirectoryException(dir, "Invalid argument: " + dir
                        + ": does not exist (not a backup directory; creating a backup makes one)");
            }
        } else if (!env.isDirectory(dir)) {
            throw new NotABackupDirectoryException(dir, "Invalid argument: " + dir
                    + ": not a directory (give a backup directory, or a new or empty one)");
        } else {
            List<String> foreign = foreign(env.getChildren(dir));
            if (!foreign.isEmpty()) {
                throw new NotABackupDirectoryException(dir, "Invalid argument: " + dir
                        + ": not a backup directory (it has no " + MARKER + " file and holds " + foreign.size()
                        + (foreign.size() == 1 ? " entry" : " entries") + ", e.g. " + foreign.get(0)
                        + (foreign.contains(FileNames.CURRENT) ? "; it looks like a database" : "")
                        + "; give a backup directory, or a new or empty one)");
            }
            if (!create) {
                throw new NotABackupDirectoryException(dir, "Invalid argument: " + dir
                        + ": not a backup directory (it is empty; creating a backup makes it one)");
            }
        }
        makeNew();
    }

    /** What a directory holds besides what a new backup directory has before its marker. */
    private static List<String> foreign(List<String> children) {
        List<String> foreign = new ArrayList<>();
        for (String name : children) {
            if (!name.equals(LOCK) && !name.equals(MARKER + TEMP_SUFFIX)) {
                foreign.add(name);
            }
        }
        foreign.sort(null);
        return foreign;
    }

    /** Makes a new backup directory: the marker, written whole (renamed into place), first. */
    private void makeNew() throws IOException {
        env.createDir(dir);
        Env.FileLock lock = lock();
        try {
            if (env.fileExists(marker())) {
                readMarker(); // made meanwhile by another engine
                return;
            }
            List<String> foreign = foreign(env.getChildren(dir));
            if (!foreign.isEmpty()) {
                throw new NotABackupDirectoryException(dir, "Invalid argument: " + dir + ": " + foreign.get(0)
                        + " appeared while it was being made a backup directory");
            }
            Path temp = dir.resolve(MARKER + TEMP_SUFFIX);
            writeFile(temp, (MARKER_FIRST_LINE + "\nformat " + FORMAT + "\n").getBytes(StandardCharsets.US_ASCII));
            env.renameFile(temp, marker());
            for (String sub : List.of(SHARED, PRIVATE, META)) {
                env.createDir(dir.resolve(sub));
            }
            env.syncDir(dir);
            Path parent = dir.getParent();
            if (parent != null) {
                env.syncDir(parent);
            }
        } finally {
            lock.close();
        }
    }

    private void readMarker() throws IOException {
        byte[] bytes = readFile(marker(), 1024);
        String text = new String(bytes, StandardCharsets.US_ASCII);
        String[] lines = text.split("\n", -1);
        if (lines.length != 3 || !lines[0].equals(MARKER_FIRST_LINE) || !lines[1].startsWith("format ")
                || !lines[2].isEmpty() || !lines[1].substring(7).matches("[1-9][0-9]{0,8}")) {
            throw new NotABackupDirectoryException(dir, "Invalid argument: " + marker()
                    + ": not a marker of a backup directory of leveldbj (it should read '" + MARKER_FIRST_LINE
                    + "' and 'format " + FORMAT + "')");
        }
        int format = Integer.parseInt(lines[1].substring(7));
        if (format != FORMAT) {
            throw new NotABackupDirectoryException(dir, "Invalid argument: " + dir + ": backups of format " + format
                    + ", and this version of leveldbj reads format " + FORMAT
                    + (format > FORMAT ? " (use the newer version that made them)" : ""));
        }
    }

    /**
     * Makes the subdirectories a backup is written to, where they are missing. Requires: the
     * lock.
     *
     * @throws IOException if one cannot be made
     */
    void makeSubdirectories() throws IOException {
        for (String sub : List.of(SHARED, PRIVATE, META)) {
            if (!env.isDirectory(dir.resolve(sub))) {
                env.createDir(dir.resolve(sub));
                env.syncDir(dir);
            }
        }
    }

    /** @return the directory, absolute */
    Path path() {
        return dir;
    }

    /** @return the environment */
    Env env() {
        return env;
    }

    Path marker() {
        return dir.resolve(MARKER);
    }

    Path shared() {
        return dir.resolve(SHARED);
    }

    Path privateDir(int id) {
        return dir.resolve(PRIVATE).resolve(Integer.toString(id));
    }

    Path meta(int id) {
        return dir.resolve(META).resolve(Integer.toString(id));
    }

    /** @return where a file a meta file lists is stored */
    Path resolve(BackupMeta.StoredFile f) {
        return dir.resolve(f.path());
    }

    /**
     * Takes the directory's lock, which every engine takes to create, verify, restore or purge.
     *
     * @return the held lock
     * @throws IOErrorException if another engine (in this process or another) holds it, or it
     *     cannot be taken
     * @throws IOException never in practice: failures are reported as {@link IOErrorException}
     */
    Env.FileLock lock() throws IOException {
        Path file = dir.resolve(LOCK);
        try {
            return env.lockFile(file);
        } catch (Env.LockHeldException e) {
            throw new IOErrorException("IO error: " + e.getMessage() + " (another process, or another backup engine"
                    + " in this one, is using the backup directory; retry when it is done)", e);
        }
    }

    /** @return the ids of the backups there are, ascending */
    List<Integer> ids() throws IOException {
        List<Integer> ids = new ArrayList<>();
        Path meta = dir.resolve(META);
        if (!env.fileExists(meta)) {
            return ids;
        }
        for (String name : env.getChildren(meta)) {
            if (ID.matcher(name).matches() && Long.parseLong(name) <= Integer.MAX_VALUE) {
                ids.add(Integer.parseInt(name));
            }
        }
        ids.sort(null);
        return ids;
    }

    /**
     * Reads a backup's meta file.
     *
     * @param id the backup
     * @return its meta, or {@code null} when it does not exist
     * @throws org.iq80.leveldb.CorruptionException if the meta file is damaged
     * @throws IOException if it cannot be read
     */
    BackupMeta readMeta(int id) throws IOException {
        Path file = meta(id);
        byte[] bytes;
        try {
            bytes = readFile(file, MAX_META_BYTES);
        } catch (NoSuchFileException e) {
            return null;
        }
        return BackupMeta.decode(bytes, file.toString(), id);
    }

    /**
     * Reads every backup's meta file.
     *
     * @return the metas by id
     * @throws org.iq80.leveldb.CorruptionException if a meta file is damaged
     * @throws IOException if one cannot be read
     */
    TreeMap<Integer, BackupMeta> readAll() throws IOException {
        TreeMap<Integer, BackupMeta> all = new TreeMap<>();
        for (int id : ids()) {
            BackupMeta meta = readMeta(id);
            if (meta != null) { // null: purged meanwhile
                all.put(id, meta);
            }
        }
        return all;
    }

    /**
     * Writes a meta file whole: to a temporary file, synced, then renamed into place, and the
     * directory synced. Requires: the lock, and every file it lists durable.
     *
     * @param meta the backup's meta
     * @throws IOException if a step fails (the temporary file may be left)
     */
    void writeMeta(BackupMeta meta) throws IOException {
        Path target = meta(meta.id());
        Path temp = target.resolveSibling(target.getFileName() + TEMP_SUFFIX);
        writeFile(temp, meta.encode());
        env.renameFile(temp, target);
        env.syncDir(target.getParent());
    }

    /**
     * Deletes what no backup uses: temporary files, {@code private/ID/} directories without a
     * meta file, and files in {@code shared/} no meta file lists. Names of other forms are left
     * alone. Requires: the lock.
     *
     * @param backups every backup there is
     * @return the files deleted and their bytes
     * @throws IOException if a file cannot be deleted
     */
    long[] deleteUnused(Collection<BackupMeta> backups) throws IOException {
        Set<String> used = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (BackupMeta b : backups) {
            ids.add(Integer.toString(b.id()));
            for (BackupMeta.StoredFile f : b.files()) {
                used.add(f.path());
            }
        }
        long[] deleted = new long[2];
        Path meta = dir.resolve(META);
        for (String name : children(meta)) {
            if (name.endsWith(TEMP_SUFFIX) && ID.matcher(name.substring(0, name.length() - TEMP_SUFFIX.length())).matches()) {
                delete(meta.resolve(name), deleted);
            }
        }
        Path shared = shared();
        boolean sharedChanged = false;
        for (String name : children(shared)) {
            boolean temp = name.endsWith(TEMP_SUFFIX) && FileNames.parse(name.substring(0, name.length() - TEMP_SUFFIX.length())) != null;
            if (temp || (SHARED_NAME.matcher(name).matches() && !used.contains(SHARED + "/" + name))) {
                delete(shared.resolve(name), deleted);
                sharedChanged = true;
            }
        }
        Path privates = dir.resolve(PRIVATE);
        boolean privatesChanged = false;
        for (String name : children(privates)) {
            if (ID.matcher(name).matches() && !ids.contains(name) && env.isDirectory(privates.resolve(name))) {
                Path orphan = privates.resolve(name);
                for (String file : env.getChildren(orphan)) {
                    delete(orphan.resolve(file), deleted);
                }
                env.deleteDir(orphan);
                privatesChanged = true;
            }
        }
        if (sharedChanged) {
            env.syncDir(shared);
        }
        if (privatesChanged) {
            env.syncDir(privates);
        }
        return deleted;
    }

    private List<String> children(Path d) throws IOException {
        return env.fileExists(d) ? env.getChildren(d) : List.of();
    }

    private void delete(Path file, long[] deleted) throws IOException {
        long size = env.getFileSize(file);
        env.deleteFile(file);
        deleted[0]++;
        deleted[1] += size;
    }

    private void writeFile(Path file, byte[] bytes) throws IOException {
        try (Env.WritableFile out = env.newWritableFile(file)) {
            out.append(ByteBuffer.wrap(bytes));
            out.sync();
        }
    }

    /** Reads a whole small file; a longer one than {@code max} bytes is refused. */
    private byte[] readFile(Path file, int max) throws IOException {
        long size = env.getFileSize(file);
        if (size > max) {
            throw new IOException(file + ": " + size + " bytes, more than the " + max + " a file of this kind has");
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) size);
        try (Env.SequentialFile in = env.newSequentialFile(file)) {
            while (buffer.hasRemaining() && in.read(buffer) > 0) {
                // keep reading
            }
        }
        if (buffer.hasRemaining()) {
            throw new IOException(file + ": ended after " + buffer.position() + " of " + size + " bytes");
        }
        return buffer.array();
    }
}
