package org.leveldbj.interop;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.Transaction;
import org.iq80.leveldb.WriteBatch;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.interop.Recipe.Kind;
import org.leveldbj.interop.Recipe.Op;
import org.leveldbj.testing.ReverseBytewiseComparator;

/**
 * Writes and verifies databases described by a {@link Recipe} with our engine, the way the
 * peers do (see {@code interop/RECIPES.md}): the writer performs the steps and closes the
 * database without flushing; the verifier opens it with paranoid checks and checks gets, full
 * forward and backward scans and seeks to every deleted key against the expected content.
 */
final class RecipeRunner {
    private RecipeRunner() {
    }

    /** A verification failure: the first mismatch between the database and the recipe. */
    static final class Mismatch extends AssertionError {
        private static final long serialVersionUID = 1L;

        Mismatch(String message) {
            super(message);
        }
    }

    /** The expected content: live keys with values, and every key a step touched. */
    static final class Model {
        final TreeMap<byte[], byte[]> live;
        final TreeSet<byte[]> touched;

        Model(Recipe r) {
            live = new TreeMap<>(r.order());
            touched = new TreeSet<>(r.order());
        }

        Model(Model other) {
            live = new TreeMap<>(other.live);
            touched = new TreeSet<>(other.touched);
        }

        void apply(Op op) {
            touched.add(op.key());
            if (op.kind() == Kind.PUT) {
                live.put(op.key(), op.value());
            } else {
                live.remove(op.key());
            }
        }

        /** The model after the first {@code upTo} steps of the recipe. */
        static Model of(Recipe r, int upTo) {
            Model m = new Model(r);
            for (Op op : r.steps().subList(0, upTo)) {
                if (op.kind() == Kind.PUT || op.kind() == Kind.DELETE) {
                    m.apply(op);
                }
            }
            return m;
        }

        int deletedCount() {
            int n = 0;
            for (byte[] k : touched) {
                if (!live.containsKey(k)) {
                    n++;
                }
            }
            return n;
        }
    }

    /**
     * The options the peers use for a recipe: paranoid checks, the recipe's comparator, bloom
     * filter, compression and sizes.
     *
     * @param r the recipe
     * @param create whether to create the database (and fail if it exists)
     * @return the options
     */
    static Options options(Recipe r, boolean create) {
        return new Options()
                .createIfMissing(create)
                .errorIfExists(create)
                .paranoidChecks(true)
                .verifyChecksums(true)
                .comparator(r.reverse ? ReverseBytewiseComparator.INSTANCE : null)
                .filterPolicy(r.bloomBits > 0 ? FilterPolicy.bloom((int) r.bloomBits) : null)
                .compressionType(r.snappy ? CompressionType.SNAPPY : CompressionType.NONE)
                .blockSize((int) r.blockSize)
                .blockRestartInterval((int) r.restartInterval)
                .writeBufferSize((int) r.writeBufferSize)
                .maxFileSize(r.maxFileSize);
    }

    /**
     * Performs steps {@code from} to the end of the recipe. With {@code from == 0} the database
     * is created; otherwise the existing database (holding the earlier steps) is opened. The
     * database is closed at the end without flushing.
     *
     * @param dir the database directory
     * @param r the recipe
     * @param from the first step to perform
     * @param tweak changes to the options (e.g. another compression), applied last
     * @return a summary: steps, live keys, log bytes left
     * @throws IOException on an I/O error
     * @throws Mismatch if a {@code check} or {@code verify-snapshot} step fails
     */
    static String write(Path dir, Recipe r, int from, UnaryOperator<Options> tweak) throws IOException {
        return write(dir, r, from, tweak, false);
    }

