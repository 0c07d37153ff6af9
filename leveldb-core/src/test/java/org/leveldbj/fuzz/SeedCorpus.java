package org.leveldbj.fuzz;

import static org.leveldbj.db.LevelDbFactory.bytes;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.filename.FileNames;
import org.leveldbj.log.LogReader;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockContents;
import org.leveldbj.table.BlockHandle;
import org.leveldbj.table.BlockIterator;
import org.leveldbj.table.BlockReader;
import org.leveldbj.table.Footer;

/**
 * Writes the seed corpora of the fuzz tests (doc/fuzzing.md): the files of small databases,
 * each with the header its fuzz test expects, into the test resources where Jazzer replays them.
 *
 * <p>Usage, from the repository root, after {@code mvn test-compile}:
 * <pre>
 *   java -cp "$(cat leveldb-core/target/fuzz-classpath)" org.leveldbj.fuzz.SeedCorpus . [cpp-db-dir...]
 * </pre>
 * (see doc/fuzzing.md for the class path). It recreates the {@code engine-*} seeds from three
 * databases our engine writes (snappy with a bloom filter, zstd, no compression). Each extra
 * directory, a database another implementation wrote, adds {@code cpp-<dir name>-*} seeds.
 * Other files (regression inputs of past findings) are left alone.
 *
 * <p>Thread safety: a program; runs on one thread.
 */
public final class SeedCorpus {
    private final Path core;
    private final Path cli;

    private SeedCorpus(Path repo) {
        this.core = repo.resolve("leveldb-core/src/test/resources/org/leveldbj/fuzz");
        this.cli = repo.resolve("leveldb-cli/src/test/resources/org/leveldbj/cli/DumpFuzzTestInputs/dump");
    }

    /**
     * Writes the seeds.
     *
     * @param args the repository root, then any databases of other implementations
     * @throws IOException if a file cannot be read or written
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: SeedCorpus REPO_ROOT [OTHER_DB_DIR...]");
            System.exit(2);
        }
        SeedCorpus seeds = new SeedCorpus(Path.of(args[0]));
        Path scratch = Files.createTempDirectory("seed-corpus");
        seeds.addDatabase("engine-snappy", writeDatabase(scratch.resolve("snappy"), CompressionType.SNAPPY, true));
        seeds.addDatabase("engine-zstd", writeDatabase(scratch.resolve("zstd"), CompressionType.ZSTD, false));
        seeds.addDatabase("engine-none", writeDatabase(scratch.resolve("none"), CompressionType.NONE, true));
        for (int i = 1; i < args.length; i++) {
            Path dir = Path.of(args[i]);
            seeds.addDatabase("cpp-" + dir.getFileName(), dir);
        }
    }

    /** Writes a small database: a few tables (flushes and a compaction), then log records. */
    private static Path writeDatabase(Path dir, CompressionType compression, boolean bloom) throws IOException {
        Options options = new Options().createIfMissing(true).compressionType(compression).blockSize(1024)
                .writeBufferSize(8 << 10).filterPolicy(bloom ? FilterPolicy.bloom(10) : null);
        try (DB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
            for (int i = 0; i < 400; i++) {
                db.put(bytes(String.format("key%06d", i * 7 % 400)), bytes("value " + i + " " + "x".repeat(i % 40)));
                if (i % 50 == 0) {
                    db.delete(bytes(String.format("key%06d", i / 2)));
                }
            }
            db.compactRange(bytes("key000000"), bytes("key000200"));
            try (org.iq80.leveldb.WriteBatch batch = db.createWriteBatch()) {
                batch.put(bytes("batch-a"), bytes("1")).delete(bytes("key000003")).put(bytes("batch-b"), new byte[0]);
                db.write(batch);
            }
            db.put(bytes("last"), bytes("in the log"));
        }
        return dir;
    }

