package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import org.iq80.leveldb.*;

/**
 * A compaction filter ({@code Options.compactionFilter}, an extension like RocksDB's): as
 * compactions rewrite the tables, it drops the records an application marked as obsolete and
 * upgrades old-format values in place, without a pass of its own over the database.
 * doc/compaction-filters.md shows this code.
 *
 * <p>Run: {@code CompactionFilters [directory]}; without a directory it works in a temporary one.
 */
public final class CompactionFilters {
    private CompactionFilters() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, CompactionFilters::run);
    }

    /** Removes values marked obsolete, upgrades "v1:" values to "v2:", keeps the rest. */
    static final class Cleanup implements CompactionFilter {
        @Override
        public String name() {
            return "example.Cleanup";   // in the LOG, and in the error if filter() throws
        }

        // Runs on background threads, for several compactions at once: no shared mutable state.
        @Override
        public Decision filter(int level, byte[] key, byte[] value) {
            String v = asString(value);
            if (v.startsWith("obsolete:")) {
                return Decision.REMOVE;
            }
            if (v.startsWith("v1:")) {
                return Decision.replace(bytes("v2:" + v.substring(3)));
            }
            return Decision.KEEP;
        }
    }

    static void run(File dir) throws IOException {
        Options options = new Options().compactionFilter(new Cleanup());
        try (DB db = factory.open(new File(dir, "example-db"), options)) {
            db.put(bytes("a"), bytes("v1:apple"));
            db.put(bytes("b"), bytes("obsolete:banana"));
            db.put(bytes("c"), bytes("v2:cherry"));
            System.out.println(asString(db.get(bytes("b"))));  // obsolete:banana (not compacted yet)

            db.compactRange(null, null);  // with a filter, also rewrites the deepest level
            System.out.println(asString(db.get(bytes("a"))));  // v2:apple
            System.out.println(db.get(bytes("b")));            // null
            System.out.println(asString(db.get(bytes("c"))));  // v2:cherry
        }
    }
}
