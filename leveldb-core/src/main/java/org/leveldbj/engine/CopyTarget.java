package org.leveldbj.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.InvalidArgumentException;
import org.leveldbj.filename.FileNames;

/**
 * The directory a copy of a database is made in (a checkpoint, a restored backup): it must be
 * new or empty, and the copy is built beside it in a temporary directory that a crashed copy may
 * have left, which is cleared only when it holds nothing but a database's files.
 *
 * <p>Thread safety: static methods; the caller makes one copy per target at a time.
 */
public final class CopyTarget {
    private CopyTarget() {
    }

    /**
     * Refuses a target that exists as a file or as a non-empty directory.
     *
     * @param env the environment
     * @param target the copy's directory
     * @param rule what the message ends with, e.g. "a checkpoint goes into a new or empty directory"
     * @throws InvalidArgumentException if it does, naming the target and an entry it holds
     * @throws IOException if it cannot be examined
     */
    public static void requireNewOrEmpty(Env env, Path target, String rule) throws IOException {
        if (!env.fileExists(target)) {
            return;
        }
        if (!env.isDirectory(target)) {
            throw new InvalidArgumentException("Invalid argument: " + target + ": exists and is not a directory ("
                    + rule + ")");
        }
        List<String> children = new ArrayList<>(env.getChildren(target));
        if (!children.isEmpty()) {
            children.sort(null);
            int others = children.size() - 1;
            throw new InvalidArgumentException("Invalid argument: " + target + ": not empty (it holds "
                    + children.get(0) + (others == 0 ? "" : others == 1 ? " and one other entry" : " and " + others
                    + " other entries") + "; " + rule + ")");
        }
    }

    /**
     * Deletes the temporary directory a crashed copy left; refuses one holding anything but a
     * database's files.
     *
     * @param env the environment
     * @param tmp the temporary directory
     * @param what what left it, e.g. "a checkpoint"
     * @throws InvalidArgumentException if it holds something else
     * @throws IOException if deleting fails
     */
    public static void clearLeftovers(Env env, Path tmp, String what) throws IOException {
        if (!env.fileExists(tmp)) {
            return;
        }
        List<String> children = env.isDirectory(tmp) ? env.getChildren(tmp) : null;
        if (children == null || children.stream().anyMatch(name -> FileNames.parse(name) == null)) {
            throw new InvalidArgumentException("Invalid argument: " + tmp + ": exists and is not " + what
                    + " left unfinished; move it away first");
        }
        deleteTemporary(env, tmp);
    }

    /**
     * Deletes a temporary directory of database files, if it exists.
     *
     * @param env the environment
     * @param tmp the directory
     * @throws IOException if deleting fails
     */
    public static void deleteTemporary(Env env, Path tmp) throws IOException {
        if (!env.fileExists(tmp)) {
            return;
        }
        for (String name : env.getChildren(tmp)) {
            env.deleteFile(tmp.resolve(name));
        }
        env.deleteDir(tmp);
    }
}
