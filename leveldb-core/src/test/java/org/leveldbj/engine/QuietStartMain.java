package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.leveldbj.compress.Codecs;

/**
 * Run by {@link QuietStartTest} in a JVM of its own: opens a database, writes enough to flush
 * and compact snappy tables, reads it back, and prints only to standard output.
 */
public final class QuietStartMain {
    private QuietStartMain() {
    }

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        long count = 0;
        try (DB db = LevelDbFactory.factory.open(dir, new Options().writeBufferSize(64 << 10))) {
            for (int i = 0; i < 20_000; i++) {
                db.put(LevelDbFactory.bytes(String.format("key%06d", i)), LevelDbFactory.bytes("value " + i + " ".repeat(50)));
            }
            db.compactRange(null, null);
            if (db.get(LevelDbFactory.bytes("key012345")) == null) {
                throw new AssertionError("key012345 is missing");
            }
            try (DBIterator it = db.iterator()) {
                for (it.seekToFirst(); it.hasNext(); it.next()) {
                    count++;
                }
            }
        }
        try (DB db = LevelDbFactory.factory.open(dir, new Options())) {
            if (db.get(LevelDbFactory.bytes("key000001")) == null) {
                throw new AssertionError("key000001 is missing after reopening");
            }
        }
        System.out.println("entries " + count);
        System.out.println("snappy " + Codecs.implementationName(1));
    }
}