    /**
     * {@link #write(Path, Recipe, int, UnaryOperator)}, optionally with every write made through
     * an optimistic transaction: a recipe batch is one transaction committed at its end, and a
     * put or delete outside a batch is a transaction that reads the key, then writes it.
     *
     * @param transactions whether to write through transactions
     */
    static String write(Path dir, Recipe r, int from, UnaryOperator<Options> tweak, boolean transactions)
            throws IOException {
        Model m = Model.of(r, from);
        int maxKey = 0;
        for (byte[] k : m.touched) {
            maxKey = Math.max(maxKey, k.length);
        }
        Options options = tweak.apply(options(r, from == 0));
        Map<String, Map.Entry<Snapshot, Model>> snapshots = new HashMap<>();
        DB db = LevelDbFactory.factory.open(dir.toFile(), options);
        try {
            WriteBatch batch = null;
            Transaction txn = null;
            for (Op op : r.steps().subList(from, r.steps().size())) {
                String at = r.source + ":" + op.line();
                switch (op.kind()) {
                    case PUT, DELETE -> {
                        maxKey = Math.max(maxKey, op.key().length);
                        m.apply(op);
                        if (transactions) {
                            Transaction t = txn != null ? txn : ((ExtendedDB) db).beginTransaction();
                            if (txn == null) {
                                t.get(op.key());
                            }
                            if (op.kind() == Kind.PUT) {
                                t.put(op.key(), op.value());
                            } else {
                                t.delete(op.key());
                            }
                            if (txn == null) {
                                t.commit();
                            }
                        } else if (batch != null) {
                            if (op.kind() == Kind.PUT) {
                                batch.put(op.key(), op.value());
                            } else {
                                batch.delete(op.key());
                            }
                        } else if (op.kind() == Kind.PUT) {
                            db.put(op.key(), op.value());
                        } else {
                            db.delete(op.key());
                        }
                    }
                    case BATCH_BEGIN -> {
                        if (transactions) {
                            txn = ((ExtendedDB) db).beginTransaction();
                        } else {
                            batch = db.createWriteBatch();
                        }
                    }
                    case BATCH_END -> {
                        if (transactions) {
                            txn.commit();
                            txn = null;
                        } else {
                            db.write(batch);
                            batch.close();
                            batch = null;
                        }
                    }
                    case FLUSH -> {
                        // As the C++ peer does: compacting a range beyond every key flushes the
                        // memtable and moves no table.
                        byte[] beyond = new byte[maxKey + 1];
                        Arrays.fill(beyond, (byte) 0xff);
                        db.compactRange(beyond, beyond);
                    }
                    case COMPACT -> db.compactRange(null, null);
                    case REOPEN -> {
                        for (Map.Entry<Snapshot, Model> s : snapshots.values()) {
                            s.getKey().close();
                        }
                        snapshots.clear();
                        db.close();
                        db = null;
                        db = LevelDbFactory.factory.open(dir.toFile(), tweak.apply(options(r, false)));
                    }
                    case SNAPSHOT -> {
                        if (snapshots.containsKey(op.name())) {
                            throw new Recipe.RecipeException(at + ": snapshot '" + op.name() + "' already exists");
                        }
                        snapshots.put(op.name(), Map.entry(db.getSnapshot(), new Model(m)));
                    }
                    case VERIFY_SNAPSHOT -> {
                        Map.Entry<Snapshot, Model> s = snapshots.get(op.name());
                        if (s == null) {
                            throw new Mismatch(at + ": no snapshot '" + op.name()
                                    + "' (never taken, or released by reopen)");
                        }
                        compare(db, s.getValue(), s.getKey(), at + ": snapshot " + op.name() + ": ");
                    }
                    case CHECK -> compare(db, m, null, at + ": ");
                    default -> throw new IllegalStateException(op.kind().toString());
                }
            }
            for (Map.Entry<Snapshot, Model> s : snapshots.values()) {
                s.getKey().close();
            }
        } finally {
            if (db != null) {
                db.close();
            }
        }
        return "write ok: " + (r.steps().size() - from) + " steps, " + m.live.size() + " live keys; log bytes "
                + logBytes(dir);
    }

    /**
     * Opens the existing database with paranoid checks and checks it against the first
     * {@code upTo} steps of the recipe.
     *
     * @param dir the database directory
     * @param r the recipe
     * @param upTo how many steps the database holds
     * @return a summary of what was checked
     * @throws IOException if the database cannot be opened
     * @throws Mismatch on the first difference
     */
    static String verify(Path dir, Recipe r, int upTo) throws IOException {
        Model m = Model.of(r, upTo);
        try (DB db = LevelDbFactory.factory.open(dir.toFile(), options(r, false))) {
            return compare(db, m, null, "verify " + dir + ": ");
        }
    }

