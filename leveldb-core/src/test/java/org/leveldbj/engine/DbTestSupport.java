package org.leveldbj.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.leveldbj.filename.FileNames;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.MemEnv;

/** Helpers shared by the whole-database tests: seeds, models, histories and file surgery. */
final class DbTestSupport {
    private DbTestSupport() {
    }

    /**
     * Copies every file of a database directory (not {@code lost/}, not the LOCK) into a fresh
     * environment: what a new process finds after the one holding the database died.
     *
     * @param from the environment of the database
     * @param dir the database directory
     * @return a fault-injecting environment over the copy
     * @throws IOException if reading or writing fails
     */
    static FaultInjectionEnv copyOf(MemEnv from, Path dir) throws IOException {
        MemEnv to = new MemEnv();
        to.createDir(dir);
        for (String name : from.getChildren(dir)) {
            Path file = dir.resolve(name);
            if (name.equals(Repairer.LOST_DIR) || name.equals(FileNames.LOCK)) {
                continue;
            }
            write(to, file, read(from, file));
        }
        to.syncDir(dir);
        return new FaultInjectionEnv(to);
    }

    /**
     * Random bytes.
     *
     * @param r the random source
     * @param n how many
     * @return a new array of {@code n} random bytes
     */
    static byte[] randomBytes(java.util.Random r, int n) {
        byte[] b = new byte[n];
        r.nextBytes(b);
        return b;
    }

