package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.*;

/**
 * Opening an existing database read-only ({@code Options.readOnly(true)}, an extension like
 * RocksDB's {@code OpenForReadOnly}): reads work, a write throws, and the directory is left
 * exactly as it was, not even a {@code LOCK} or {@code LOG} file created or changed. The README's
 * "Read-only" example is this code.
 *
 * <p>Run: {@code ReadOnlyOpen [directory]}; without a directory it works in a temporary one.
 */
public final class ReadOnlyOpen {
    private ReadOnlyOpen() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, ReadOnlyOpen::run);
    }

    static void run(File dir) throws IOException {
        try (DB db = factory.open(new File(dir, "example-db"), new Options())) {
            db.put(bytes("a"), bytes("1"));
        }
        Map<String, List<Long>> filesBefore = files(new File(dir, "example-db"));

        try (DB db = factory.open(new File(dir, "example-db"), new Options().readOnly(true))) {
            System.out.println(asString(db.get(bytes("a"))));                // 1
            try {
                db.put(bytes("a"), bytes("2"));
            } catch (DBException e) {
                System.out.println(e.getMessage());  // database DIR is open read-only: writing is not allowed
            }
        }

        System.out.println("files unchanged: " + filesBefore.equals(files(new File(dir, "example-db"))));
    }

    /** The files in {@code dir}: each name with its size and time of last change. */
    private static Map<String, List<Long>> files(File dir) {
        Map<String, List<Long>> files = new TreeMap<>();
        File[] children = dir.listFiles();
        if (children != null) {
            for (File f : children) {
                files.put(f.getName(), List.of(f.length(), f.lastModified()));
            }
        }
        return files;
    }
}
