package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.leveldbj.engine.DbTestSupport.Write;
import static org.leveldbj.engine.DbTestSupport.describe;
import static org.leveldbj.engine.DbTestSupport.files;
import static org.leveldbj.engine.DbTestSupport.newModel;
import static org.leveldbj.engine.DbTestSupport.utf8;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.CorruptDatabaseException;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.filename.FileNames;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.log.LogReader;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockHandle;
import org.leveldbj.table.BlockIterator;
import org.leveldbj.table.BlockReader;
import org.leveldbj.table.Footer;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

/**
 * A whole-database corruption campaign, leveldb's corruption_test made exhaustive where it is
 * cheap: a small database (tables on two levels or more, a MANIFEST, a live log holding writes
 * no table has) is damaged one byte or one truncation at a time, and every damaged copy is
 * opened (with and without paranoid checks), read completely (a get of every key ever written,
 * a forward and a backward scan, all verifying checksums) and repaired.
 *
 * <p>What each outcome may be, by the file damaged:
 *
 * <ul>
 *   <li><b>A table</b>: the open succeeds; every read returns the model's value or throws a
 *       {@link CorruptionException} naming the table and an offset, never a wrong value and
 *       never another exception. After repair every key outside the damaged region (the data
 *       block holding the damaged byte; the whole table when the index, metaindex or footer
 *       is hit or the file is cut) has its model value; a key inside it is missing or has a
 *       value the history once gave it (an older version surfaces when the newest is lost).
 *   <li><b>The live log</b>: the log reader drops what it cannot trust: the damaged record
 *       and, after a checksum or length error, the rest of its 32 KiB block (records that
 *       continue into the next block go with it); a cut drops the records it cuts into and
 *       everything after. Every log record ends before the damage or starts in a later block
 *       must survive, and every record is applied whole or not at all. With paranoid checks
 *       the open may instead fail with a {@link CorruptDatabaseException} naming the log and
 *       an offset; without, it must succeed. Repair drops the same records.
 *   <li><b>The MANIFEST</b>: the open fails with a {@link CorruptDatabaseException} naming the
 *       MANIFEST (with an offset, unless the error is a missing entry found once the whole
 *       file is read), or succeeds with exactly the model (the MANIFEST's second record only
 *       moves the log number forward, so losing it as a torn tail loses nothing). Repair
 *       rebuilds exactly the model.
 *   <li><b>CURRENT</b>: the open fails with a {@link CorruptDatabaseException} naming CURRENT or
 *       the MANIFEST it points to (CURRENT holds a name, not records, so there is no offset), or
 *       succeeds with exactly the model. Repair rebuilds exactly the model.
 * </ul>
 *
 * <p>A failure reports its seed; replay it with {@code -Dleveldbj.seed=N}. The random offsets sampled
 * per table and per log (default 16; every block boundary and every
 * byte of CURRENT and the MANIFEST are always damaged) can be raised with {@code -Dleveldbj.campaign.offsets=N}.
 */
@ExtendWith(SeedExtension.class)
class CorruptionCampaignTest {
    private static final File DIR = new File("/db");
    private static final Path PATH = DIR.toPath();
    private static final int SAMPLES = Integer.getInteger("leveldbj.campaign.offsets", 16);
    /**
     * How long the campaign may go without finishing a damaged copy before it counts as hung.
     * One copy takes tens of milliseconds; the whole campaign takes minutes on a loaded machine,
     * so the guard watches progress, not the total.
     */
    private static final Duration STALL = Duration.ofSeconds(60);
    private static final InternalKeyComparator ICMP = new InternalKeyComparator(BytewiseComparator.INSTANCE);
    private static final int LOG_BLOCK = 32 * 1024;

    /** The kinds of file damaged. */
    private enum Kind { TABLE, LOG, MANIFEST, CURRENT }

