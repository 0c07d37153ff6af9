package org.leveldbj.backup;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.iq80.leveldb.Env;
import org.leveldbj.backup.BackupMeta.StoredFile;
import org.leveldbj.engine.LiveFiles;
import org.leveldbj.env.IoErrors;
import org.leveldbj.filename.FileNames;

/**
 * Makes one backup from a capture of a live database: stores the tables and value files that no
 * backup holds yet in {@code shared/}, writes the backup's own log, MANIFEST and CURRENT in
 * {@code private/ID/}, and writes the meta file last.
 *
 * <p>Which files are stored (the package overview gives the reasons): a file of the same name
 * and size as one a backup of the same session holds is that file, and is not read. A file of
 * the same name and size as one any other backup holds is read first: when its CRC32C names a
 * stored file, it is not copied. Every other file is copied into a temporary file while its
 * CRC32C is computed, then renamed to its shared name.
 *
 * <p>Thread safety: called by the engine with its lock and the directory's lock held.
 */
final class BackupCreation {
    private final BackupDirectory directory;
    private final Env env;
    private final int id;

    /**
     * @param directory the backup directory
     * @param id the new backup's id
     */
    BackupCreation(BackupDirectory directory, int id) {
        this.directory = directory;
        this.env = directory.env();
        this.id = id;
    }

    /**
     * Makes the backup.
     *
     * @param live the capture of the database
     * @param session the database's session ({@link DatabaseSessions})
     * @param existing every backup there is
     * @param progress told of the bytes read and copied
     * @return the new backup's meta, written
     * @throws IOException if a file cannot be read, copied or written
     */
    BackupMeta make(LiveFiles live, String session, Collection<BackupMeta> existing, BackupProgress progress)
            throws IOException {
        String database = live.directory().toAbsolutePath().normalize().toString();
        Map<String, StoredFile> same = new HashMap<>();
        Map<String, Map<Integer, StoredFile>> candidates = new HashMap<>();
        Set<String> storedPaths = new HashSet<>();
        for (BackupMeta b : existing) {
            for (StoredFile f : b.files()) {
                storedPaths.add(f.path());
                if (f.shared()) {
                    candidates.computeIfAbsent(key(f.name(), f.size()), k -> new HashMap<>()).put(f.crc(), f);
                    if (b.session().equals(session)) {
                        same.put(key(f.name(), f.size()), f);
                    }
                }
            }
        }
        long planned = 0;
        for (LiveFiles.LiveFile f : live.files()) {
            String key = key(f.name(), f.length());
            if (!same.containsKey(key)) {
                planned += candidates.containsKey(key) ? 2 * f.length() : f.length();
            }
        }
        Copier copier = new Copier(progress, planned);
        List<StoredFile> files = new ArrayList<>();
        int newFiles = 0;
        long newBytes = 0;
        for (LiveFiles.LiveFile f : live.files()) {
            String key = key(f.name(), f.length());
            StoredFile stored = same.get(key);
            if (stored == null && candidates.containsKey(key)) {
                stored = storedByContent(live, f, candidates.get(key), copier);
            }
            if (stored == null) {
                stored = store(live, f, copier);
                if (storedPaths.add(stored.path())) {
                    newFiles++;
                    newBytes += stored.size();
                }
            }
            files.add(new StoredFile(f.name(), stored.path(), stored.size(), stored.crc()));
        }
        if (newFiles > 0) {
            env.syncDir(directory.shared());
        }
        Path own = directory.privateDir(id);
        env.createDir(own);
        Path log = own.resolve(live.logName());
        Path manifest = own.resolve(live.manifestName());
        try {
            live.writeLog(env, log);
        } catch (IOException e) {
            throw IoErrors.withPath(log, e);
        }
        try {
            live.writeManifest(env, manifest);
        } catch (IOException e) {
            throw IoErrors.withPath(manifest, e);
        }
        try {
            FileNames.setCurrentFile(env, own, live.manifestNumber()); // syncs the directory
        } catch (IOException e) {
            throw IoErrors.withPath(own.resolve(FileNames.CURRENT), e);
        }
        Copier reader = new Copier(BackupProgress.NONE, 0);
        for (Path file : List.of(log, manifest, own.resolve(FileNames.CURRENT))) {
            Copier.Result r = reader.read(env, file);
            files.add(new StoredFile(file.getFileName().toString(),
                    BackupDirectory.PRIVATE + "/" + id + "/" + file.getFileName(), r.bytes(), r.crc()));
            newFiles++;
            newBytes += r.bytes();
        }
        env.syncDir(own.getParent());
        BackupMeta meta = new BackupMeta(id, System.currentTimeMillis(), live.sequence(), LibraryVersion.VERSION,
                database, session, newFiles, newBytes, files);
        directory.writeMeta(meta);
        return meta;
    }

    private static String key(String name, long size) {
        return name + "/" + size;
    }

    /**
     * Reads a file of a name and size some backup holds and returns the stored file of the same
     * CRC32C, or {@code null} when there is none (then it is copied). The file is read by its
     * path; a value file deleted since the capture is copied from the opening the capture made.
     */
    private StoredFile storedByContent(LiveFiles live, LiveFiles.LiveFile f, Map<Integer, StoredFile> byCrc,
                                       Copier copier) throws IOException {
        Copier.Result read;
        try (Env.SequentialFile in = live.env().newSequentialFile(f.source())) {
            read = copier.read(in, f.length());
        } catch (NoSuchFileException e) {
            copier.skip(f.length());
            return null;
        } catch (IOException e) {
            throw new IOException("reading " + f.source() + ": " + e.getMessage(), e);
        }
        StoredFile stored = read.bytes() == f.length() ? byCrc.get(read.crc()) : null;
        if (stored != null) {
            copier.skip(f.length()); // not copied
        }
        return stored;
    }

    /** Copies a file into {@code shared/} under the name its content gives. */
    private StoredFile store(LiveFiles live, LiveFiles.LiveFile f, Copier copier) throws IOException {
        Path temp = directory.shared().resolve(f.name() + BackupDirectory.TEMP_SUFFIX);
        Copier.Result copied;
        try (Env.SequentialFile in = f.open(live.env())) {
            copied = copier.copy(in, env, temp, f.length());
        } catch (IOException e) {
            throw new IOException("copying " + f.source() + " to " + temp + ": " + e.getMessage(), e);
        }
        if (copied.bytes() != f.length()) {
            throw new IOException("copying " + f.source() + " to " + temp + ": it ended after " + copied.bytes()
                    + " of the " + f.length() + " bytes the database gives it");
        }
        String name = sharedName(f.name(), copied);
        Path target = directory.shared().resolve(name);
        if (env.fileExists(target)) {
            env.deleteFile(temp); // the same content, stored by an earlier backup
        } else {
            env.renameFile(temp, target);
        }
        return new StoredFile(f.name(), BackupDirectory.SHARED + "/" + name, copied.bytes(), copied.crc());
    }

    /** {@code NNNNNN_CCCCCCCC_SIZE.ext} for the database file {@code NNNNNN.ext}. */
    static String sharedName(String name, Copier.Result content) {
        int dot = name.indexOf('.');
        return name.substring(0, dot) + "_" + BackupMeta.hex(content.crc()) + "_" + content.bytes() + name.substring(dot);
    }
}