    /** Total size of the directory's log files. */
    static long logBytes(Path dir) throws IOException {
        long total = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*.log")) {
            for (Path f : files) {
                total += Files.size(f);
            }
        }
        return total;
    }

    private static String entry(Map.Entry<byte[], byte[]> e) {
        return Recipe.shortHex(e.getKey()) + "=" + Recipe.shortHex(e.getValue());
    }

    private static void check(boolean ok, String prefix, String message) {
        if (!ok) {
            throw new Mismatch(prefix + message);
        }
    }

    /**
     * Checks the database, or a snapshot of it, against the model as the peers' verifiers do.
     *
     * @return a summary
     * @throws Mismatch on the first difference
     */
    static String compare(DB db, Model m, Snapshot snapshot, String prefix) throws IOException {
        ReadOptions ro = new ReadOptions().verifyChecksums(true).snapshot(snapshot);
        for (Map.Entry<byte[], byte[]> e : m.live.entrySet()) {
            byte[] got = db.get(e.getKey(), ro);
            check(got != null, prefix, "Get(" + Recipe.shortHex(e.getKey()) + "): not found, expected value "
                    + Recipe.shortHex(e.getValue()));
            check(Arrays.equals(got, e.getValue()), prefix, "Get(" + Recipe.shortHex(e.getKey()) + ") = "
                    + Recipe.shortHex(got) + ", expected " + Recipe.shortHex(e.getValue()));
        }
        int deleted = 0;
        for (byte[] k : m.touched) {
            if (m.live.containsKey(k)) {
                continue;
            }
            deleted++;
            byte[] got = db.get(k, ro);
            check(got == null, prefix, "Get(" + Recipe.shortHex(k) + ") of a deleted key: found " + shortHexOrNull(got));
        }
        // The same keys, live and deleted, in one multiGet: each table read by the batch path.
        List<byte[]> keys = new ArrayList<>(m.touched);
        Collections.shuffle(keys, new Random(keys.size())); // out of order, as callers give them
        List<byte[]> values = ((ExtendedDB) db).multiGet(keys, ro);
        for (int i = 0; i < keys.size(); i++) {
            byte[] expected = m.live.get(keys.get(i));
            check(Arrays.equals(values.get(i), expected), prefix, "multiGet: key " + Recipe.shortHex(keys.get(i)) + " = "
                    + shortHexOrNull(values.get(i)) + ", expected " + shortHexOrNull(expected));
        }
        checkBufferScans((ExtendedDB) db, ro, m, prefix);
        try (DBIterator it = db.iterator(ro)) {
            // Forward scan.
            it.seekToFirst();
            for (Map.Entry<byte[], byte[]> e : m.live.entrySet()) {
                check(it.hasNext(), prefix, "forward scan: missing key " + Recipe.shortHex(e.getKey()));
                Map.Entry<byte[], byte[]> got = it.next();
                check(Arrays.equals(got.getKey(), e.getKey()) && Arrays.equals(got.getValue(), e.getValue()), prefix,
                        "forward scan: got " + entry(got) + ", expected " + entry(e));
            }
            check(!it.hasNext(), prefix, "forward scan: extra key " + (it.hasNext() ? entry(it.peekNext()) : ""));
            // Backward scan: the cursor sits on the last entry, prev() steps back.
            it.seekToLast();
            boolean first = true;
            for (Map.Entry<byte[], byte[]> e : m.live.descendingMap().entrySet()) {
                Map.Entry<byte[], byte[]> got;
                if (first) {
                    check(it.hasNext(), prefix, "backward scan: missing key " + Recipe.shortHex(e.getKey()));
                    got = it.peekNext();
                    first = false;
                } else {
                    check(it.hasPrev(), prefix, "backward scan: missing key " + Recipe.shortHex(e.getKey()));
                    got = it.prev();
                }
                check(Arrays.equals(got.getKey(), e.getKey()) && Arrays.equals(got.getValue(), e.getValue()), prefix,
                        "backward scan: got " + entry(got) + ", expected " + entry(e));
            }
            if (m.live.isEmpty()) {
                check(!it.hasNext(), prefix, "backward scan: extra key " + (it.hasNext() ? entry(it.peekNext()) : ""));
            } else {
                check(!it.hasPrev(), prefix, "backward scan: extra key " + (it.hasPrev() ? entry(it.peekPrev()) : ""));
            }
            // Seek to every deleted key: lands on the next live key; prev() from there returns
            // the live key before it.
            for (byte[] k : m.touched) {
                if (m.live.containsKey(k)) {
                    continue;
                }
                Map.Entry<byte[], byte[]> next = m.live.higherEntry(k);
                it.seek(k);
                if (next == null) {
                    check(!it.hasNext(), prefix, "Seek(" + Recipe.shortHex(k) + ") landed on "
                            + (it.hasNext() ? entry(it.peekNext()) : "") + ", expected the end");
                    continue;
                }
                check(it.hasNext() && Arrays.equals(it.peekNext().getKey(), next.getKey()), prefix,
                        "Seek(" + Recipe.shortHex(k) + ") landed on " + (it.hasNext() ? entry(it.peekNext()) : "the end")
                                + ", expected " + entry(next));
                Map.Entry<byte[], byte[]> before = m.live.lowerEntry(next.getKey());
                if (before == null) {
                    check(!it.hasPrev(), prefix, "Prev after Seek(" + Recipe.shortHex(k) + ") found "
                            + (it.hasPrev() ? entry(it.peekPrev()) : "") + ", expected the start");
                } else {
                    check(it.hasPrev(), prefix, "Prev after Seek(" + Recipe.shortHex(k) + ") found the start, expected "
                            + entry(before));
                    Map.Entry<byte[], byte[]> got = it.prev();
                    check(Arrays.equals(got.getKey(), before.getKey()) && Arrays.equals(got.getValue(), before.getValue()),
                            prefix, "Prev after Seek(" + Recipe.shortHex(k) + ") landed on " + entry(got)
                                    + ", expected " + entry(before));
                }
            }
        }
        return "verify ok: " + m.live.size() + " live keys, " + deleted
                + " deleted keys; gets, forward and backward scans, seeks match";
    }

    /**
     * Both scans again through {@link ExtendedDBIterator}'s buffer copies: every key and value
     * read into one reused pair of buffers, forward with {@code moveNext}, backward with
     * {@code movePrev}.
     */
    private static void checkBufferScans(ExtendedDB db, ReadOptions ro, Model m, String prefix) {
        ByteBuffer key = ByteBuffer.allocate(16);
        ByteBuffer value = ByteBuffer.allocateDirect(16);
        try (ExtendedDBIterator it = db.iterator(ro)) {
            it.seekToFirst();
            for (Map.Entry<byte[], byte[]> e : m.live.entrySet()) {
                check(it.hasNext(), prefix, "buffer scan: missing key " + Recipe.shortHex(e.getKey()));
                key = read(it, key, true);
                value = read(it, value, false);
                check(key.equals(ByteBuffer.wrap(e.getKey())) && value.equals(ByteBuffer.wrap(e.getValue())), prefix,
                        "buffer scan: not the entry " + entry(e));
                it.moveNext();
            }
            check(!it.hasNext(), prefix, "buffer scan: extra key");
            it.seekToLast();
            boolean first = true;
            for (Map.Entry<byte[], byte[]> e : m.live.descendingMap().entrySet()) {
                if (!first) {
                    check(it.hasPrev(), prefix, "backward buffer scan: missing key " + Recipe.shortHex(e.getKey()));
                    it.movePrev();
                }
                first = false;
                key = read(it, key, true);
                value = read(it, value, false);
                check(key.equals(ByteBuffer.wrap(e.getKey())) && value.equals(ByteBuffer.wrap(e.getValue())), prefix,
                        "backward buffer scan: not the entry " + entry(e));
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The key or value under the cursor in {@code buffer} (or a larger one), flipped for reading. */
    private static ByteBuffer read(ExtendedDBIterator it, ByteBuffer buffer, boolean key) {
        int length = key ? it.key(buffer.clear()) : it.value(buffer.clear());
        if (length > buffer.capacity()) {
            buffer = buffer.isDirect() ? ByteBuffer.allocateDirect(length) : ByteBuffer.allocate(length);
            if (key) {
                it.key(buffer);
            } else {
                it.value(buffer);
            }
        }
        return buffer.flip();
    }

    private static String shortHexOrNull(byte[] b) {
        return b == null ? "nothing" : Recipe.shortHex(b);
    }
}
