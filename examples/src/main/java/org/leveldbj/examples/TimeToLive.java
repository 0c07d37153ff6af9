package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicLong;
import org.iq80.leveldb.*;
import org.leveldbj.ttl.TtlDB;

/**
 * Values that expire ({@code org.leveldbj.ttl.TtlDB}, like RocksDB's TtlDB): a default time to
 * live, one per write, reads that hide expired values at once, and a compaction that removes
 * them from the files. The clock is the application's; here one the example moves, as tests
 * do, so that nothing sleeps. doc/ttl.md shows this code.
 *
 * <p>Run: {@code TimeToLive [directory]}; without a directory it works in a temporary one.
 */
public final class TimeToLive {
    private TimeToLive() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, TimeToLive::run);
    }

    static void run(File dir) throws IOException {
        AtomicLong now = new AtomicLong(1_700_000_000_000L);
        InstantSource clock = () -> Instant.ofEpochMilli(now.get());   // InstantSource.system() in production

        try (TtlDB db = TtlDB.open(new File(dir, "sessions"), new Options(), Duration.ofMinutes(30), clock)) {
            db.put(bytes("session-1"), bytes("alice"));                        // lives 30 minutes
            db.put(bytes("session-2"), bytes("bob"), Duration.ofMinutes(5));  // lives 5 minutes

            now.addAndGet(Duration.ofMinutes(10).toMillis());
            System.out.println(asString(db.get(bytes("session-1"))));  // alice
            System.out.println(db.get(bytes("session-2")));            // null: expired
            System.out.println(db.expiry(bytes("session-1")));         // 2023-11-14T22:43:20Z

            byte[] stored = db.raw().get(bytes("session-2"));          // still in the files, with its suffix
            System.out.println(stored.length + " bytes: value + 8-byte expiry");  // 11 bytes: value + 8-byte expiry
            db.compactRange(null, null);                               // compaction removes it
            System.out.println(db.raw().get(bytes("session-2")));      // null
        }
    }
}
