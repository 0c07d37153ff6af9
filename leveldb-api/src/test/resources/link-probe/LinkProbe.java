package probe;

import java.io.IOException;
import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBComparator;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.Logger;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;

/**
 * An application written against leveldb-api 0.12. The test compiles it against the 0.12 jar
 * only (Java 8 language level) and runs it on this project's classes. Every check throws
 * AssertionError when it fails; get() returns the number of checks that passed.
 */
public final class LinkProbe implements Supplier<String> {
    private int checks;

    @Override
    public String get() {
        optionsDefaults();
        optionsSetters();
        compressionTypes();
        ranges();
        readAndWriteOptions();
        comparator();
        logger();
        writeBatch();
        exceptions();
        factory();
        return "passed " + checks + " checks";
    }

    /** A 0.12-era batch implementation, for the caller to inspect. */
    public static WriteBatch newBatch() {
        return new RecordingBatch();
    }

    private void optionsDefaults() {
        Options o = new Options();
        check(o.createIfMissing(), "createIfMissing default");
        check(!o.errorIfExists(), "errorIfExists default");
        check(o.writeBufferSize() == 4 << 20, "writeBufferSize default");
        check(o.maxOpenFiles() == 1000, "maxOpenFiles default");
        check(o.blockRestartInterval() == 16, "blockRestartInterval default");
        check(o.blockSize() == 4096, "blockSize default");
        check(o.compressionType() == CompressionType.SNAPPY, "compressionType default");
        check(o.verifyChecksums(), "verifyChecksums default");
        check(!o.paranoidChecks(), "paranoidChecks default");
        check(o.comparator() == null, "comparator default");
        check(o.logger() == null, "logger default");
        check(o.cacheSize() == 0L, "cacheSize default");
    }

    private void optionsSetters() {
        Options o = new Options();
        Options same = o.createIfMissing(false).errorIfExists(true).writeBufferSize(1 << 20)
                .maxOpenFiles(500).blockRestartInterval(8).blockSize(16 * 1024)
                .compressionType(CompressionType.NONE).verifyChecksums(false)
                .paranoidChecks(true).cacheSize(64L << 20).comparator(null).logger(null);
        check(same == o, "setters return this");
        check(!o.createIfMissing() && o.errorIfExists(), "boolean setters");
        check(o.writeBufferSize() == 1 << 20 && o.maxOpenFiles() == 500, "int setters");
        check(o.blockRestartInterval() == 8 && o.blockSize() == 16 * 1024, "block setters");
        check(o.compressionType() == CompressionType.NONE, "compressionType setter");
        check(!o.verifyChecksums() && o.paranoidChecks(), "check setters");
        check(o.cacheSize() == 64L << 20, "cacheSize setter");
        try {
            o.compressionType(null);
            throw new AssertionError("compressionType(null) accepted");
        } catch (IllegalArgumentException expected) {
            check(o.compressionType() == CompressionType.NONE, "rejected value not stored");
        }
    }

    private void compressionTypes() {
        check(CompressionType.NONE.persistentId() == 0, "NONE id");
        check(CompressionType.SNAPPY.persistentId() == 1, "SNAPPY id");
        check(CompressionType.getCompressionTypeByPersistentId(0) == CompressionType.NONE,
                "lookup 0");
        check(CompressionType.getCompressionTypeByPersistentId(1) == CompressionType.SNAPPY,
                "lookup 1");
        check(CompressionType.valueOf("SNAPPY") == CompressionType.SNAPPY, "valueOf");
        check(Arrays.asList(CompressionType.values()).containsAll(
                Arrays.asList(CompressionType.NONE, CompressionType.SNAPPY)), "values");
        try {
            CompressionType.getCompressionTypeByPersistentId(99);
            throw new AssertionError("unknown id accepted");
        } catch (IllegalArgumentException expected) {
            checks++;
        }
        // A switch compiles to a lookup by ordinal and name; it must still work.
        for (CompressionType type : new CompressionType[] {CompressionType.NONE,
                CompressionType.SNAPPY}) {
            switch (type) {
                case NONE:
                    check(type.persistentId() == 0, "switch NONE");
                    break;
                case SNAPPY:
                    check(type.persistentId() == 1, "switch SNAPPY");
                    break;
                default:
                    throw new AssertionError("switch fell through for " + type);
            }
        }
    }

    private void ranges() {
        byte[] start = {1};
        byte[] limit = {2};
        Range range = new Range(start, limit);
        check(range.start() == start && range.limit() == limit, "range keys");
        try {
            new Range(null, limit);
            throw new AssertionError("null start accepted");
        } catch (IllegalArgumentException expected) {
            checks++;
        }
        try {
            new Range(start, null);
            throw new AssertionError("null limit accepted");
        } catch (IllegalArgumentException expected) {
            checks++;
        }
    }

