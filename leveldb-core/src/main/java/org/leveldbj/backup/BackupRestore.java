package org.leveldbj.backup;

import java.io.IOException;
import java.nio.file.Path;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.InvalidArgumentException;
import org.leveldbj.engine.CopyTarget;

/**
 * Restores a backup into a new database directory: every file is copied from the backup
 * directory and checked against the meta file (size and CRC32C) as it is copied, into a sibling
 * directory named {@code TARGET.restore-tmp}, which is renamed to {@code TARGET} once complete
 * and synced. So a failure or crash never leaves a partial {@code TARGET}, and a damaged backup
 * is reported, naming the file, instead of restored.
 *
 * <p>Thread safety: called by the engine with its lock and the directory's lock held.
 */
final class BackupRestore {
    /** The suffix of the directory a restore is built in. */
    static final String TEMPORARY_SUFFIX = ".restore-tmp";

    private BackupRestore() {
    }

    /**
     * Restores a backup.
     *
     * @param directory the backup directory
     * @param meta the backup
     * @param target the directory to create; missing or empty
     * @param progress told of the bytes copied
     * @throws InvalidArgumentException if the target exists and is not an empty directory, or
     *     lies inside the backup directory
     * @throws CorruptionException if a stored file is missing or not what the meta file says
     * @throws IOException if a file cannot be read or written
     */
    static void restore(BackupDirectory directory, BackupMeta meta, Path target, BackupProgress progress)
            throws IOException {
        Env env = directory.env();
        Path absolute = target.toAbsolutePath().normalize();
        checkTarget(env, directory, absolute);
        Path tmp = absolute.resolveSibling(absolute.getFileName() + TEMPORARY_SUFFIX);
        CopyTarget.clearLeftovers(env, tmp, "a restore");
        env.createDir(tmp);
        try {
            Copier copier = new Copier(progress, meta.size());
            for (BackupMeta.StoredFile f : meta.files()) {
                Path source = directory.resolve(f);
                if (!env.fileExists(source)) {
                    throw BackupVerification.missing(meta, source);
                }
                Copier.Result copied;
                try (Env.SequentialFile in = env.newSequentialFile(source)) {
                    // One byte more than the meta file says, to notice a longer file without copying all of it.
                    copied = copier.copy(in, env, tmp.resolve(f.name()), f.size() + 1);
                }
                BackupVerification.check(meta, f, source, copied, false);
            }
            env.syncDir(tmp);
            if (env.fileExists(absolute)) {
                env.deleteDir(absolute); // the empty directory the caller gave
            }
            env.renameFile(tmp, absolute);
            Path parent = absolute.getParent();
            if (parent != null) {
                env.syncDir(parent);
            }
        } catch (IOException | RuntimeException e) {
            try {
                CopyTarget.deleteTemporary(env, tmp);
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static void checkTarget(Env env, BackupDirectory directory, Path target) throws IOException {
        if (target.startsWith(directory.path()) || directory.path().startsWith(target)) {
            throw new InvalidArgumentException("Invalid argument: " + target + ": inside the backup directory "
                    + directory.path() + ", or holding it (restore into a new or empty directory elsewhere)");
        }
        CopyTarget.requireNewOrEmpty(env, target, "a backup is restored into a new or empty directory");
    }
}
