package org.leveldbj.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
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
 * {@code TARGET} or a whole one. A later checkpoint to the same target deletes what a crashed
 * one left in the temporary directory (only files named as a database's are deleted; anything
 * else there is refused).
 *
 * <p>Thread safety: one checkpoint per target at a time; the database lock is held only while
 * capturing.
 */
final class Checkpoint {
    /** The suffix of the directory a checkpoint is built in. */
    static final String TEMPORARY_SUFFIX = ".checkpoint-tmp";

    private Checkpoint() {
    }

    /**
     * Refuses a target that exists as a file or as a non-empty directory.
     *
     * @param env the environment
     * @param target the checkpoint's directory
     * @throws InvalidArgumentException if it does
     * @throws IOException if it cannot be examined
     */
    static void checkTarget(Env env, Path target) throws IOException {
        if (!env.fileExists(target)) {
            return;
        }
        if (!env.isDirectory(target)) {
            throw new InvalidArgumentException("Invalid argument: " + target
                    + ": exists and is not a directory (a checkpoint goes into a new or empty directory)");
        }
        List<String> children = env.getChildren(target);
        if (!children.isEmpty()) {
            int others = children.size() - 1;
            throw new InvalidArgumentException("Invalid argument: " + target + ": not empty (it holds "
                    + children.get(0) + (others == 0 ? "" : others == 1 ? " and one other entry" : " and " + others
                    + " other entries") + "; a checkpoint goes into a new or empty directory)");
        }
    }

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
        Path absolute = target.toAbsolutePath();
        checkTarget(env, absolute);
        if (absolute.equals(s.dir.toAbsolutePath()) || absolute.startsWith(s.dir.toAbsolutePath())) {
            throw new InvalidArgumentException("Invalid argument: " + target
                    + ": inside the database's own directory " + s.dir);
        }
        Path tmp = absolute.resolveSibling(absolute.getFileName() + TEMPORARY_SUFFIX);
        clearLeftovers(env, tmp);
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

    /** Deletes a crashed checkpoint's temporary directory; refuses one holding anything else. */
    private static void clearLeftovers(Env env, Path tmp) throws IOException {
        if (!env.fileExists(tmp)) {
            return;
        }
        List<String> children = env.isDirectory(tmp) ? env.getChildren(tmp) : null;
        if (children == null || children.stream().anyMatch(name -> FileNames.parse(name) == null)) {
            throw new InvalidArgumentException("Invalid argument: " + tmp
                    + ": exists and is not a checkpoint left unfinished; move it away first");
        }
        for (String name : children) {
            env.deleteFile(tmp.resolve(name));
        }
        env.deleteDir(tmp);
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
