package org.leveldbj.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.engine.WriteBatchImpl;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.BlockHandle;
import org.leveldbj.util.Bytes;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;
import org.leveldbj.vlog.SeparatedFormat;
import org.leveldbj.vlog.ValueReference;

/**
 * Checks every byte of a database that the engine would read, without opening it: CURRENT and
 * every MANIFEST record; every block of every live table (footer, index, metaindex, filter and
 * data blocks, checksums verified), every entry decoded, keys in order (bytewise databases) and
 * each table's size and key range matching the MANIFEST; every record of every live log, its
 * write batch decoded, and a torn tail reported; every record of every value file (separated
 * values), checksums verified, and every reference of the tables and logs checked on its own to
 * name a sound record ({@link ValueFileCheck}, which also says what counts as one problem
 * there). Each problem names the file and offset; those of tables, logs and the MANIFEST are
 * printed as found, those of value files once every reference has been checked.
 *
 * <p>Thread safety: one verifier serves one run on one thread.
 */
final class Verifier {
    private static final String BYTEWISE = "leveldb.BytewiseComparator";

    private final Path dir;
    private final DumpSink out;
    private final Progress progress;
    private final List<CorruptionException> problems = new ArrayList<>();

    private int tables;
    private long blocks;
    private long entries;
    private int logs;
    private long logRecords;
    private long logEntries;
    private ValueFileCheck valueFiles;
    private Manifest manifest;

    /**
     * @param dir the database directory
     * @param out where problems and notes go, as they are found
     * @param progress advanced by the bytes read
     */
    Verifier(Path dir, DumpSink out, Progress progress) {
        this.dir = dir;
        this.out = out;
        this.progress = progress;
    }

    /** @return the problems found */
    List<CorruptionException> problems() {
        return problems;
    }

    private void problem(CorruptionException e) {
        problems.add(e);
        String where = e.file() == null ? "" : e.file() + (e.offset() == CorruptionException.UNKNOWN_OFFSET ? ""
                : " at offset " + e.offset()) + ": ";
        out.text("problem: " + where + e.reason());
        out.json(DumpSink.problemObject(e));
    }

    private void note(String text) {
        out.text("note: " + text);
        out.json(Json.object().add("kind", "note").add("note", text));
    }

    /**
     * Verifies the database, reporting problems and notes as they are found.
     *
     * @throws IOException if a file cannot be read
     */
    void run() throws IOException {
        try (ValueFileCheck check = new ValueFileCheck(dir, this::note, this::problem)) {
            valueFiles = check;
            verify();
        }
    }

    private void verify() throws IOException {
        List<DbFile> files = DbFile.list(dir);
        manifest = Manifest.read(dir, this::problem, null);
        if (manifest != null) {
            progress.add(Files.size(manifest.file));
        }
        for (DbFile f : files) {
            if (f.type() == FileType.VALUE) {
                progress.add(f.size());
                valueFiles.scan(dir.resolve(f.name()), f.number(), f.size());
            }
        }
        Set<Long> live = new HashSet<>();
        if (manifest != null) {
            boolean ordered = BYTEWISE.equals(manifest.comparator)
                    || SeparatedFormat.markedName(BYTEWISE).equals(manifest.comparator);
            for (int level = 0; level < VersionEdit.NUM_LEVELS; level++) {
                for (FileMetaData meta : manifest.levels.get(level).values()) {
                    live.add(meta.number());
                    verifyTable(Manifest.tablePath(dir, meta.number()), meta, level, ordered);
                }
            }
        }
        for (DbFile f : files) {
            if (f.type() == FileType.TABLE && !live.contains(f.number())) {
                if (manifest == null) {
                    verifyTable(dir.resolve(f.name()), null, -1, false);
                } else {
                    note(dir.resolve(f.name()) + " is not named by the MANIFEST (a leftover;"
                            + " the next writable open deletes it)");
                }
            }
        }
        List<Long> liveLogs = new ArrayList<>();
        if (manifest != null) {
            liveLogs.addAll(manifest.liveLogs(DbFile.names(files)));
        } else {
            files.stream().filter(f -> f.type() == FileType.LOG).forEach(f -> liveLogs.add(f.number()));
        }
        for (long number : liveLogs) {
            verifyLog(dir.resolve(FileNames.logFileName(number)));
        }
        valueFiles.finish();
    }

    /** @return the summary line, after {@link #run()} */
    String summary() {
        String manifestPart = manifest == null ? "no readable MANIFEST"
                : manifest.file.getFileName() + " (" + Plural.count(manifest.records, "record") + ")";
        return "verified " + dir + ": " + Plural.count(tables, "table") + " (" + Plural.count(blocks, "block") + ", "
                + Plural.count(entries, "entry") + "), " + Plural.count(logs, "log") + " (" + Plural.count(logRecords, "record") + ", "
                + Plural.count(logEntries, "entry") + "), "
                + (valueFiles.files() == 0 ? "" : Plural.count(valueFiles.files(), "value file") + " ("
                        + Plural.count(valueFiles.records(), "record") + "), ")
                + manifestPart + ": "
                + (problems.isEmpty() ? "OK" : Plural.count(problems.size(), "problem"));
    }