    /** One damaged copy: a file, an offset flipped (with a mask) or a length cut to. */
    private record Damage(Kind kind, String file, int offset, int mask, int cutTo) {
        boolean truncation() {
            return cutTo >= 0;
        }

        @Override
        public String toString() {
            return file + (truncation() ? " cut to " + cutTo : " byte " + offset + " ^ 0x" + Integer.toHexString(mask));
        }
    }

    /** A region of a table file and the user keys whose entries it holds (all, for the index). */
    private record Region(long start, long end, String what, Set<String> keys) {
    }

    /** The pristine database and everything known about it. */
    private static final class Fixture {
        final Options options;
        final TreeMap<String, byte[]> files;
        /** The state of the tables: everything written before the database was last opened. */
        final TreeMap<byte[], byte[]> tableState;
        /** The writes since the database was last opened, one log record each, each key in at most one. */
        final List<Write> logWrites = new ArrayList<>();
        /** Where each log record starts and ends (the next record's start) in the log. */
        final List<long[]> logRecords = new ArrayList<>();
        /** Every value each key ever had. */
        final Map<String, Set<String>> history = new HashMap<>();
        final TreeMap<byte[], byte[]> model;
        final Set<byte[]> universe = new TreeSet<>(Arrays::compareUnsigned);
        final Map<String, List<Region>> tables = new TreeMap<>();
        String log;
        String manifest;

        Fixture(Options options, TreeMap<String, byte[]> files, TreeMap<byte[], byte[]> tableState,
                TreeMap<byte[], byte[]> model) {
            this.options = options;
            this.files = files;
            this.tableState = tableState;
            this.model = model;
        }
    }

    private static String str(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }

