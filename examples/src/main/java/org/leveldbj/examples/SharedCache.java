package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.iq80.leveldb.*;

/**
 * One block cache for several databases ({@code LevelDbFactory.newCache}, {@code Options.cache}),
 * so that one memory budget serves them all, as C++ LevelDB's {@code Options::block_cache} and
 * RocksDB's shared {@code Cache} do: for instance every Kafka Streams store of an application.
 *
 * <p>Run: {@code SharedCache [directory]}; without a directory it works in a temporary one.
 */
public final class SharedCache {
    private static final int KEYS = 2_000;

    private SharedCache() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, SharedCache::run);
    }

    static void run(File dir) throws IOException {
        Cache cache = newCache(8 << 20);                    // 8 MiB of blocks for all three
        Options options = new Options().cache(cache);
        try (DB users = factory.open(new File(dir, "users"), options);
             DB orders = factory.open(new File(dir, "orders"), options);
             DB events = factory.open(new File(dir, "events"), options)) {
            System.out.println("capacity: " + cache.capacity());          // 8388608
            for (DB db : List.of(users, orders, events)) {
                for (int i = 0; i < KEYS; i++) {
                    db.put(bytes(String.format("key%05d", i)), bytes("value " + i));
                }
                db.compactRange(null, null);               // into tables, so reads go through blocks
            }
            long usage = cache.usage();
            for (DB db : List.of(users, orders, events)) {
                readAll(db);
                System.out.println("after reading one more database, the cache holds more: "
                        + (cache.usage() > usage));                              // true
                usage = cache.usage();
            }
            System.out.println("within capacity: " + (cache.usage() <= cache.capacity()));  // true
        }
    }

    private static void readAll(DB db) {
        for (int i = 0; i < KEYS; i++) {
            if (db.get(bytes(String.format("key%05d", i))) == null) {
                throw new IllegalStateException("key" + i + " is missing");
            }
        }
    }
}