    /** @return the UTF-8 bytes of a string */
    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** @return an empty map ordered as the database orders keys (unsigned bytes) */
    static TreeMap<byte[], byte[]> newModel() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    /**
     * Everything the database holds, read with checksum verification by a forward iterator.
     *
     * @param db the database
     * @return its entries
     */
    static TreeMap<byte[], byte[]> contents(DB db) throws IOException {
        TreeMap<byte[], byte[]> out = newModel();
        try (DBIterator it = db.iterator(new ReadOptions().verifyChecksums(true))) {
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /** One write of the history: a batch of puts (value non-null) and deletes (value null). */
    record Write(List<byte[]> keys, List<byte[]> values, boolean sync) {
        void applyTo(Map<byte[], byte[]> model) {
            for (int i = 0; i < keys.size(); i++) {
                if (values.get(i) == null) {
                    model.remove(keys.get(i));
                } else {
                    model.put(keys.get(i), values.get(i));
                }
            }
        }
    }

    /**
     * Finds the shortest prefix of a history, at least {@code minPrefix} long, whose state
     * (applied to {@code baseline}) equals {@code actual}.
     *
     * @return the prefix length, or -1 when no allowed prefix matches
     */
    static int matchingPrefix(TreeMap<byte[], byte[]> baseline, List<Write> history, int minPrefix,
            TreeMap<byte[], byte[]> actual) {
        TreeMap<byte[], byte[]> model = new TreeMap<>(baseline);
        // Keys on which the model and the actual state differ, maintained as the model advances.
        TreeSet<byte[]> differing = new TreeSet<>(Arrays::compareUnsigned);
        TreeSet<byte[]> all = new TreeSet<>(Arrays::compareUnsigned);
        all.addAll(model.keySet());
        all.addAll(actual.keySet());
        for (byte[] k : all) {
            if (!Arrays.equals(model.get(k), actual.get(k))) {
                differing.add(k);
            }
        }
        for (int i = 0; ; i++) {
            if (i >= minPrefix && differing.isEmpty()) {
                return i;
            }
            if (i == history.size()) {
                return -1;
            }
            Write w = history.get(i);
            w.applyTo(model);
            for (byte[] k : w.keys()) {
                if (Arrays.equals(model.get(k), actual.get(k))) {
                    differing.remove(k);
                } else {
                    differing.add(k);
                }
            }
        }
    }

    /**
     * Every file of a directory with its contents, names sorted.
     *
     * @param env the environment
     * @param dir the directory
     * @return file name to bytes
     */
    static TreeMap<String, byte[]> files(Env env, Path dir) throws IOException {
        TreeMap<String, byte[]> out = new TreeMap<>();
        if (!env.fileExists(dir)) {
            return out;
        }
        for (String name : env.getChildren(dir)) {
            Path p = dir.resolve(name);
            if (isDirectory(env, p)) {
                continue;
            }
            out.put(name, read(env, p));
        }
        return out;
    }

    private static boolean isDirectory(Env env, Path p) {
        try {
            env.getChildren(p);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** @return the whole content of a file */
    static byte[] read(Env env, Path file) throws IOException {
        byte[] bytes = new byte[(int) env.getFileSize(file)];
        try (Env.SequentialFile in = env.newSequentialFile(file)) {
            ByteBuffer buf = ByteBuffer.wrap(bytes);
            while (buf.hasRemaining() && in.read(buf) > 0) {
                // keep reading
            }
        }
        return bytes;
    }

    /** Replaces a file's content (synced). */
    static void write(Env env, Path file, byte[] bytes) throws IOException {
        try (Env.WritableFile out = env.newWritableFile(file)) {
            out.append(ByteBuffer.wrap(bytes));
            out.sync();
        }
    }

    /** Flips one bit of a file. */
    static void flipByte(Env env, Path file, int offset) throws IOException {
        byte[] bytes = read(env, file);
        bytes[offset] ^= 0x40;
        write(env, file, bytes);
    }

    /**
     * @return the names of the table files in a directory ({@code .sst} and {@code .ldb}), sorted
     */
    static List<String> tables(Env env, Path dir) throws IOException {
        List<String> out = new ArrayList<>(named(env, dir, ".sst"));
        out.addAll(named(env, dir, ".ldb"));
        out.sort(null);
        return out;
    }

    /** @return the names in a directory ending with a suffix, sorted */
    static List<String> named(Env env, Path dir, String suffix) throws IOException {
        List<String> out = new ArrayList<>();
        for (String name : env.getChildren(dir)) {
            if (name.endsWith(suffix)) {
                out.add(name);
            }
        }
        out.sort(null);
        return out;
    }

    /** @return whether two states hold the same keys with equal values */
    static boolean sameEntries(Map<byte[], byte[]> a, Map<byte[], byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<byte[], byte[]> e : a.entrySet()) {
            if (!Arrays.equals(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** @return a short description of a state for failure messages */
    static String describe(TreeMap<byte[], byte[]> state) {
        StringBuilder sb = new StringBuilder().append(state.size()).append(" keys");
        int n = 0;
        for (Map.Entry<byte[], byte[]> e : state.entrySet()) {
            if (n++ == 5) {
                sb.append(", ...");
                break;
            }
            sb.append(n == 1 ? ": " : ", ").append(new String(e.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(new String(e.getValue(), StandardCharsets.UTF_8));
        }
        return sb.toString();
    }

    /** A random write: a put, a delete or a batch; values name the write so states are distinct. */
    static Write randomWrite(Random r, int id, int keySpace, double syncRate) {
        int kind = r.nextInt(100);
        int n = kind < 60 ? 1 : kind < 75 ? 1 : 1 + r.nextInt(20);
        List<byte[]> keys = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            keys.add(utf8(String.format("key%05d", r.nextInt(keySpace))));
            boolean delete = (kind >= 60 && kind < 75) || (n > 1 && r.nextInt(4) == 0);
            values.add(delete ? null : utf8("w" + id + "." + i + "-" + "x".repeat(r.nextInt(100))));
        }
        return new Write(keys, values, r.nextDouble() < syncRate);
    }

    /** Applies a write to the database the way an application would. */
    static void apply(DB db, Write w) throws IOException {
        WriteOptions wo = new WriteOptions().sync(w.sync());
        if (w.keys().size() == 1 && w.values().get(0) != null) {
            db.put(w.keys().get(0), w.values().get(0), wo);
        } else if (w.keys().size() == 1) {
            db.delete(w.keys().get(0), wo);
        } else {
            try (WriteBatch batch = db.createWriteBatch()) {
                for (int i = 0; i < w.keys().size(); i++) {
                    if (w.values().get(i) == null) {
                        batch.delete(w.keys().get(i));
                    } else {
                        batch.put(w.keys().get(i), w.values().get(i));
                    }
                }
                db.write(batch, wo);
            }
        }
    }

    /**
     * Asserts that {@code actual} is the state after some prefix of {@code history}, at least
     * {@code minPrefix} long, applied to {@code baseline}.
     */
    static void assertPrefix(String context, TreeMap<byte[], byte[]> baseline, List<Write> history,
            int minPrefix, TreeMap<byte[], byte[]> actual) {
        int prefix = matchingPrefix(baseline, history, minPrefix, actual);
        if (prefix < 0) {
            TreeMap<byte[], byte[]> full = new TreeMap<>(baseline);
            history.forEach(w -> w.applyTo(full));
            org.junit.jupiter.api.Assertions.fail(context + ": the reopened database is not the state after any prefix of at least " + minPrefix
                    + " of " + history.size() + " writes; it holds " + describe(actual) + ", the full history gives "
                    + describe(full) + ", any-length prefix match: " + matchingPrefix(baseline, history, 0, actual));
        }
    }
}