    private void addDatabase(String origin, Path dir) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        for (Path file : files) {
            String name = file.getFileName().toString();
            FileNames.Parsed parsed = FileNames.parse(name);
            if (parsed == null) {
                continue;
            }
            byte[] bytes = Files.readAllBytes(file);
            String seed = origin + "-" + name;
            switch (parsed.type()) {
                case TABLE -> addTable(seed, bytes);
                case LOG -> addLog(seed, bytes, 1, DumpKind.LOG, "writeBatch");
                case DESCRIPTOR -> {
                    addLog(seed, bytes, 3, DumpKind.MANIFEST, "versionEdit");
                    byte[] current = (name + "\n").getBytes(StandardCharsets.US_ASCII);
                    write("ManifestFuzzTest", "recover", seed, concat(new byte[] {(byte) current.length}, current, bytes));
                }
                case CURRENT -> dump(seed, DumpKind.CURRENT, bytes);
                default -> {
                }
            }
        }
    }

    /** The value of bits 0-2 of the dump seed's flags byte (DumpFuzzTest.NAMES). */
    private enum DumpKind {
        TABLE(0), LOG(2), MANIFEST(3), CURRENT(4), DETECTED(5);

        final int flags;

        DumpKind(int flags) {
            this.flags = flags;
        }
    }

    private void addTable(String seed, byte[] table) throws IOException {
        // Read checks on, the database's order, bloom filter, cache; then plain bytewise keys.
        write("TableFuzzTest", "read", seed + "-db", concat(new byte[] {0x1d}, table));
        write("TableFuzzTest", "read", seed + "-bytewise", concat(new byte[] {0x00}, table));
        dump(seed, DumpKind.TABLE, table);
        dump(seed + "-json", DumpKind.DETECTED, table);
        byte[] footer = java.util.Arrays.copyOfRange(table, table.length - Footer.ENCODED_LENGTH, table.length);
        write("BlockFuzzTest", "footer", seed, footer);
        var env = FuzzFiles.envWith("table", table, 0, table.length);
        try (var in = env.newRandomAccessFile(FuzzFiles.DIR.resolve("table"))) {
            Footer f = Footer.decode(ByteBuffer.wrap(footer), 0, footer.length);
            Block index = block(in, f.index());
            write("BlockFuzzTest", "iterate", seed + "-index", raw(in, f.index()));
            write("BlockFuzzTest", "iterate", seed + "-metaindex", raw(in, f.metaindex()));
            BlockIterator it = index.iterator(BytewiseComparator.INSTANCE);
            it.seekToFirst();
            write("BlockFuzzTest", "iterate", seed + "-data", raw(in, BlockHandle.decode(it.value())));
            BlockIterator meta = block(in, f.metaindex()).iterator(BytewiseComparator.INSTANCE);
            for (meta.seekToFirst(); meta.valid(); meta.next()) {
                write("BlockFuzzTest", "filter", seed, raw(in, BlockHandle.decode(meta.value())));
            }
        }
    }

    private static Block block(org.iq80.leveldb.Env.RandomAccessFile in, BlockHandle handle) {
        BlockContents c = BlockReader.read(in, "seed", handle, true);
        return new Block(c.data());
    }

    private static byte[] raw(org.iq80.leveldb.Env.RandomAccessFile in, BlockHandle handle) {
        return FuzzFiles.copy(BlockReader.read(in, "seed", handle, true).data());
    }

    private void addLog(String seed, byte[] log, int flags, DumpKind kind, String recordTarget) throws IOException {
        write("LogReaderFuzzTest", "read", seed, concat(new byte[] {(byte) flags, 0, 0}, log));
        write("LogReaderFuzzTest", "read", seed + "-offset", concat(new byte[] {0, 20, 0}, log));
        dump(seed, kind, log);
        var env = FuzzFiles.envWith("log", log, 0, log.length);
        try (LogReader reader = new LogReader(env.newSequentialFile(FuzzFiles.DIR.resolve("log")), null)) {
            ByteBuffer record;
            for (int i = 0; i < 3 && (record = reader.readRecord()) != null; i++) {
                write("RecordFuzzTest", recordTarget, seed + "-" + i, FuzzFiles.copy(record));
            }
        }
    }

    private void dump(String seed, DumpKind kind, byte[] bytes) throws IOException {
        Path file = cli.resolve(seed);
        Files.createDirectories(cli);
        Files.write(file, concat(new byte[] {(byte) kind.flags}, bytes));
    }

    private void write(String testClass, String method, String seed, byte[] bytes) throws IOException {
        Path dir = core.resolve(testClass + "Inputs").resolve(method);
        Files.createDirectories(dir);
        Files.write(dir.resolve(seed), bytes);
    }

    private static byte[] concat(byte[]... parts) {
        List<byte[]> list = new ArrayList<>(List.of(parts));
        int n = list.stream().mapToInt(p -> p.length).sum();
        ByteBuffer out = ByteBuffer.allocate(n);
        list.forEach(out::put);
        return out.array();
    }
}
