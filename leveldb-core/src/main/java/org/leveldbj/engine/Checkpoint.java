package org.leveldbj.engine;

import java.io.IOException;
import java.nio.file.Path;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.InvalidArgumentException;
import org.leveldbj.filename.FileNames;

/**
 * A consistent, openable copy of a live database in another directory, made from
 * {@link LiveFiles}: the tables hard-linked where the file system allows (they never change),
 * copied otherwise; the value files copied up to their captured length; a log of the memtables'
 * entries and a MANIFEST of its own. The copy holds every write acknowledged before the call and
 * none that started after it, and the database is not flushed for it.
 *
 * <p>Crash safety: the copy is built in a sibling directory named {@code TARGET.checkpoint-tmp}
 * and renamed to {@code TARGET} once complete and synced, so a crash leaves either no
 * {@code TARGET} or a whole one. A checkpoint that fails deletes its temporary directory; a
 * later checkpoint to the same target deletes what a crashed one left there (only files named
 * as a database's are deleted; anything else there is refused).
 *
 * <p>Thread safety: one checkpoint per target at a time; the database lock is held only while
 * capturing.
 */
final class Checkpoint {
    /** The suffix of the directory a checkpoint is built in. */
    static final String TEMPORARY_SUFFIX = ".checkpoint-tmp";

    private Checkpoint() {
    }

    /** How a refused target's message ends. */
    static final String RULE = "a checkpoint goes into a new or empty directory";

    /**
     * Makes the copy.
     *
     * @param s the open database's state
     * @param target the directory to create
     * @return what was made
     * @throws IOException if a file cannot be linked, copied or written
     */
    static Result make(DbState s, Path target) throws IOException {
        Env env = s.env;
        Path absolute = target.toAbsolutePath().normalize();
        CopyTarget.requireNewOrEmpty(env, absolute, RULE);
        if (absolute.startsWith(s.dir.toAbsolutePath().normalize())) {
            throw new InvalidArgumentException("Invalid argument: " + target
                    + ": inside the database's own directory " + s.dir);
        }
        Path tmp = absolute.resolveSibling(absolute.getFileName() + TEMPORARY_SUFFIX);
        CopyTarget.clearLeftovers(env, tmp, "a checkpoint");
        env.createDir(tmp);
        int linked = 0;
        int copied = 0;
        long bytes = 0;
        long sequence;
        try (LiveFiles live = LiveFiles.capture(s)) {
            sequence = live.sequence();
            for (LiveFiles.LiveFile f : live.files()) {
                if (f.linkOrCopyTo(env, tmp.resolve(f.name()))) {
                    linked++;
                } else {
                    copied++;
                    bytes += f.length();
                }
            }
            live.writeLog(env, tmp.resolve(live.logName()));
            live.writeManifest(env, tmp.resolve(live.manifestName()));
            env.syncDir(tmp);
            FileNames.setCurrentFile(env, tmp, live.manifestNumber());
        } catch (IOException | RuntimeException e) {
            try {
                CopyTarget.deleteTemporary(env, tmp);
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        if (env.fileExists(absolute)) {
            env.deleteDir(absolute); // the empty directory the caller gave
        }
        env.renameFile(tmp, absolute);
        Path parent = absolute.getParent();
        if (parent != null) {
            env.syncDir(parent);
        }
        return new Result(absolute, sequence, linked, copied, bytes);
    }

    /**
     * What a checkpoint made.
     *
     * @param directory the checkpoint
     * @param sequence the last sequence number it holds
     * @param linkedFiles files hard-linked
     * @param copiedFiles files copied
     * @param copiedBytes bytes copied
     */
    record Result(Path directory, long sequence, int linkedFiles, int copiedFiles, long copiedBytes) {
    }
}
