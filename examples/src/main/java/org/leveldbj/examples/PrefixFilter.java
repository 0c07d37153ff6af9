package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import org.iq80.leveldb.*;

/**
 * Prefix filters: with {@code Options.prefixExtractor} set, every table keeps a filter on the
 * prefixes of its keys (here the part up to and including the first ':'), and a
 * {@code prefixIterator} of a prefix that a table does not hold reads none of that table's data
 * blocks. doc/prefix.md's example is this code.
 *
 * <p>Run: {@code PrefixFilter [directory]}; without a directory it works in a temporary one.
 */
public final class PrefixFilter {
    private PrefixFilter() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, PrefixFilter::run);
    }

    static void run(File dir) throws IOException {
        Options options = new Options()
                .prefixExtractor(PrefixExtractor.upToDelimiter(':'))   // "user42:" of "user42:name"
                .filterPolicy(FilterPolicy.bloom(10));                 // whole-key filter for get, kept as well
        try (ExtendedDB db = factory.open(new File(dir, "example-db"), options)) {
            for (int user = 0; user < 20_000; user += 2) {            // even users only
                db.put(bytes("user" + user + ":name"), bytes("name of " + user));
                db.put(bytes("user" + user + ":mail"), bytes(user + "@example.org"));
            }
            db.compactRange(null, null);                               // into tables with prefix filters

            System.out.println("user42: " + count(db, "user42:") + " keys, "
                    + blocksRead(db, "user42:") + " blocks read");     // 2 keys, 1 blocks read
            System.out.println("user43: " + count(db, "user43:") + " keys, "
                    + blocksRead(db, "user43:") + " blocks read");     // 0 keys, 0 blocks read
        }
    }

    private static int count(ExtendedDB db, String prefix) throws IOException {
        int n = 0;
        try (DBIterator it = db.prefixIterator(bytes(prefix), new ReadOptions())) {
            for (it.seekToFirst(); it.hasNext(); it.next()) {
                n++;
            }
        }
        return n;
    }

    /** The data blocks one scan of the prefix looks up in the block cache. */
    private static long blocksRead(ExtendedDB db, String prefix) throws IOException {
        long before = lookups(db);
        count(db, prefix);
        return lookups(db) - before;
    }

    private static long lookups(ExtendedDB db) {
        Statistics s = db.statistics();
        return s.get(Metric.BLOCK_CACHE_HITS) + s.get(Metric.BLOCK_CACHE_MISSES);
    }
}