    private void readAndWriteOptions() {
        ReadOptions read = new ReadOptions();
        check(read.fillCache() && !read.verifyChecksums() && read.snapshot() == null,
                "read defaults");
        Snapshot snapshot = new Snapshot() {
            @Override
            public void close() {
            }
        };
        check(read.fillCache(false).verifyChecksums(true).snapshot(snapshot) == read,
                "read setters chain");
        check(!read.fillCache() && read.verifyChecksums() && read.snapshot() == snapshot,
                "read setters");
        WriteOptions write = new WriteOptions();
        check(!write.sync() && !write.snapshot(), "write defaults");
        check(write.sync(true).snapshot(true) == write, "write setters chain");
        check(write.sync() && write.snapshot(), "write setters");
    }

    private void comparator() {
        DBComparator reverse = new ReverseComparator();
        Options o = new Options().comparator(reverse);
        check(o.comparator() == reverse, "comparator setter");
        check(reverse.name().equals("probe.Reverse"), "comparator name");
        TreeMap<byte[], String> map = new TreeMap<>(reverse);
        map.put(new byte[] {1}, "one");
        map.put(new byte[] {3}, "three");
        map.put(new byte[] {2}, "two");
        check(new ArrayList<>(map.values()).equals(Arrays.asList("three", "two", "one")),
                "comparator orders a map");
        check(reverse.findShortSuccessor(new byte[] {5})[0] == 5, "findShortSuccessor");
    }

    private void logger() {
        final List<String> lines = new ArrayList<>();
        Logger logger = new Logger() {
            @Override
            public void log(String message) {
                lines.add(message);
            }
        };
        Options o = new Options().logger(logger);
        o.logger().log("hello");
        check(lines.equals(Arrays.asList("hello")), "logger receives messages");
    }

    private void writeBatch() {
        RecordingBatch batch = new RecordingBatch();
        WriteBatch asInterface = batch;
        check(asInterface.put(new byte[] {1}, new byte[] {2}).delete(new byte[] {1}) == batch,
                "batch chain");
        check(batch.operations.equals(Arrays.asList("put 1", "delete 1")), "batch records");
        try {
            asInterface.close();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        check(batch.closed, "batch closed");
    }

    private void exceptions() {
        IOException cause = new IOException("disk");
        check(new DBException().getMessage() == null, "DBException()");
        check(new DBException("m").getMessage().equals("m"), "DBException(String)");
        DBException both = new DBException("m", cause);
        check(both.getMessage().equals("m") && both.getCause() == cause,
                "DBException(String, Throwable)");
        check(new DBException(cause).getCause() == cause, "DBException(Throwable)");
        try {
            throw new DBException("unchecked");
        } catch (RuntimeException e) {
            check(e instanceof DBException, "DBException is unchecked");
        }
    }

    private void factory() {
        DBFactory factory = new DBFactory() {
            @Override
            public DB open(File path, Options options) throws IOException {
                throw new IOException("no engine in " + path);
            }

            @Override
            public void destroy(File path, Options options) {
            }

            @Override
            public void repair(File path, Options options) {
            }
        };
        try {
            factory.open(new File("missing"), new Options());
            throw new AssertionError("open succeeded");
        } catch (IOException expected) {
            check(expected.getMessage().startsWith("no engine"), "factory open");
        }
    }

    private void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError("check failed: " + what);
        }
        checks++;
    }

    /** Orders keys by descending unsigned bytes. */
    private static final class ReverseComparator implements DBComparator {
        @Override
        public int compare(byte[] a, byte[] b) {
            int n = Math.min(a.length, b.length);
            for (int i = 0; i < n; i++) {
                int diff = (b[i] & 0xff) - (a[i] & 0xff);
                if (diff != 0) {
                    return diff;
                }
            }
            return b.length - a.length;
        }

        @Override
        public String name() {
            return "probe.Reverse";
        }

        @Override
        public byte[] findShortestSeparator(byte[] start, byte[] limit) {
            return start;
        }

        @Override
        public byte[] findShortSuccessor(byte[] key) {
            return key;
        }
    }

    /** A batch that only records what it is asked to do. */
    private static final class RecordingBatch implements WriteBatch {
        final List<String> operations = new ArrayList<>();
        boolean closed;

        @Override
        public WriteBatch put(byte[] key, byte[] value) {
            operations.add("put " + key[0]);
            return this;
        }

        @Override
        public WriteBatch delete(byte[] key) {
            operations.add("delete " + key[0]);
            return this;
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Compiles only while DB keeps its generic supertype, Iterable of byte-array entries. */
    static Iterable<Map.Entry<byte[], byte[]>> entries(DB db) {
        return db;
    }
}