    /**
     * The summary as a JSON object, after {@link #run()}: {@code "kind":"summary"}, the counts
     * of the text summary, {@code "problems"} and {@code "ok"}.
     *
     * @return the object
     */
    Json.JsonObject summaryJson() {
        return Json.object().add("kind", "summary").add("database", dir.toString())
                .add("tables", tables).add("blocks", blocks).add("entries", entries)
                .add("logs", logs).add("log_records", logRecords).add("log_entries", logEntries)
                .add("value_files", valueFiles.files()).add("value_records", valueFiles.records())
                .add("manifest", manifest == null ? null : manifest.file.getFileName().toString())
                .add("manifest_records", manifest == null ? 0 : manifest.records)
                .add("problems", problems.size()).add("ok", problems.isEmpty());
    }

    private void verifyTable(Path path, FileMetaData meta, int level, boolean ordered) throws IOException {
        String name = path.toString();
        if (!Files.isRegularFile(path)) {
            problem(new CorruptionException("missing table file, named by the MANIFEST at level " + level, name,
                    CorruptionException.UNKNOWN_OFFSET));
            return;
        }
        tables++;
        long size = Files.size(path);
        if (meta != null && meta.fileSize() != size) {
            problem(new CorruptionException("table is " + Plural.count(size, "byte") + ", the MANIFEST says " + meta.fileSize(), name,
                    CorruptionException.UNKNOWN_OFFSET));
        }
        InternalKeyComparator icmp = new InternalKeyComparator(BytewiseComparator.INSTANCE);
        byte[][] first = {null};
        byte[][] last = {null};
        TableWalker.walk(path, new TableWalker.Visitor() {
            @Override
            public void block(TableWalker.BlockInfo block) {
                blocks++;
                progress.add(block.handle().size() + 5);
            }

            @Override
            public void dataEntry(BlockHandle block, byte[] key, byte[] value) {
                entries++;
                if (key.length < InternalKeys.TRAILER_SIZE) {
                    problem(new CorruptionException("bad internal key '" + OutputFormat.TEXT.render(key) + "'", name,
                            block.offset()));
                    return;
                }
                if (ordered && last[0] != null && icmp.compare(last[0], key) >= 0) {
                    problem(new CorruptionException("key " + InternalKeys.toString(key) + " is not after "
                            + InternalKeys.toString(last[0]), name, block.offset()));
                }
                if (first[0] == null) {
                    first[0] = key;
                }
                last[0] = key;
                checkReference(DumpSink.reference(key, value), key, value, name, block.offset());
            }

            @Override
            public void problem(CorruptionException e) {
                Verifier.this.problem(e);
            }
        }, true);
        if (meta != null && first[0] != null) {
            checkBound(name, "smallest", meta.smallest(), first[0]);
            checkBound(name, "largest", meta.largest(), last[0]);
        }
    }

    private void checkBound(String name, String which, byte[] recorded, byte[] actual) {
        if (!java.util.Arrays.equals(recorded, actual)) {
            problem(new CorruptionException("the MANIFEST says the " + which + " key is "
                    + InternalKeys.toString(recorded) + ", the table's is " + InternalKeys.toString(actual), name,
                    CorruptionException.UNKNOWN_OFFSET));
        }
    }

    /** Checks that a table's or log's reference names a sound record of a value file. */
    private void checkReference(ValueReference ref, byte[] key, byte[] value, String where, long offset) {
        if (ref == null) {
            if (key.length >= InternalKeys.TRAILER_SIZE && InternalKeys.typeByte(InternalKeys.trailer(key))
                    == ValueType.VALUE_REFERENCE.persistentId()) {
                problem(new CorruptionException("malformed value reference for " + InternalKeys.toString(key), where,
                        offset));
            }
            return;
        }
        valueFiles.check(ref, "'" + Bytes.escape(InternalKeys.userKey(key)) + "' @ "
                + InternalKeys.sequence(InternalKeys.trailer(key)), where, offset);
    }

    private void verifyLog(Path path) throws IOException {
        logs++;
        String name = path.toString();
        WriteBatchImpl batch = new WriteBatchImpl();
        long[] previousEnd = {0};
        LogFile.read(path, new LogFile.Visitor() {
            @Override
            public void record(long offset, long end, int fragments, ByteBuffer payload) {
                logRecords++;
                progress.add(end - previousEnd[0]);
                previousEnd[0] = end;
                try {
                    batch.setContents(payload);
                    long[] sequence = {batch.sequence()};
                    batch.forEach(new WriteBatchImpl.Handler() {
                        @Override
                        public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
                            logEntries++;
                            sequence[0]++;
                        }

                        @Override
                        public void putReference(byte[] data, int keyOffset, int keyLength, int referenceOffset,
                                                 int referenceLength) {
                            logEntries++;
                            byte[] reference = Arrays.copyOfRange(data, referenceOffset, referenceOffset + referenceLength);
                            byte[] key = InternalKeys.encode(Arrays.copyOfRange(data, keyOffset, keyOffset + keyLength),
                                    sequence[0]++, ValueType.VALUE_REFERENCE);
                            checkReference(DumpSink.reference(key, reference), key, reference, name, offset);
                        }

                        @Override
                        public void delete(byte[] data, int keyOffset, int keyLength) {
                            logEntries++;
                            sequence[0]++;
                        }
                    });
                } catch (CorruptionException e) {
                    problem(new CorruptionException(e.reason(), name, offset));
                }
            }

            @Override
            public void problem(CorruptionException e) {
                Verifier.this.problem(e);
            }
        });
    }
}
