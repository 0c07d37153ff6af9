package org.iq80.leveldb.util;

import com.google.common.collect.ImmutableList;
import java.io.File;
import java.io.FilenameFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;

/**
 * iq80 leveldb 0.12's file helpers, with the same signatures, for applications and test suites
 * that use them (Akka and Pekko persistence's LevelDB journal tests, Nukkit servers, ...).
 * Methods that report success return {@code false} on failure instead of throwing, as iq80's do.
 */
public final class FileUtils {
    private static final int TEMP_DIR_ATTEMPTS = 10000;

    private FileUtils() {
    }

    /**
     * @param file a file
     * @return whether it is a symbolic link
     */
    public static boolean isSymbolicLink(File file) {
        return Files.isSymbolicLink(file.toPath());
    }

    /**
     * @param dir a directory
     * @return its entries, empty when it is not a readable directory
     */
    public static ImmutableList<File> listFiles(File dir) {
        File[] files = dir.listFiles();
        return files == null ? ImmutableList.of() : ImmutableList.copyOf(files);
    }

    /**
     * @param dir a directory
     * @param filter which names to keep
     * @return its entries the filter accepts, empty when it is not a readable directory
     */
    public static ImmutableList<File> listFiles(File dir, FilenameFilter filter) {
        File[] files = dir.listFiles(filter);
        return files == null ? ImmutableList.of() : ImmutableList.copyOf(files);
    }

    /**
     * Creates a new directory under {@code java.io.tmpdir}.
     *
     * @param prefix the start of its name
     * @return the new directory
     */
    public static File createTempDir(String prefix) {
        return createTempDir(new File(System.getProperty("java.io.tmpdir")), prefix);
    }

    /**
     * Creates a new directory.
     *
     * @param parentDir where to create it
     * @param prefix the start of its name
     * @return the new directory
     * @throws IllegalStateException if no new directory could be created
     */
    public static File createTempDir(File parentDir, String prefix) {
        String base = prefix + "-" + System.currentTimeMillis() + "-";
        for (int counter = 0; counter < TEMP_DIR_ATTEMPTS; counter++) {
            File candidate = new File(parentDir, base + counter);
            if (candidate.mkdir()) {
                return candidate;
            }
        }
        throw new IllegalStateException("Failed to create directory within " + TEMP_DIR_ATTEMPTS + " attempts (tried "
                + base + "0 to " + base + (TEMP_DIR_ATTEMPTS - 1) + ")");
    }

    /**
     * Deletes what a directory holds, recursively, without following symbolic links.
     *
     * @param directory the directory
     * @return whether everything was deleted ({@code false} for a symbolic link or a non-directory)
     */
    public static boolean deleteDirectoryContents(File directory) {
        if (!directory.isDirectory() || isSymbolicLink(directory)) {
            return false;
        }
        boolean success = true;
        for (File file : listFiles(directory)) {
            success &= deleteRecursively(file);
        }
        return success;
    }

    /**
     * Deletes a file, or a directory and what it holds (a symbolic link itself, not its target).
     *
     * @param file the file or directory
     * @return whether everything was deleted
     */
    public static boolean deleteRecursively(File file) {
        boolean success = true;
        if (file.isDirectory() && !isSymbolicLink(file)) {
            success = deleteDirectoryContents(file);
        }
        return file.delete() && success;
    }

    /**
     * Copies what a directory holds into another, recursively.
     *
     * @param src the source directory
     * @param target the target directory, created when missing
     * @return whether everything was copied
     */
    public static boolean copyDirectoryContents(File src, File target) {
        if (!src.isDirectory() || (!target.isDirectory() && !target.mkdirs())) {
            return false;
        }
        boolean success = true;
        for (File file : listFiles(src)) {
            success &= copyRecursively(file, new File(target, file.getName()));
        }
        return success;
    }

    /**
     * Copies a file, or a directory and what it holds.
     *
     * @param src the source
     * @param target where the copy goes (replaced when it is a file)
     * @return whether everything was copied
     */
    public static boolean copyRecursively(File src, File target) {
        if (src.isDirectory()) {
            return copyDirectoryContents(src, target);
        }
        try {
            Files.copy(src.toPath(), target.toPath(), StandardCopyOption.REPLACE_EXISTING);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * @param parent the first path element
     * @param paths the following elements
     * @return the file they name
     */
    public static File newFile(String parent, String... paths) {
        return newFile(new File(parent), ImmutableList.copyOf(paths));
    }

    /**
     * @param parent the directory
     * @param paths the elements under it
     * @return the file they name
     */
    public static File newFile(File parent, String... paths) {
        return newFile(parent, ImmutableList.copyOf(paths));
    }

    /**
     * @param parent the directory
     * @param paths the elements under it
     * @return the file they name
     */
    public static File newFile(File parent, Iterable<String> paths) {
        File result = parent;
        for (String path : paths) {
            result = new File(result, path);
        }
        return result;
    }
}
