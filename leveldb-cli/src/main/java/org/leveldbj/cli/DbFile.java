package org.leveldbj.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;

/**
 * A file of a database directory, with the kind its name gives it.
 *
 * <p>Thread safety: immutable.
 *
 * @param name the file name
 * @param type the kind, or {@code null} for a name no database uses (and for directories)
 * @param number the file number (0 for CURRENT, LOCK and the info logs)
 * @param size the size in bytes
 */
record DbFile(String name, FileType type, long number, long size) {
    /**
     * Lists a database directory, sorted by name.
     *
     * @param dir the directory
     * @return its files
     * @throws IOException if it cannot be listed
     */
    static List<DbFile> list(Path dir) throws IOException {
        List<DbFile> out = new ArrayList<>();
        try (Stream<Path> children = Files.list(dir)) {
            for (Path p : (Iterable<Path>) children.sorted()::iterator) {
                String name = p.getFileName().toString();
                FileNames.Parsed parsed = Files.isDirectory(p) ? null : FileNames.parse(name);
                long size = Files.isRegularFile(p) ? Files.size(p) : 0;
                out.add(new DbFile(name, parsed == null ? null : parsed.type(), parsed == null ? 0 : parsed.number(), size));
            }
        }
        return out;
    }

    /**
     * The number and total size of the files of one kind in a directory.
     *
     * @param dir the directory
     * @param type the kind
     * @return {count, bytes}
     * @throws IOException if the directory cannot be listed
     */
    static long[] countAndSize(Path dir, FileType type) throws IOException {
        long[] out = new long[2];
        for (DbFile f : list(dir)) {
            if (f.type() == type) {
                out[0]++;
                out[1] += f.size();
            }
        }
        return out;
    }

    /** @return the names of files in a listing */
    static List<String> names(List<DbFile> files) {
        List<String> names = new ArrayList<>();
        files.forEach(f -> names.add(f.name()));
        return names;
    }

    /** @return how the kind of a file is called in reports */
    static String kind(FileType type) {
        if (type == null) {
            return "other";
        }
        switch (type) {
            case DESCRIPTOR:
                return "manifest";
            case INFO_LOG:
                return "info log";
            case VALUE:
                return "value";
            default:
                return type.name().toLowerCase(java.util.Locale.ROOT);
        }
    }
}
