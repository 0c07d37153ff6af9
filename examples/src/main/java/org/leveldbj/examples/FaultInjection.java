package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import org.iq80.leveldb.*;
import org.leveldbj.testing.FaultInjectionEnv;

/**
 * What an application's test can check with {@code leveldb-testing}: a database on a
 * {@code FaultInjectionEnv} lives in memory and can lose power; {@code crash()} keeps of every
 * file only what was synced. doc/testing.md's example is this code.
 *
 * <p>Run: {@code FaultInjection [directory]}. Nothing is written to the directory: its path only
 * names the database inside the in-memory environment.
 */
public final class FaultInjection {
    private FaultInjection() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory whose path names the database
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, FaultInjection::run);
    }

    static void run(File dir) throws IOException {
        FaultInjectionEnv disk = new FaultInjectionEnv();
        Options options = new Options().env(disk);
        File path = new File(dir, "example-db");            // in memory: nothing reaches the disk
        try (DB db = factory.open(path, options)) {
            db.put(bytes("a"), bytes("1"), new WriteOptions().sync(true));
            db.put(bytes("b"), bytes("2"));                  // not synced
        }
        disk.crash();                                        // the power fails before the OS wrote it
        try (DB db = factory.open(path, options)) {
            System.out.println("synced: " + asString(db.get(bytes("a")))
                    + ", unsynced: " + db.get(bytes("b")));  // synced: 1, unsynced: null
        }
    }
}