    private static Options options(Env env, String variant) {
        Options o = new Options().env(env).createIfMissing(false).writeBufferSize(1 << 20).maxFileSize(24_000)
                .blockSize(1024);
        return variant.equals("snappy+bloom")
                ? o.compressionType(CompressionType.SNAPPY).filterPolicy(FilterPolicy.bloom(10))
                : o.compressionType(CompressionType.NONE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"snappy+bloom", "none"})
    void everyDamageIsDetectedOrHarmlessAndRepairable(String variant, @Seed long seed) throws Throwable {
        ExecutorService runner = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "corruption-campaign-" + variant);
            t.setDaemon(true);
            return t;
        });
        try {
            Future<?> run = runner.submit(() -> {
                campaign(variant, seed);
                return null;
            });
            long seen = -1;
            long since = System.nanoTime();
            while (true) {
                try {
                    run.get(1, TimeUnit.SECONDS);
                    return;
                } catch (TimeoutException e) {
                    long done = progress.get();
                    if (done != seen) {
                        seen = done;
                        since = System.nanoTime();
                    } else if (System.nanoTime() - since > STALL.toNanos()) {
                        run.cancel(true);
                        fail("no damaged copy finished in " + STALL.toSeconds() + " s (after " + done
                                + "): the open, read or repair of one hangs");
                    }
                } catch (ExecutionException e) {
                    throw e.getCause();
                }
            }
        } finally {
            runner.shutdownNow();
        }
    }

    /** Damaged copies checked so far, watched by the hang guard. */
    private final AtomicLong progress = new AtomicLong();

    private void campaign(String variant, long seed) throws IOException {
        Random r = new Random(seed);
        Fixture f = build(variant, r);
        List<Damage> damages = new ArrayList<>();
        byte[] current = f.files.get(FileNames.CURRENT);
        for (int i = 0; i < current.length; i++) {
            damages.add(new Damage(Kind.CURRENT, FileNames.CURRENT, i, mask(r), -1));
        }
        for (int n = 0; n < current.length; n++) {
            damages.add(new Damage(Kind.CURRENT, FileNames.CURRENT, -1, 0, n));
        }
        byte[] manifest = f.files.get(f.manifest);
        for (int i = 0; i < manifest.length; i++) {
            damages.add(new Damage(Kind.MANIFEST, f.manifest, i, mask(r), -1));
        }
        for (int n = 0; n < manifest.length; n++) {
            damages.add(new Damage(Kind.MANIFEST, f.manifest, -1, 0, n));
        }
        byte[] log = f.files.get(f.log);
        BitSet logOffsets = new BitSet();
        for (int i = 0; i < f.logRecords.size(); i += 4) {
            logOffsets.set((int) f.logRecords.get(i)[0]); // the first header byte of every fourth record
        }
        for (int b = LOG_BLOCK; b < log.length; b += LOG_BLOCK) {
            logOffsets.set(b); // the first header of each block
            logOffsets.set(b - 1); // the end of the previous block (a fragment or the trailer)
        }
        for (int i = 0; i < SAMPLES; i++) {
            logOffsets.set(r.nextInt(log.length));
        }
        logOffsets.stream().forEach(i -> damages.add(new Damage(Kind.LOG, f.log, i, mask(r), -1)));
        for (int i = 0; i < SAMPLES / 2; i++) {
            damages.add(new Damage(Kind.LOG, f.log, -1, 0, r.nextInt(log.length)));
        }
        for (Map.Entry<String, List<Region>> t : f.tables.entrySet()) {
            byte[] table = f.files.get(t.getKey());
            BitSet offsets = new BitSet();
            for (Region region : t.getValue()) {
                // Every block's first byte and its trailer's compression type byte.
                offsets.set((int) region.start());
                if (!region.what().equals("footer")) {
                    offsets.set((int) region.end() - BlockReader.TRAILER_SIZE);
                }
                if (!region.what().startsWith("data")) {
                    // The index, filter, metaindex and footer: a few more bytes each.
                    for (int i = 0; i < 6; i++) {
                        offsets.set((int) (region.start() + r.nextInt((int) (region.end() - region.start()))));
                    }
                }
            }
            for (int i = 0; i < SAMPLES; i++) {
                offsets.set(r.nextInt(table.length));
            }
            offsets.stream().forEach(i -> damages.add(new Damage(Kind.TABLE, t.getKey(), i, mask(r), -1)));
            for (int i = 0; i < SAMPLES / 4; i++) {
                damages.add(new Damage(Kind.TABLE, t.getKey(), -1, 0, r.nextInt(table.length)));
            }
        }
        int[] counts = new int[4];
        long[] nanos = new long[Kind.values().length];
        int[] copies = new int[Kind.values().length];
        // Every failing damage is recorded, and the first of each kind of failure is reported
        // with its stack, so one run shows every distinct problem.
        Map<String, List<String>> failures = new TreeMap<>();
        Map<String, Throwable> firsts = new HashMap<>();
        for (Damage d : damages) {
            long start = System.nanoTime();
            try {
                check(f, d, counts);
            } catch (AssertionError | RuntimeException | IOException e) {
                String category = d.kind() + ": " + firstLine(e);
                if (e.getMessage() != null && e.getMessage().startsWith("after repair")) {
                    category = d.kind() + " after repair: " + firstLine(e.getCause());
                }
                failures.computeIfAbsent(category, k -> new ArrayList<>()).add(d.toString());
                firsts.putIfAbsent(category, e);
            }
            nanos[d.kind().ordinal()] += System.nanoTime() - start;
            copies[d.kind().ordinal()]++;
            progress.incrementAndGet();
        }
        StringBuilder times = new StringBuilder();
        for (Kind k : Kind.values()) {
            times.append(' ').append(k).append(' ').append(copies[k.ordinal()]).append(" in ")
                    .append(nanos[k.ordinal()] / 1_000_000).append(" ms;");
        }
        System.out.printf("CorruptionCampaignTest %s:%s opens failed %d, reads failed %d, harmless %d,"
                + " data dropped %d%n", variant, times, counts[0], counts[1], counts[2], counts[3]);
        if (!failures.isEmpty()) {
            StringBuilder sb = new StringBuilder(variant + " seed " + seed + ": " + failures.size()
                    + " kinds of failure:");
            for (Map.Entry<String, List<String>> e : failures.entrySet()) {
                sb.append("\n  ").append(e.getValue().size()).append(" x ").append(e.getKey()).append("\n    e.g. ")
                        .append(e.getValue().subList(0, Math.min(5, e.getValue().size())));
            }
            AssertionError error = new AssertionError(sb.toString());
            firsts.values().forEach(error::addSuppressed);
            throw error;
        }
    }

    /** The failure's message up to the first digit-bearing detail, to group failures by kind. */
    private static String firstLine(Throwable e) {
        String m = String.valueOf(e.getMessage());
        int cut = m.indexOf(':');
        String head = cut > 0 ? m.substring(0, cut) : m;
        head = head.replaceAll("[0-9]+", "N");
        Throwable cause = e.getCause();
        return e.getClass().getSimpleName() + " " + (head.length() > 120 ? head.substring(0, 120) : head)
                + (cause != null ? " (cause " + cause.getClass().getSimpleName() + ")" : "");
    }

    private static int mask(Random r) {
        return 1 << r.nextInt(8);
    }

    // ---- building the database ----

    private Fixture build(String variant, Random r) throws IOException {
        MemEnv env = new MemEnv();
        Options options = options(env, variant);
        TreeMap<byte[], byte[]> model = newModel();
        Map<String, Set<String>> history = new HashMap<>();
        Set<byte[]> universe = new TreeSet<>(Arrays::compareUnsigned);
        try (DB db = LevelDbFactory.factory.open(DIR, options.createIfMissing(true).writeBufferSize(40_000))) {
            // The bulk, compacted down, then overwrites and deletes flushed to level 0.
            for (int i = 0; i < 2500; i++) {
                put(db, model, history, universe, String.format("key%05d", i * 2), "v0." + i + "-" + pad(r));
            }
            db.compactRange(null, null);
            for (int i = 0; i < 700; i++) {
                String key = String.format("key%05d", r.nextInt(5000));
                if (r.nextInt(5) == 0) {
                    db.delete(utf8(key));
                    model.remove(utf8(key));
                    universe.add(utf8(key));
                } else {
                    put(db, model, history, universe, key, "v1." + i + "-" + pad(r));
                }
            }
        }
        options.createIfMissing(false).writeBufferSize(1 << 20);
        TreeMap<byte[], byte[]> tableState = new TreeMap<>(model);
        List<Write> logWrites = new ArrayList<>();
        try (DB db = LevelDbFactory.factory.open(DIR, options)) {
            int levels = 0;
            for (int level = 0; level < 7; level++) {
                levels += db.getProperty("leveldb.num-files-at-level" + level).equals("0") ? 0 : 1;
            }
            assertTrue(levels >= 2, "tables on one level only: " + db.getProperty("leveldb.sstables"));
            // Since the last open: writes that live only in the log. Each key is written by one
            // record at most, so which records survive can be read off the recovered state.
            List<String> keys = new ArrayList<>();
            for (int i = 0; i < 5000; i++) {
                keys.add(String.format("key%05d", i));
            }
            for (int i = 0; i < 300; i++) {
                keys.add(String.format("log%05d", i));
            }
            Collections.shuffle(keys, r);
            int next = 0;
            for (int w = 0; w < 420; w++) {
                int n = r.nextInt(4) == 0 ? 2 + r.nextInt(6) : 1;
                List<byte[]> ks = new ArrayList<>();
                List<byte[]> vs = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    String key = keys.get(next++);
                    ks.add(utf8(key));
                    vs.add(r.nextInt(6) == 0 ? null : utf8("log." + w + "." + i + "-" + pad(r)));
                }
                Write write = new Write(ks, vs, false);
                logWrites.add(write);
                try (WriteBatch batch = db.createWriteBatch()) {
                    for (int i = 0; i < n; i++) {
                        if (vs.get(i) == null) {
                            batch.delete(ks.get(i));
                        } else {
                            batch.put(ks.get(i), vs.get(i));
                            history.computeIfAbsent(str(ks.get(i)), k -> new HashSet<>()).add(str(vs.get(i)));
                        }
                        universe.add(ks.get(i));
                    }
                    db.write(batch, new WriteOptions());
                }
                write.applyTo(model);
            }
        }
        TreeMap<String, byte[]> files = files(env, PATH);
        files.keySet().removeIf(n -> n.equals("LOG") || n.equals("LOG.old") || n.equals("LOCK"));
        Fixture f = new Fixture(options, files, tableState, model);
        f.logWrites.addAll(logWrites);
        f.history.putAll(history);
        f.universe.addAll(universe);
        for (String name : files.keySet()) {
            FileNames.Parsed p = FileNames.parse(name);
            if (p == null) {
                continue;
            }
            switch (p.type()) {
                case LOG -> f.log = name;
                case DESCRIPTOR -> f.manifest = name;
                case TABLE -> f.tables.put(name, regions(env, name));
                default -> { }
            }
        }
        assertTrue(f.log != null && f.manifest != null && f.tables.size() >= 4, "files: " + files.keySet());
        // Log record boundaries, matched with the writes in order.
        try (LogReader reader = new LogReader(env.newSequentialFile(PATH.resolve(f.log)),
                (bytes, reason) -> fail("the pristine log is damaged: " + reason), true, 0)) {
            while (reader.readRecord() != null) {
                f.logRecords.add(new long[] {reader.lastRecordOffset(), 0});
            }
        }
        assertEquals(logWrites.size(), f.logRecords.size(), "one log record per write");
        for (int i = 0; i < f.logRecords.size(); i++) {
            f.logRecords.get(i)[1] = i + 1 < f.logRecords.size() ? f.logRecords.get(i + 1)[0] : files.get(f.log).length;
        }
        assertTrue(files.get(f.log).length > LOG_BLOCK, "the log should span blocks");
        return f;
    }

    private static String pad(Random r) {
        return "x".repeat(r.nextInt(60));
    }

    private static void put(DB db, TreeMap<byte[], byte[]> model, Map<String, Set<String>> history,
            Set<byte[]> universe, String key, String value) {
        db.put(utf8(key), utf8(value));
        model.put(utf8(key), utf8(value));
        universe.add(utf8(key));
        history.computeIfAbsent(key, k -> new HashSet<>()).add(value);
    }

    /** The regions of a table: each data block (with its keys), the filter, metaindex, index and footer. */
    private static List<Region> regions(Env env, String name) throws IOException {
        List<Region> out = new ArrayList<>();
        try (Env.RandomAccessFile file = env.newRandomAccessFile(PATH.resolve(name))) {
            long size = file.size();
            ByteBuffer tail = file.read(size - Footer.ENCODED_LENGTH, Footer.ENCODED_LENGTH);
            Footer footer = Footer.decode(tail, tail.position(), Footer.ENCODED_LENGTH);
            Set<String> all = new HashSet<>();
            BlockIterator index = new Block(BlockReader.read(file, name, footer.index(), true).data()).iterator(ICMP);
            for (index.seekToFirst(); index.valid(); index.next()) {
                BlockHandle h = BlockHandle.decode(index.value().duplicate());
                Set<String> keys = new HashSet<>();
                BlockIterator data = new Block(BlockReader.read(file, name, h, true).data()).iterator(ICMP);
                for (data.seekToFirst(); data.valid(); data.next()) {
                    keys.add(str(InternalKeys.parse(Bytes.toArray(data.key())).userKey()));
                }
                all.addAll(keys);
                out.add(new Region(h.offset(), h.offset() + h.size() + BlockReader.TRAILER_SIZE, "data", keys));
            }
            BlockIterator meta = new Block(BlockReader.read(file, name, footer.metaindex(), true).data())
                    .iterator(BytewiseComparator.INSTANCE);
            for (meta.seekToFirst(); meta.valid(); meta.next()) {
                BlockHandle h = BlockHandle.decode(meta.value().duplicate());
                // A lost filter costs speed, not data.
                out.add(new Region(h.offset(), h.offset() + h.size() + BlockReader.TRAILER_SIZE, "filter", Set.of()));
            }
            BlockHandle m = footer.metaindex();
            out.add(new Region(m.offset(), m.offset() + m.size() + BlockReader.TRAILER_SIZE, "metaindex", all));
            BlockHandle i = footer.index();
            out.add(new Region(i.offset(), i.offset() + i.size() + BlockReader.TRAILER_SIZE, "index", all));
            out.add(new Region(size - Footer.ENCODED_LENGTH, size, "footer", all));
            long covered = out.stream().mapToLong(x -> x.end() - x.start()).sum();
            assertEquals(size, covered, name + ": regions " + out);
        }
        return out;
    }

    // ---- checking one damaged copy ----

    private MemEnv copy(Fixture f, Damage d) throws IOException {
        MemEnv env = new MemEnv();
        env.createDir(PATH);
        for (Map.Entry<String, byte[]> e : f.files.entrySet()) {
            byte[] bytes = e.getValue();
            if (e.getKey().equals(d.file())) {
                bytes = d.truncation() ? Arrays.copyOf(bytes, d.cutTo()) : bytes.clone();
                if (!d.truncation()) {
                    bytes[d.offset()] ^= (byte) d.mask();
                }
            }
            DbTestSupport.write(env, PATH.resolve(e.getKey()), bytes);
        }
        return env;
    }

    private void check(Fixture f, Damage d, int[] counts) throws IOException {
        for (boolean paranoid : new boolean[] {true, false}) {
            MemEnv env = copy(f, d);
            Options options = options(env, f.options.compressionType() == CompressionType.NONE ? "none" : "snappy+bloom")
                    .paranoidChecks(paranoid);
            DB db;
            try {
                db = LevelDbFactory.factory.open(DIR, options);
            } catch (CorruptDatabaseException e) {
                if (d.kind() == Kind.LOG && !paranoid) {
                    throw new AssertionError("without paranoid checks a damaged log must not fail the open", e);
                }
                if (d.kind() == Kind.TABLE) {
                    throw new AssertionError("a damaged table must not fail the open", e);
                }
                assertNamesDamage(e.getCause(), d);
                counts[0]++;
                continue;
            }
            try {
                readEverything(f, d, db, counts, false);
            } finally {
                db.close();
            }
        }
        MemEnv env = copy(f, d);
        Options options = options(env, f.options.compressionType() == CompressionType.NONE ? "none" : "snappy+bloom");
        LevelDbFactory.factory.repair(DIR, options);
        try (DB db = LevelDbFactory.factory.open(DIR, options.paranoidChecks(true))) {
            readEverything(f, d, db, counts, true);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("after repair: " + e.getMessage(), e);
        }
    }

    /** Checks that a corruption report names the damaged file (and an offset where one applies). */
    private static void assertNamesDamage(Throwable e, Damage d) {
        if (!(e instanceof CorruptionException c)) {
            throw new AssertionError("expected a CorruptionException, got " + e, e);
        }
        String msg = c.getMessage();
        if (d.kind() == Kind.CURRENT) {
            // CURRENT names a MANIFEST; when the damaged name is not one, CURRENT is reported.
            assertTrue(c.file() != null && (c.file().endsWith(FileNames.CURRENT) || c.file().contains("MANIFEST")), msg);
            return;
        }
        assertTrue(c.file() != null && c.file().endsWith(d.file()), "the report does not name " + d.file() + ": " + msg);
        assertTrue(msg.contains(d.file()), msg);
        boolean wholeFile = d.kind() == Kind.MANIFEST && msg.contains("no ") && msg.contains("entry in descriptor");
        if (!wholeFile) {
            assertTrue(c.offset() >= 0 && msg.contains("at offset " + c.offset()), "no offset: " + msg);
        }
    }

    /**
     * Reads everything: gets of every key ever written, a forward scan and a backward scan, all
     * verifying checksums, and compares with what the damage allows.
     */
    private void readEverything(Fixture f, Damage d, DB db, int[] counts, boolean repaired) {
        ReadOptions verify = new ReadOptions().verifyChecksums(true);
        // Reads may fail only on a damaged table, and only before repair.
        boolean mayFail = d.kind() == Kind.TABLE && !repaired;
        TreeMap<byte[], byte[]> forward = newModel();
        boolean complete = true;
        try (DBIterator it = db.iterator(verify)) {
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                if (!forward.isEmpty()) {
                    assertTrue(Arrays.compareUnsigned(forward.lastKey(), e.getKey()) < 0, "keys out of order");
                }
                forward.put(e.getKey(), e.getValue());
            }
        } catch (RuntimeException | IOException e) {
            if (!mayFail) {
                throw new AssertionError("the forward scan failed", e);
            }
            assertNamesDamage(e, d);
            complete = false;
            counts[1]++;
        }
        TreeMap<byte[], byte[]> expected = expected(f, d, forward, repaired);
        if (expected.equals(f.model) || DbTestSupport.sameEntries(expected, f.model)) {
            counts[2]++;
        } else {
            counts[3]++;
        }
        // A scan that stopped at a damaged block returned a correct prefix.
        for (Map.Entry<byte[], byte[]> e : forward.entrySet()) {
            assertArrayEquals(expected.get(e.getKey()), e.getValue(), () -> "forward scan: " + str(e.getKey()));
        }
        if (complete) {
            assertStateEquals(expected, forward, "forward scan");
        }
        TreeMap<byte[], byte[]> backward = newModel();
        boolean backwardComplete = true;
        try (DBIterator it = db.iterator(verify)) {
            it.seekToLast();
            if (it.hasNext()) {
                Map.Entry<byte[], byte[]> last = it.peekNext();
                backward.put(last.getKey(), last.getValue());
                while (it.hasPrev()) {
                    Map.Entry<byte[], byte[]> e = it.prev();
                    assertTrue(Arrays.compareUnsigned(backward.firstKey(), e.getKey()) > 0, "keys out of order");
                    backward.put(e.getKey(), e.getValue());
                }
            }
        } catch (RuntimeException | IOException e) {
            if (!mayFail) {
                throw new AssertionError("the backward scan failed", e);
            }
            assertNamesDamage(e, d);
            backwardComplete = false;
        }
        for (Map.Entry<byte[], byte[]> e : backward.entrySet()) {
            assertArrayEquals(expected.get(e.getKey()), e.getValue(), () -> "backward scan: " + str(e.getKey()));
        }
        if (backwardComplete) {
            assertStateEquals(expected, backward, "backward scan");
        }
        for (byte[] key : f.universe) {
            byte[] value;
            try {
                value = db.get(key, verify);
            } catch (RuntimeException e) {
                if (!mayFail) {
                    throw new AssertionError("get(" + str(key) + ") failed", e);
                }
                assertNamesDamage(e, d);
                continue;
            }
            assertArrayEquals(expected.get(key), value, () -> "get(" + str(key) + ")");
        }
    }

    private static void assertStateEquals(TreeMap<byte[], byte[]> expected, TreeMap<byte[], byte[]> actual, String what) {
        if (!DbTestSupport.sameEntries(expected, actual)) {
            TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
            keys.addAll(expected.keySet());
            keys.addAll(actual.keySet());
            StringBuilder diff = new StringBuilder();
            int n = 0;
            for (byte[] k : keys) {
                if (!Arrays.equals(expected.get(k), actual.get(k)) && n++ < 5) {
                    diff.append(' ').append(str(k)).append(": expected ")
                            .append(expected.get(k) == null ? "none" : str(expected.get(k))).append(", got ")
                            .append(actual.get(k) == null ? "none" : str(actual.get(k)));
                }
            }
            fail(what + ": " + n + " keys differ from the allowed state (" + describe(expected) + "):" + diff);
        }
    }

    /**
     * The state the database must hold after the damage, given what a complete scan found where
     * the damage allows a choice (which log records survived; what repair salvaged of a table).
     */
    private TreeMap<byte[], byte[]> expected(Fixture f, Damage d, TreeMap<byte[], byte[]> found, boolean repaired) {
        switch (d.kind()) {
            case LOG:
                return logSurvivors(f, d, found);
            case TABLE:
                if (!repaired) {
                    return f.model;
                }
                return salvaged(f, d, found);
            default:
                return f.model;
        }
    }

    /** The model with the damaged table's lost keys at whatever older value (or none) the scan found. */
    private TreeMap<byte[], byte[]> salvaged(Fixture f, Damage d, TreeMap<byte[], byte[]> found) {
        Set<String> lost = new HashSet<>();
        for (Region region : f.tables.get(d.file())) {
            boolean hit = d.truncation() ? region.end() > d.cutTo() || region.what().equals("footer")
                    : region.start() <= d.offset() && d.offset() < region.end();
            if (hit) {
                lost.addAll(region.keys());
            }
        }
        if (d.truncation()) {
            // A cut table cannot be opened at all.
            for (Region region : f.tables.get(d.file())) {
                lost.addAll(region.keys());
            }
        }
        TreeMap<byte[], byte[]> out = new TreeMap<>(f.model);
        for (String key : lost) {
            byte[] k = utf8(key);
            byte[] got = found.get(k);
            if (got == null) {
                out.remove(k);
            } else if (f.history.getOrDefault(key, Set.of()).contains(str(got))) {
                out.put(k, got);
            }
        }
        return out;
    }

    /**
     * The table state plus the log records that survived, read off the scan: a record survived
     * when its keys have its values. Fails if a record survived in part, or if a record that
     * must survive (ending before the damage, or starting in a later 32 KiB block) did not.
     */
    private TreeMap<byte[], byte[]> logSurvivors(Fixture f, Damage d, TreeMap<byte[], byte[]> found) {
        long damageStart = d.truncation() ? d.cutTo() : d.offset();
        long nextBlock = d.truncation() ? Long.MAX_VALUE : (d.offset() / LOG_BLOCK + 1) * LOG_BLOCK;
        TreeMap<byte[], byte[]> out = new TreeMap<>(f.tableState);
        for (int i = 0; i < f.logWrites.size(); i++) {
            Write w = f.logWrites.get(i);
            long[] where = f.logRecords.get(i);
            boolean must = where[1] <= damageStart || where[0] >= nextBlock;
            boolean applied = false;
            boolean notApplied = false;
            for (int k = 0; k < w.keys().size(); k++) {
                byte[] key = w.keys().get(k);
                boolean asWritten = Arrays.equals(w.values().get(k), found.get(key));
                boolean asBefore = Arrays.equals(f.tableState.get(key), found.get(key));
                applied |= asWritten && !asBefore;
                notApplied |= asBefore && !asWritten;
            }
            if (applied && notApplied) {
                fail("log record " + i + " at " + where[0] + " survived in part");
            }
            if (must && notApplied) {
                fail("log record " + i + " at [" + where[0] + ", " + where[1] + ") is not in the damaged region but was lost");
            }
            if (!notApplied) {
                w.applyTo(out);
            }
        }
        return out;
    }
}
