package org.leveldbj.backup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.leveldbj.db.LevelDbFactory;

/** What the backup tests share: keys, reading a database whole, restoring and reading a backup. */
final class BackupFixtures {
    private BackupFixtures() {
    }

    static byte[] key(long i) {
        return utf8(String.format("key%09d", i));
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Everything a database holds, read with checksums on, as strings. */
    static TreeMap<String, String> contents(DB db) throws IOException {
        TreeMap<String, String> out = new TreeMap<>();
        try (DBIterator it = db.iterator(new ReadOptions().verifyChecksums(true))) {
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                out.put(new String(e.getKey(), StandardCharsets.UTF_8), new String(e.getValue(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    /** Opens an existing database (paranoid checks on) and reads it whole. */
    static TreeMap<String, String> contents(Env env, Path dir) throws IOException {
        Options options = new Options().createIfMissing(false).paranoidChecks(true);
        if (env != null) {
            options.env(env);
        }
        try (DB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
            return contents(db);
        }
    }

    /** Restores a backup into {@code target} and reads the database it gives. */
    static TreeMap<String, String> restored(BackupEngine engine, int id, Env env, Path target) throws IOException {
        BackupInfo info = engine.restore(id, target);
        assertEquals(id, info.id());
        return contents(env, target);
    }

    /** The ids of the backups an engine lists. */
    static List<Integer> ids(BackupEngine engine) {
        List<Integer> ids = new ArrayList<>();
        for (BackupInfo info : engine.listBackups()) {
            ids.add(info.id());
        }
        return ids;
    }
}
