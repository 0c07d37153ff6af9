package org.leveldbj.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.TableFileSuffix;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;

/**
 * What a database's MANIFEST says, read without opening the database: the comparator's name,
 * the counters, and the live table files per level (every edit applied in order). Used by
 * {@code stats} and {@code verify}, and to find out whether a database's tables carry bloom
 * filters.
 *
 * <p>Damage is handed to a problem consumer; reading goes on past a damaged record, so the state
 * may then be incomplete.
 *
 * <p>Thread safety: built by one thread, then read-only.
 */
final class Manifest {
    /** The MANIFEST file, as CURRENT names it. */
    final Path file;
    /** How many records it holds. */
    int records;
    /** The comparator's name, or {@code null} when no record names one. */
    String comparator;
    Long logNumber;
    Long prevLogNumber;
    Long nextFileNumber;
    Long lastSequence;
    /** Live tables per level, by file number. */
    final List<Map<Long, FileMetaData>> levels = new ArrayList<>();

    private Manifest(Path file) {
        this.file = file;
        for (int i = 0; i < VersionEdit.NUM_LEVELS; i++) {
            levels.add(new TreeMap<>());
        }
    }

    /**
     * Reads the MANIFEST that CURRENT names.
     *
     * @param dir the database directory
     * @param problems receives damage: of CURRENT (then {@code null} is returned), of MANIFEST
     *     records, and of edits that cannot be applied
     * @param edits receives each decoded edit with the offset of its record, or {@code null}
     * @return the state, or {@code null} when CURRENT is missing, damaged or names no file
     * @throws IOException if a file cannot be read
     */
    static Manifest read(Path dir, Consumer<CorruptionException> problems, EditListener edits) throws IOException {
        String name = readCurrent(dir, problems);
        if (name == null) {
            return null;
        }
        Path path = dir.resolve(name);
        if (!Files.isRegularFile(path)) {
            problems.accept(new CorruptionException("CURRENT points to a non-existent file", path.toString(),
                    CorruptionException.UNKNOWN_OFFSET));
            return null;
        }
        Manifest m = new Manifest(path);
        LogFile.read(path, new LogFile.Visitor() {
            @Override
            public void record(long offset, long end, int fragments, java.nio.ByteBuffer payload) {
                m.records++;
                VersionEdit edit;
                try {
                    edit = VersionEdit.decode(payload);
                } catch (CorruptionException e) {
                    problems.accept(new CorruptionException(e.reason(), path.toString(), offset));
                    return;
                }
                if (edits != null) {
                    edits.edit(offset, end, fragments, edit);
                }
                m.apply(edit, offset, problems);
            }

            @Override
            public void problem(CorruptionException e) {
                problems.accept(e);
            }
        });
        return m;
    }

    /** Receives each decoded edit of a MANIFEST. */
    @FunctionalInterface
    interface EditListener {
        /**
         * An edit.
         *
         * @param offset the file offset of its record
         * @param end the file offset just past its record
         * @param fragments how many physical records held it
         * @param edit the edit
         */
        void edit(long offset, long end, int fragments, VersionEdit edit);
    }

    private void apply(VersionEdit edit, long offset, Consumer<CorruptionException> problems) {
        if (edit.comparatorName() != null) {
            comparator = edit.comparatorName();
        }
        logNumber = edit.logNumber() != null ? edit.logNumber() : logNumber;
        prevLogNumber = edit.prevLogNumber() != null ? edit.prevLogNumber() : prevLogNumber;
        nextFileNumber = edit.nextFileNumber() != null ? edit.nextFileNumber() : nextFileNumber;
        lastSequence = edit.lastSequence() != null ? edit.lastSequence() : lastSequence;
        for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
            if (levels.get(d.level()).remove(d.number()) == null) {
                problems.accept(new CorruptionException("edit deletes file " + d.number() + " at level " + d.level()
                        + ", which is not there", file.toString(), offset));
            }
        }
        for (VersionEdit.NewFile f : edit.newFiles()) {
            levels.get(f.level()).put(f.file().number(), f.file());
        }
    }

    /** Reads CURRENT: the MANIFEST's name, or {@code null} after reporting what is wrong. */
    private static String readCurrent(Path dir, Consumer<CorruptionException> problems) throws IOException {
        Path current = dir.resolve(FileNames.CURRENT);
        if (!Files.isRegularFile(current)) {
            problems.accept(new CorruptionException("no CURRENT file", current.toString(), CorruptionException.UNKNOWN_OFFSET));
            return null;
        }
        String text = new String(Files.readAllBytes(current), StandardCharsets.UTF_8);
        if (text.isEmpty() || !text.endsWith("\n")) {
            problems.accept(new CorruptionException("CURRENT file does not end with newline", current.toString(),
                    CorruptionException.UNKNOWN_OFFSET));
            return null;
        }
        String name = text.substring(0, text.length() - 1);
        FileNames.Parsed parsed = FileNames.parse(name);
        if (parsed == null || parsed.type() != FileType.DESCRIPTOR) {
            problems.accept(new CorruptionException("CURRENT names no MANIFEST: '" + name + "'", current.toString(),
                    CorruptionException.UNKNOWN_OFFSET));
            return null;
        }
        return name;
    }

    /**
     * The path of a live table: {@code NNNNNN.ldb} or {@code NNNNNN.sst}, whichever exists; when
     * neither does, the name the database gives its new tables ({@link FileNames#writesSst}).
     *
     * @param dir the database directory
     * @param number the file number
     * @return the path
     */
    static Path tablePath(Path dir, long number) {
        Path ldb = dir.resolve(FileNames.tableFileName(number));
        Path sst = dir.resolve(FileNames.sstTableFileName(number));
        if (Files.exists(ldb)) {
            return ldb;
        }
        if (Files.exists(sst)) {
            return sst;
        }
        try {
            return FileNames.writesSst(FileSystemEnv.getDefault(), dir, TableFileSuffix.AUTO) ? sst : ldb;
        } catch (IOException e) {
            return ldb;
        }
    }

    /**
     * The numbers of the logs a database replays when it opens: those numbered at or after the
     * MANIFEST's log number, and its previous log.
     *
     * @param children the names in the database directory
     * @return the numbers, in order
     */
    List<Long> liveLogs(List<String> children) {
        List<Long> logs = new ArrayList<>();
        long log = logNumber == null ? 0 : logNumber;
        long prev = prevLogNumber == null ? 0 : prevLogNumber;
        for (String child : children) {
            FileNames.Parsed p = FileNames.parse(child);
            if (p != null && p.type() == FileType.LOG && (p.number() >= log || p.number() == prev)) {
                logs.add(p.number());
            }
        }
        Collections.sort(logs);
        return logs;
    }

    /** @return every live table, level by level */
    List<FileMetaData> tables() {
        List<FileMetaData> out = new ArrayList<>();
        levels.forEach(level -> out.addAll(level.values()));
        return out;
    }

    /**
     * Tells whether a database's tables carry C++ LevelDB's bloom filters (looking at its first
     * live table).
     *
     * @param dir the database directory
     * @return {@code false} also when the database or table cannot be read
     */
    static boolean tablesHaveBloomFilters(Path dir) {
        try {
            Manifest m = read(dir, e -> { }, null);
            if (m == null) {
                return false;
            }
            for (FileMetaData f : m.tables()) {
                return TableWalker.metaBlockNames(tablePath(dir, f.number())).contains(TableWalker.BLOOM_FILTER_BLOCK);
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
