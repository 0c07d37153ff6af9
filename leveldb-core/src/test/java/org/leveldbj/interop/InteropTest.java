package org.leveldbj.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.engine.DbImpl;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.engine.WriteBatchImpl;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.log.LogReader;
import org.leveldbj.table.BloomFilterPolicy;
import org.leveldbj.table.FilterKeyExtractor;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.testing.PeerExtension;
import org.leveldbj.testing.ReverseBytewiseComparator;
import org.leveldbj.util.Bytes;
import org.leveldbj.version.VersionEdit;
import org.leveldbj.vlog.SeparatedFormat;

/**
 * Interoperability with C++ LevelDB 1.23 and goleveldb through the peers in interop/: databases
 * described by the sample recipes go both ways.
 *
 * <ul>
 *   <li>peer writes, we read: we read every file with our format readers, open the database
 *       (replaying the unflushed log tail the peer left) and verify every key, both scans and
 *       seeks to deleted keys; then we write a second part on top (snapshots, checks, a reopen,
 *       a multi-block batch, a 1 MiB value, a new unflushed tail) and the C++ peer (paranoid,
 *       checksums) and the Go peer (default strict level, and {@code StrictAll}) verify the whole;
 *   <li>we write, peers read: the same checks on a database we wrote from scratch, plus
 *       C++'s count of table reads for missing keys (our bloom filters in use or not).
 * </ul>
 *
 * <p>Every database we write must keep its MANIFEST's last sequence below the live log's
 * records (checked with {@code leveldb_peer logseq}) and every file we write must be readable
 * by {@code leveldb_peer dump}.
 */
@ExtendWith(PeerExtension.class)
class InteropTest {

    /** Written by the other implementation on top of each sample recipe. */
    static final String PART2 = """

            # Second part: written on top of the first by the other implementation.
            snapshot part2-start
            gen churn 901 600 keys=3000 prefix=303030303030 vmin=0 vmax=64   # overwrites of seq keys
            batch begin                                                       # spans several 32 KiB log blocks
            gen seq 902 300 start=0 step=7 vmin=100 vmax=400
            gen churn 903 200 keys=100
            gen binary 904 100 kmin=0 kmax=6 vmin=0 vmax=16
            batch end
            verify-snapshot part2-start
            flush
            check
            put 626967 rand:905:1048576
            delete 303030303030303030303030
            reopen
            snapshot part2-mid
            gen churn 906 400 keys=3000 prefix=303030303030
            put 00ff -
            verify-snapshot part2-mid
            check
            gen churn 907 200 keys=64                                         # tail: stays in the log
            """;

    /** A recipe split in two: part 1 (a sample recipe) and the whole (part 1 + PART2). */
    record Parts(String name, Path part1File, Path fullFile, Recipe full, int split) {
    }

    static Stream<String> recipes() throws IOException {
        return RecipeTest.recipes();
    }

    private static Parts parts(Peers peers, String name, Path dir) throws IOException {
        String text = Files.readString(peers.recipe(name), StandardCharsets.ISO_8859_1);
        Path part1 = dir.resolve(name + ".recipe");
        Path full = dir.resolve(name + "+part2.recipe");
        Files.writeString(part1, text, StandardCharsets.ISO_8859_1);
        Files.writeString(full, text + PART2, StandardCharsets.ISO_8859_1);
        return new Parts(name, part1, full, Recipe.load(full), Recipe.load(part1).steps().size());
    }

    private static void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "interop: " + format + "%n", args);
    }

    // ------------------------------------------------------------------ both directions

    @ParameterizedTest(name = "C++ writes {0}, we read and extend it, peers verify")
    @MethodSource("recipes")
    void cppWritesWeReadAndExtend(String name, @TempDir Path tmp) throws IOException {
        peerWritesWeReadAndExtend("cpp", name, tmp);
    }

    @ParameterizedTest(name = "Go writes {0}, we read and extend it, peers verify")
    @MethodSource("recipes")
    void goWritesWeReadAndExtend(String name, @TempDir Path tmp) throws IOException {
        peerWritesWeReadAndExtend("go", name, tmp);
    }

    private void peerWritesWeReadAndExtend(String writer, String name, Path tmp) throws IOException {
        Peers peers = Peers.get();
        Parts p = parts(peers, name, tmp);
        Path db = tmp.resolve("db");
        Peers.Result w = (writer.equals("cpp") ? peers.cpp("write", db.toString(), p.part1File().toString())
                : peers.go("write", db.toString(), p.part1File().toString())).expectOk();
        assertTrue(w.number("log bytes") > 0, writer + " left no unflushed log tail: " + w.output());
        Peers.Result seq = peers.cpp("logseq", db.toString()).expectOk();
        log("%s %s-written: %s; %s", name, writer, w.stdout().trim(), seq.stdout().trim());

        // Our format readers accept every file the peer wrote.
        FileCheck files = readWithOurReaders(db, p.full(), writer);
        log("%s %s-written: our readers: %s", name, writer, files);
        if (writer.equals("cpp") && name.equals("levels")) {
            // Explicit flushes land on levels 2, 1, 0, 0: overlapping level-0 files over deeper levels.
            assertTrue(files.tablesPerLevel.getOrDefault(0, 0) >= 2, "level-0 files: " + files.tablesPerLevel);
            assertTrue(files.tablesPerLevel.keySet().stream().anyMatch(l -> l > 0), "levels: " + files.tablesPerLevel);
        }

        // We open it directly (the live log tail is replayed) and check everything.
        log("%s %s-written: ours: %s", name, writer, RecipeRunner.verify(db, p.full(), p.split()));

        // We write the second part on top; the peers verify the whole.
        String ours = RecipeRunner.write(db, p.full(), p.split(), UnaryOperator.identity());
        log("%s %s-written + ours: %s", name, writer, ours);
        assertTrue(RecipeRunner.logBytes(db) > 0, "we left no unflushed log tail");
        checkOurDatabase(peers, db, p, false);
    }

    @ParameterizedTest(name = "we write {0}, peers verify")
    @MethodSource("recipes")
    void weWritePeersVerify(String name, @TempDir Path tmp) throws IOException {
        Peers peers = Peers.get();
        Parts p = parts(peers, name, tmp);
        Path db = tmp.resolve("db");
        log("%s java-written: %s", name, RecipeRunner.write(db, p.full(), 0, UnaryOperator.identity()));
        assertTrue(RecipeRunner.logBytes(db) > 0, "we left no unflushed log tail");
        checkOurDatabase(peers, db, p, true);
        // Our own readers accept our files too.
        readWithOurReaders(db, p.full(), "java");
    }

    /**
     * A database written through optimistic transactions is plain LevelDB: each commit is one
     * write batch in the log. Every write of two recipes (batches, and single puts and deletes
     * with a read before them) goes through a transaction; both peers verify the result with
     * their strictest checks, as for any database we write.
     */
    @ParameterizedTest(name = "we write {0} through transactions, peers verify")
    @ValueSource(strings = {"batches", "churn"})
    void weWriteThroughTransactionsPeersVerify(String name, @TempDir Path tmp) throws IOException {
        Peers peers = Peers.get();
        Parts p = parts(peers, name, tmp);
        Path db = tmp.resolve("db");
        log("%s java-written through transactions: %s", name,
                RecipeRunner.write(db, p.full(), 0, UnaryOperator.identity(), true));
        assertTrue(RecipeRunner.logBytes(db) > 0, "we left no unflushed log tail");
        checkOurDatabase(peers, db, p, false);
    }

    /**
     * The checks on a database we wrote: the MANIFEST is not ahead of the log, C++ dumps every
     * file, C++ verifies it (paranoid, checksums) and Go verifies it (default strict level and
     * StrictAll; read-only for the reverse comparator, see interop/README.md).
     */
    private void checkOurDatabase(Peers peers, Path db, Parts p, boolean countReads) throws IOException {
        String name = p.name();
        checkManifestNotAheadOfLog(peers, db);
        log("%s: C++ dumped %d files we wrote", name, dumpAll(peers, db));

        Path cppCopy = copy(db, "cppv");
        Peers.Result v = countReads
                ? peers.cpp("verify", "--count-reads", cppCopy.toString(), p.fullFile().toString())
                : peers.cpp("verify", cppCopy.toString(), p.fullFile().toString());
        v.expectOk();
        log("%s: C++ %s", name, v.stdout().trim().replace("\n", "; "));
        // The C++ open rewrote the copy (a level-0 table from our log, a new MANIFEST): our
        // readers accept those files too.
        log("%s: C++-opened copy: our readers: %s", name, readWithOurReaders(cppCopy, p.full(), "cpp"));
        if (countReads) {
            double perMiss = v.decimal("reads_per_probe");
            if (p.full().bloomBits > 0) {
                assertTrue(perMiss < 0.1, "C++ did not use our bloom filters: " + perMiss + " reads per missing key");
            } else {
                assertTrue(perMiss >= 0.5, "without filters a missing key should read blocks: " + perMiss);
            }
        }

        if (p.full().reverse) {
            // goleveldb's compaction compares file boundaries bytewise: read-only open only.
            log("%s: Go --read-only %s", name,
                    peers.go("verify", "--read-only", copy(db, "gor").toString(), p.fullFile().toString())
                            .expectOk().output().trim());
        } else {
            Path goCopy = copy(db, "gov");
            log("%s: Go %s", name, peers.go("verify", goCopy.toString(), p.fullFile().toString()).expectOk().output().trim());
            // goleveldb's open rewrote the copy: our readers accept its files too.
            log("%s: Go-opened copy: our readers: %s", name, readWithOurReaders(goCopy, p.full(), "go"));
            log("%s: Go --strict-all %s", name,
                    peers.go("verify", "--strict-all", copy(db, "gos").toString(), p.fullFile().toString())
                            .expectOk().output().trim());
        }
    }

    /** Our writer never leaves a MANIFEST whose last sequence covers records of the live log. */
    private static void checkManifestNotAheadOfLog(Peers peers, Path db) {
        Peers.Result seq = peers.cpp("logseq", db.toString()).expectOk();
        assertEquals(0, seq.number("records_at_or_below_last_seq"),
                "our MANIFEST's last sequence is ahead of records in the live log: " + seq.stdout());
        assertEquals(0, seq.number("go_default_skips"), "goleveldb would drop log records: " + seq.stdout());
    }

    /** C++ dumps every log, table and MANIFEST file; returns how many. */
    private static int dumpAll(Peers peers, Path db) throws IOException {
        int n = 0;
        for (Path f : list(db)) {
            FileNames.Parsed parsed = FileNames.parse(f.getFileName().toString());
            if (parsed == null || !(parsed.type() == FileType.LOG || parsed.type() == FileType.TABLE
                    || parsed.type() == FileType.DESCRIPTOR)) {
                continue;
            }
            Peers.Result d = peers.cpp("dump", f.toString());
            String problem = dumpProblem(d);
            if (problem != null) {
                fail("C++ cannot dump " + f.getFileName() + " that we wrote: " + problem);
            }
            n++;
        }
        assertTrue(n >= 2, "expected at least a MANIFEST and a log in " + db);
        return n;
    }

    /**
     * The error a C++ dump reports, or null. {@code leveldb::DumpFile} fails only when a file
     * cannot be opened at all; what it finds inside (a table iterator's error, a damaged log
     * record, a write batch or VersionEdit that does not decode) it prints and still returns OK.
     */
    static String dumpProblem(Peers.Result d) {
        if (!d.ok()) {
            return "exit " + d.exit() + ": " + d.output();
        }
        for (String line : d.stdout().split("\n")) {
            if (line.startsWith("iterator error: ") || line.startsWith("corruption: ") || line.startsWith("  error: ")
                    || line.contains("badly formatted") || line.contains("is too small")
                    || (line.startsWith("--- offset ") && line.contains("; Corruption: "))) {
                return line;
            }
        }
        return null;
    }

    static List<Path> list(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        }
    }

    /** A copy of the database, so that each reader sees it as written. */
    static Path copy(Path db, String suffix) throws IOException {
        return Peers.copy(db, suffix);
    }

    // ------------------------------------------------------------------ file level

    /** What our readers found in a database directory. */
    static final class FileCheck {
        int manifestRecords;
        int logRecords;
        long logEntries;
        int tables;
        long tableEntries;
        int leftovers;
        int filterProbes;
        long filterBlockReads;
        final Map<Integer, Integer> tablesPerLevel = new TreeMap<>();

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d MANIFEST records, %d log records (%d entries), %d tables (%d entries)"
                    + " per level %s, %d leftover tables, %d filter probes of absent keys read %d blocks",
                    manifestRecords, logRecords, logEntries, tables, tableEntries, tablesPerLevel, leftovers,
                    filterProbes, filterBlockReads);
        }
    }

    /**
     * Reads every file of a database directory with our format readers: each MANIFEST record
     * decodes as a VersionEdit, each log record as a write batch (checksums on, no corruption
     * reported), each table the MANIFEST names opens and iterates in order with checksums
     * verified; with bloom filters, the table's filter must be found and must spare the data
     * blocks for keys that are not in it. Tables the MANIFEST does not name (left by a
     * compaction the writer abandoned at close) are tolerated if they do not parse.
     */
    static FileCheck readWithOurReaders(Path db, Recipe r, String writer) throws IOException {
        Env env = FileSystemEnv.getDefault();
        FileCheck check = new FileCheck();
        List<String> problems = new ArrayList<>();
        String current = Files.readString(db.resolve(FileNames.CURRENT), StandardCharsets.US_ASCII);
        assertTrue(current.endsWith("\n"), "CURRENT must end with a newline: " + current);
        String manifestName = current.trim();

        Map<Long, Integer> liveTables = new HashMap<>();
        Map<Long, Long> liveSizes = new HashMap<>();
        String expectedComparator = r.reverse ? ReverseBytewiseComparator.NAME : "leveldb.BytewiseComparator";
        for (Path f : list(db)) {
            String fileName = f.getFileName().toString();
            FileNames.Parsed parsed = FileNames.parse(fileName);
            if (parsed == null) {
                continue;
            }
            if (parsed.type() == FileType.DESCRIPTOR) {
                try (LogReader reader = new LogReader(env.newSequentialFile(f),
                        (bytes, reason) -> problems.add(fileName + ": " + bytes + " bytes dropped: " + reason))) {
                    for (ByteBuffer rec = reader.readRecord(); rec != null; rec = reader.readRecord()) {
                        VersionEdit edit = VersionEdit.decode(rec);
                        check.manifestRecords++;
                        if (edit.comparatorName() != null) {
                            assertEquals(expectedComparator, edit.comparatorName(), fileName);
                        }
                        if (fileName.equals(manifestName)) {
                            for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
                                liveTables.remove(d.number());
                            }
                            for (VersionEdit.NewFile n : edit.newFiles()) {
                                liveTables.put(n.file().number(), n.level());
                                liveSizes.put(n.file().number(), n.file().fileSize());
                            }
                        }
                    }
                }
            } else if (parsed.type() == FileType.LOG) {
                try (LogReader reader = new LogReader(env.newSequentialFile(f),
                        (bytes, reason) -> problems.add(fileName + ": " + bytes + " bytes dropped: " + reason))) {
                    long lastSequence = -1;
                    for (ByteBuffer rec = reader.readRecord(); rec != null; rec = reader.readRecord()) {
                        WriteBatchImpl batch = new WriteBatchImpl();
                        batch.setContents(rec);
                        long[] entries = new long[1];
                        batch.forEach(new WriteBatchImpl.Handler() {
                            @Override
                            public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
                                entries[0]++;
                            }

                            @Override
                            public void delete(byte[] data, int keyOffset, int keyLength) {
                                entries[0]++;
                            }
                        });
                        assertEquals(batch.size(), entries[0], fileName + ": batch count");
                        assertTrue(batch.sequence() > lastSequence, fileName + ": sequences must increase");
                        lastSequence = batch.sequence() + batch.size() - 1;
                        check.logRecords++;
                        check.logEntries += entries[0];
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), writer + "-written logs: " + problems);
        assertTrue(check.manifestRecords > 0, "no MANIFEST records in " + db);

        InternalKeyComparator icmp = new InternalKeyComparator(
                UserComparators.of(r.reverse ? ReverseBytewiseComparator.INSTANCE : null));
        TableOptions options = TableOptions.DEFAULTS.withComparator(icmp).withVerifyChecksums(true);
        if (r.bloomBits > 0) {
            options = options.withFilter(new BloomFilterPolicy((int) r.bloomBits),
                    FilterKeyExtractor.dropSuffix(InternalKeys.TRAILER_SIZE));
        }
        for (Path f : list(db)) {
            FileNames.Parsed parsed = FileNames.parse(f.getFileName().toString());
            if (parsed == null || parsed.type() != FileType.TABLE) {
                continue;
            }
            Integer level = liveTables.get(parsed.number());
            try {
                readTable(env, f, options, icmp, r.bloomBits > 0 && level != null, check);
            } catch (RuntimeException | AssertionError e) {
                if (level != null) {
                    throw new AssertionError(writer + "-written table " + f.getFileName() + " on level " + level
                            + " fails in our reader: " + e, e);
                }
                check.leftovers++;
                log("%s is not in the MANIFEST and does not parse (left by an abandoned compaction): %s",
                        f.getFileName(), e.getMessage());
                continue;
            }
            if (level != null) {
                assertEquals(liveSizes.get(parsed.number()), Files.size(f), f.getFileName() + ": size in the MANIFEST");
                check.tablesPerLevel.merge(level, 1, Integer::sum);
            }
        }
        Set<Long> missing = new HashSet<>(liveTables.keySet());
        for (Path f : list(db)) {
            FileNames.Parsed parsed = FileNames.parse(f.getFileName().toString());
            if (parsed != null && parsed.type() == FileType.TABLE) {
                missing.remove(parsed.number());
            }
        }
        assertTrue(missing.isEmpty(), "tables named by the MANIFEST but absent: " + missing);
        if (r.bloomBits > 0 && check.filterProbes > 0) {
            assertTrue(check.filterBlockReads <= check.filterProbes / 10 + 2, writer
                    + "-written bloom filters did not spare block reads: " + check);
        }
        return check;
    }

    private static void readTable(Env env, Path f, TableOptions options, InternalKeyComparator icmp, boolean probe,
                                  FileCheck check) throws IOException {
        try (Env.RandomAccessFile file = env.newRandomAccessFile(f)) {
            Table table = Table.open(f.getFileName().toString(), file, file.size(), options);
            List<byte[]> userKeys = new ArrayList<>();
            long entries = 0;
            try (SortedIterator it = table.iterator(TableReadOptions.VERIFY)) {
                byte[] previous = null;
                for (it.seekToFirst(); it.valid(); it.next()) {
                    byte[] key = Bytes.toArray(it.key());
                    if (previous != null && icmp.compare(previous, key) >= 0) {
                        throw new AssertionError(f.getFileName() + ": keys out of order at entry " + entries);
                    }
                    previous = key;
                    Bytes.toArray(it.value());
                    if (entries % 7 == 0) {
                        userKeys.add(InternalKeys.userKey(key));
                    }
                    entries++;
                }
            }
            check.tables++;
            check.tableEntries += entries;
            if (!probe) {
                return;
            }
            assertTrue(table.hasFilter(), f.getFileName() + " has no filter block our reader can use"
                    + (table.filterError() != null ? ": " + table.filterError() : ""));
            Set<ByteBuffer> present = new HashSet<>();
            try (SortedIterator it = table.iterator(TableReadOptions.DEFAULT)) {
                for (it.seekToFirst(); it.valid(); it.next()) {
                    present.add(ByteBuffer.wrap(InternalKeys.userKey(Bytes.toArray(it.key()))));
                }
            }
            long before = table.blockReads();
            int probes = 0;
            for (byte[] k : userKeys) {
                byte[] absent = java.util.Arrays.copyOf(k, k.length + 1);  // k + 0x00: never in the table
                if (present.contains(ByteBuffer.wrap(absent))) {
                    continue;
                }
                table.get(ByteBuffer.wrap(InternalKeys.encode(absent, InternalKeys.MAX_SEQUENCE, ValueType.VALUE)),
                        TableReadOptions.DEFAULT, (key, value) -> { });
                probes++;
            }
            check.filterProbes += probes;
            check.filterBlockReads += table.blockReads() - before;
        }
    }

    // ------------------------------------------------------------------ special cases

    /**
     * C++ LevelDB leaves MANIFESTs whose last sequence covers records still in the live log
     * (automatic flushes finishing after later writes); we must replay those records. A
     * database we write with the same recipe never has that and opens in goleveldb with
     * StrictAll.
     */
    @Test
    void cppManifestAheadOfTheLogOpensWithAllRecords(@TempDir Path tmp) throws IOException {
        Peers peers = Peers.get();
        Path recipe = peers.recipe("autoflush");
        Recipe r = Recipe.load(recipe);
        Path db = null;
        long behind = 0;
        for (int attempt = 1; attempt <= 5 && behind == 0; attempt++) {
            db = tmp.resolve("cpp" + attempt);
            peers.cpp("write", db.toString(), recipe.toString()).expectOk();
            Peers.Result seq = peers.cpp("logseq", db.toString()).expectOk();
            behind = seq.number("records_at_or_below_last_seq");
            log("autoflush C++-written, attempt %d: %s", attempt, seq.stdout().trim());
        }
        assertTrue(behind > 0, "C++ never wrote a MANIFEST ahead of its log in 5 attempts: condition not tested");
        log("ahead of the log by %d records: ours: %s", behind, RecipeRunner.verify(db, r, r.steps().size()));

        Path ours = tmp.resolve("ours");
        RecipeRunner.write(ours, r, 0, UnaryOperator.identity());
        checkManifestNotAheadOfLog(peers, ours);
        peers.go("verify", "--strict-all", copy(ours, "gos").toString(), recipe.toString()).expectOk();
        peers.go("verify", copy(ours, "gov").toString(), recipe.toString()).expectOk();
    }

    /**
     * Tables named {@code .sst}, as LevelDB before 1.14 and leveldbjni 1.8 write them: a
     * C++-written database with its tables renamed opens here, takes a second part and
     * still verifies in C++.
     */
    @Test
    void cppTablesNamedSstOpen(@TempDir Path tmp) throws IOException {
        Peers peers = Peers.get();
        Parts p = parts(peers, "levels", tmp);
        Path db = tmp.resolve("db");
        peers.cpp("write", db.toString(), p.part1File().toString()).expectOk();
        int renamed = 0;
        for (Path f : list(db)) {
            String n = f.getFileName().toString();
            if (n.endsWith(".ldb")) {
                Files.move(f, f.resolveSibling(n.replace(".ldb", ".sst")));
                renamed++;
            }
        }
        assertTrue(renamed >= 2, "expected several tables, renamed " + renamed);
        log("levels with %d .sst tables: our readers: %s; ours: %s", renamed, readWithOurReaders(db, p.full(), "cpp"),
                RecipeRunner.verify(db, p.full(), p.split()));
        RecipeRunner.write(db, p.full(), p.split(), UnaryOperator.identity());
        checkManifestNotAheadOfLog(peers, db);
        peers.cpp("verify", copy(db, "c").toString(), p.fullFile().toString()).expectOk();
    }

    /**
     * A database written with the reverse comparator cannot be opened with another one, on
     * either side, and the error names both comparators.
     */
    @Test
    void mismatchedComparatorFailsClearlyOnBothSides(@TempDir Path tmp) throws IOException {
        Peers peers = Peers.get();
        Path reverse = peers.recipe("reverse");
        Recipe r = Recipe.load(reverse);
        // The same steps under bytewise order.
        Path bytewise = tmp.resolve("bytewise.recipe");
        Files.writeString(bytewise, Files.readString(reverse, StandardCharsets.ISO_8859_1)
                .replace("option comparator=reverse", "option comparator=bytewise"), StandardCharsets.ISO_8859_1);
        Recipe b = Recipe.load(bytewise);
        assertTrue(r.reverse && !b.reverse);

        // C++ wrote reverse; we open bytewise.
        Path cppDb = tmp.resolve("cpp");
        peers.cpp("write", cppDb.toString(), reverse.toString()).expectOk();
        Exception e = assertThrows(Exception.class, () -> RecipeRunner.verify(cppDb, b, b.steps().size()));
        log("bytewise open of a C++ reverse database: %s", e);
        assertMentionsBoth(e.getMessage());
        // The same text C++ LevelDB gives in that situation.
        Peers.Result cppMismatch = peers.cpp("verify", copy(cppDb, "b").toString(), bytewise.toString());
        assertEquals(1, cppMismatch.exit(), cppMismatch.output());
        String cppText = cppMismatch.stderr().trim().replaceFirst("^.*?: (Invalid argument: )", "$1");
        assertEquals(cppText, e.getMessage());
        // ... and with the right comparator it still opens (the failed open changed nothing).
        RecipeRunner.verify(cppDb, r, r.steps().size());

        // We wrote reverse; the peers open bytewise.
        Path ourReverse = tmp.resolve("ours-reverse");
        RecipeRunner.write(ourReverse, r, 0, UnaryOperator.identity());
        Peers.Result cpp = peers.cpp("verify", copy(ourReverse, "c").toString(), bytewise.toString());
        assertEquals(1, cpp.exit(), cpp.output());
        assertTrue(cpp.output().contains("does not match existing comparator"), cpp.output());
        assertMentionsBoth(cpp.output());
        Peers.Result go = peers.go("verify", copy(ourReverse, "g").toString(), bytewise.toString());
        assertNotEquals(0, go.exit(), go.output());
        assertTrue(go.output().contains(ReverseBytewiseComparator.NAME), go.output());

        // We wrote bytewise; the peers open with the reverse comparator.
        Path ourBytewise = tmp.resolve("ours-bytewise");
        RecipeRunner.write(ourBytewise, b, 0, UnaryOperator.identity());
        cpp = peers.cpp("verify", copy(ourBytewise, "c").toString(), reverse.toString());
        assertEquals(1, cpp.exit(), cpp.output());
        assertMentionsBoth(cpp.output());
        go = peers.go("verify", "--read-only", copy(ourBytewise, "g").toString(), reverse.toString());
        assertNotEquals(0, go.exit(), go.output());
        assertTrue(go.output().contains("leveldb.BytewiseComparator"), go.output());
        log("peers refuse a comparator mismatch: C++: %s; Go: %s", cpp.output().trim(), go.output().trim());
    }

    /**
     * A database with separated values names a comparator the peers do not have: C++ LevelDB
     * and goleveldb refuse to open it, instead of reading references as values. We read it.
     */
    @Test
    void separatedValuesAreRefusedByThePeers(@TempDir Path tmp) throws IOException {
        Peers peers = Peers.get();
        Path recipe = tmp.resolve("separated.recipe");
        Files.writeString(recipe, """
                gen seq 91 500 vmin=200 vmax=3000 vkind=rand
                flush
                gen seq 92 100 start=5000 vmin=10 vmax=20
                """, StandardCharsets.ISO_8859_1);
        Recipe r = Recipe.load(recipe);
        Path db = tmp.resolve("db");
        UnaryOperator<Options> separated = o -> o.valueThreshold(100);
        RecipeRunner.write(db, r, 0, separated);
        assertTrue(list(db).stream().anyMatch(f -> f.getFileName().toString().endsWith(".vlog")), "no value file");
        try (DB opened = LevelDbFactory.factory.open(db.toFile(), RecipeRunner.options(r, false))) {
            RecipeRunner.compare(opened, RecipeRunner.Model.of(r, r.steps().size()), null, "ours: ");
        }
        String marked = SeparatedFormat.markedName("leveldb.BytewiseComparator");
        Peers.Result cpp = peers.cpp("verify", copy(db, "c").toString(), recipe.toString());
        assertEquals(1, cpp.exit(), cpp.output());
        assertTrue(cpp.output().contains(marked + " does not match existing comparator"), cpp.output());
        Peers.Result go = peers.go("verify", copy(db, "g").toString(), recipe.toString());
        assertNotEquals(0, go.exit(), go.output());
        assertTrue(go.exit() < 128, "Go peer crashed: " + go.output());
        assertTrue(go.output().contains(marked), go.output());
        log("separated values: C++: %s; Go: %s", cpp.output().trim(), go.output().trim());

        // Rewritten in plain format, the database opens everywhere with the same contents.
        try (DB opened = LevelDbFactory.factory.open(db.toFile(), RecipeRunner.options(r, false))) {
            ((DbImpl) opened).inlineSeparatedValues();
        }
        assertTrue(list(db).stream().noneMatch(f -> f.getFileName().toString().endsWith(".vlog")), "value files left");
        peers.cpp("verify", copy(db, "c2").toString(), recipe.toString()).expectOk();
        peers.go("verify", copy(db, "g2").toString(), recipe.toString()).expectOk();
    }

    private static void assertMentionsBoth(String message) {
        assertTrue(message != null && message.contains(ReverseBytewiseComparator.NAME)
                && message.contains("leveldb.BytewiseComparator"), "should name both comparators: " + message);
    }

    /**
     * Zstandard-compressed tables (compression id 2) are beyond C++ LevelDB 1.23 (Debian's has
     * no zstd) and goleveldb: both must fail cleanly, with a corruption error naming the block
     * type, not crash or return wrong data. We read our own zstd tables.
     */
    @Test
    void zstdTablesFailCleanlyInThePeers(@TempDir Path tmp) throws IOException {
        Peers peers = Peers.get();
        Path recipe = tmp.resolve("zstd.recipe");
        // Compressible values so that blocks really are compressed.
        Files.writeString(recipe, """
                option compression=none
                gen seq 81 3000 vmin=100 vmax=300 vkind=half
                flush
                gen seq 82 100 start=5000 vmin=10 vmax=20
                """, StandardCharsets.ISO_8859_1);
        Recipe r = Recipe.load(recipe);
        Path db = tmp.resolve("db");
        UnaryOperator<Options> zstd = o -> o.compressionType(CompressionType.ZSTD);
        RecipeRunner.write(db, r, 0, zstd);
        checkManifestNotAheadOfLog(peers, db);
        try (DB opened = LevelDbFactory.factory.open(db.toFile(), zstd.apply(RecipeRunner.options(r, false)))) {
            RecipeRunner.compare(opened, RecipeRunner.Model.of(r, r.steps().size()), null, "ours: ");
        }
        List<Path> tables = new ArrayList<>();
        for (Path f : list(db)) {
            FileNames.Parsed parsed = FileNames.parse(f.getFileName().toString());
            if (parsed != null && parsed.type() == FileType.TABLE) {
                tables.add(f);
                assertTrue(hasZstdBlock(f), f.getFileName() + " has no zstd-compressed block");
            }
        }
        assertTrue(!tables.isEmpty(), "no table written");

        for (Path t : tables) {
            // DumpFile reports the table's iterator error in its output and still succeeds.
            Peers.Result d = peers.cpp("dump", t.toString());
            String problem = dumpProblem(d);
            assertTrue(d.exit() < 128, "C++ dump crashed: " + d.output());
            assertTrue(problem != null && problem.toLowerCase(Locale.ROOT).contains("corruption")
                    && problem.contains("bad block type"), "C++ dump of " + t.getFileName()
                    + " should report a corruption naming the block type: " + d.output());
        }
        Peers.Result v = peers.cpp("verify", copy(db, "c").toString(), recipe.toString());
        assertCleanFailure(v, "C++ verify");
        // A read error ("Get(k): Corruption: ..."), not wrong data ("Get(k) = v, expected w").
        assertTrue(v.output().contains("): Corruption: bad block type") && !v.output().contains(") = "),
                "C++ should report corruption, not read wrong data: " + v.output());
        Peers.Result g = peers.go("verify", copy(db, "g").toString(), recipe.toString());
        assertNotEquals(0, g.exit(), g.output());
        assertTrue(g.exit() < 128, "Go peer crashed: " + g.output());
        log("zstd tables: C++ dump: %s; C++ verify: %s; Go: %s", dumpProblem(peers.cpp("dump", tables.get(0).toString())),
                v.output().trim(), g.output().trim());
    }

    private static void assertCleanFailure(Peers.Result r, String what) {
        assertNotEquals(0, r.exit(), what + " should fail: " + r.output());
        assertTrue(r.exit() < 128, what + " crashed (exit " + r.exit() + "): " + r.output());
        String out = r.output().toLowerCase(Locale.ROOT);
        assertTrue(out.contains("corruption") && out.contains("bad block type"),
                what + " should report a corruption naming the block type: " + r.output());
    }

    /** Whether the table's index block or some data block is stored with compression id 2. */
    private static boolean hasZstdBlock(Path table) throws IOException {
        byte[] file = Files.readAllBytes(table);
        // The footer's index handle: varint offset and size after the metaindex handle.
        ByteBuffer footer = ByteBuffer.wrap(file, file.length - 48, 48);
        readVarint(footer);
        readVarint(footer);
        long indexOffset = readVarint(footer);
        long indexSize = readVarint(footer);
        return file[(int) (indexOffset + indexSize)] == 2 || containsZstdFrame(file);
    }

    /** Whether the file holds a zstd frame magic number (28 b5 2f fd). */
    private static boolean containsZstdFrame(byte[] file) {
        for (int i = 0; i + 4 <= file.length; i++) {
            if ((file[i] & 0xff) == 0x28 && (file[i + 1] & 0xff) == 0xb5 && (file[i + 2] & 0xff) == 0x2f
                    && (file[i + 3] & 0xff) == 0xfd) {
                return true;
            }
        }
        return false;
    }

    private static long readVarint(ByteBuffer b) {
        long result = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int x = b.get() & 0xff;
            result |= (long) (x & 0x7f) << shift;
            if (x < 0x80) {
                return result;
            }
        }
        throw new IllegalStateException("bad varint");
    }
}
