package org.leveldbj.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.filename.FileNames;
import org.leveldbj.vlog.ValueFileScanner;
import org.leveldbj.vlog.ValueFiles;
import org.leveldbj.vlog.ValueReference;

/**
 * The value-file part of {@code verify}: reads every value file past its damage
 * ({@link ValueFileScanner}), checks each reference of the tables and logs on its own, and
 * reports each damage once.
 *
 * <p>What counts as one problem:
 * <ul>
 *   <li>a damaged stretch of a value file: a damaged record, or damaged records with nothing
 *       sound between them, up to the next sound record;
 *   <li>a torn tail (the last record cut short by the end of the file), or a file that ends
 *       before records that references name;
 *   <li>a file that does not start as a value file;
 *   <li>a missing value file that references name.
 * </ul>
 * A reference into one of these is not a problem of its own: the problem says how many
 * references it breaks, and a note under it names each broken entry (the first
 * {@value #NOTES_PER_PROBLEM}), so one flipped byte is one problem, however many entries refer to
 * the record. A reference to a sound record is never reported: one that names no record the
 * scan read (as when the file's header is damaged) is read on its own, checksum verified. A
 * reference that breaks outside every such stretch (it names no record's start, or another size)
 * is a problem of its own.
 *
 * <p>Order: the problems of value files are printed by {@link #finish()}, once every reference
 * has been checked, in file number and offset order.
 *
 * <p>Thread safety: confined to one thread; used for one run, then closed.
 */
final class ValueFileCheck implements AutoCloseable {
    /** How many broken entries a problem lists, at most. */
    static final int NOTES_PER_PROBLEM = 10;

    private final Path dir;
    private final Consumer<String> notes;
    private final Consumer<CorruptionException> problems;
    /** Reads the references whose record the scan did not read. */
    private final ValueFiles values;
    private final Map<Long, ScannedFile> scanned = new HashMap<>();
    /** Missing value files that references name, by number. */
    private final Map<Long, Damage> missing = new HashMap<>();
    private long records;

    /** A value file as the scan found it. */
    private static final class ScannedFile {
        final long size;
        /** The sound records, by offset. */
        final Map<Long, ValueReference> records = new HashMap<>();
        /** The damage, by the offset it starts at. */
        final TreeMap<Long, Damage> damage = new TreeMap<>();

        ScannedFile(long size) {
            this.size = size;
        }

        /** The damage the bytes of a reference's record overlap, if any. */
        Damage overlapping(ValueReference ref) {
            Map.Entry<Long, Damage> before = damage.floorEntry(ref.offset());
            if (before != null && before.getValue().end > ref.offset()) {
                return before.getValue();
            }
            Map.Entry<Long, Damage> after = damage.higherEntry(ref.offset());
            return after != null && after.getKey() < ref.end() ? after.getValue() : null;
        }
    }

    /** One problem: where and what, the stretch of file it covers, and the entries it breaks. */
    private static final class Damage {
        final CorruptionException found;
        /** Just past the damaged bytes; {@link Long#MAX_VALUE} when they reach the end of the file. */
        final long end;
        final List<String> broken = new ArrayList<>();
        long references;

        Damage(CorruptionException found, long end) {
            this.found = found;
            this.end = end;
        }

        void breaks(String entry) {
            references++;
            if (broken.size() < NOTES_PER_PROBLEM) {
                broken.add(entry);
            }
        }
    }

    /**
     * @param dir the database directory
     * @param notes receives each note (and prints it): an entry a problem breaks
     * @param problems receives each problem (and prints it)
     */
    ValueFileCheck(Path dir, Consumer<String> notes, Consumer<CorruptionException> problems) {
        this.dir = dir;
        this.notes = notes;
        this.problems = problems;
        this.values = new ValueFiles(FileSystemEnv.getDefault(), dir);
    }

    /** @return how many value files were scanned */
    int files() {
        return scanned.size();
    }

    /** @return how many sound records the scans read */
    long records() {
        return records;
    }

    /**
     * Reads every record of a value file, checksums verified, past damage.
     *
     * @param path the file
     * @param number its number
     * @param size its size
     * @throws IOException if it cannot be opened
     */
    void scan(Path path, long number, long size) throws IOException {
        ScannedFile file = new ScannedFile(size);
        scanned.put(number, file);
        ValueFileScanner scan;
        try {
            scan = new ValueFileScanner(FileSystemEnv.getDefault().newRandomAccessFile(path), path.toString());
        } catch (CorruptionException e) {
            file.damage.put(0L, new Damage(e, Long.MAX_VALUE));
            return;
        }
        try (scan) {
            while (true) {
                try {
                    if (!scan.next()) {
                        return;
                    }
                    records++;
                    file.records.put(scan.offset(), scan.reference(number));
                } catch (CorruptionException e) {
                    long end = scan.damageEnd();
                    file.damage.put(e.offset(), new Damage(describe(e, scan, size), end == size ? Long.MAX_VALUE : end));
                }
            }
        }
    }

    /**
     * What a failure of {@link ValueFileScanner#next()} reports, with how far the damage reaches.
     *
     * @param e the failure
     * @param scan the scanner that threw it
     * @param size the file's size
     * @return the failure's file and offset, its reason extended
     */
    static CorruptionException describe(CorruptionException e, ValueFileScanner scan, long size) {
        long end = scan.damageEnd();
        String reason;
        if (scan.torn()) {
            reason = "torn tail: " + e.reason();
        } else if (end == size) {
            reason = e.reason() + "; no sound record in the " + Plural.count(size - e.offset(), "byte")
                    + " from there to the end of the file";
        } else {
            reason = e.reason() + "; " + Plural.count(end - e.offset(), "byte")
                    + " up to the next sound record";
        }
        return new CorruptionException(reason, e.file(), e.offset());
    }

    /**
     * Checks one reference of a table or log.
     *
     * @param ref the reference
     * @param entry the entry holding it, as printed
     * @param where the table or log
     * @param offset the offset of its block or record there
     */
    void check(ValueReference ref, String entry, String where, long offset) {
        String name = FileNames.valueFileName(ref.fileNumber());
        String described = where + " at offset " + offset + ": " + entry + " refers to " + name + " offset "
                + ref.offset() + " (" + Plural.count(ref.recordSize(), "byte") + ")";
        ScannedFile file = scanned.get(ref.fileNumber());
        if (file == null) {
            missing.computeIfAbsent(ref.fileNumber(), n -> new Damage(new CorruptionException("missing value file",
                    dir.resolve(name).toString(), CorruptionException.UNKNOWN_OFFSET), Long.MAX_VALUE))
                    .breaks(described);
            return;
        }
        if (ref.equals(file.records.get(ref.offset()))) {
            return;
        }
        String failure = null;
        if (ref.end() <= file.size) {
            try {
                values.read(ref);
                return; // a sound record the scan did not read
            } catch (CorruptionException e) {
                failure = e.reason();
            } catch (DBException e) {
                failure = e.getMessage();
            }
        }
        Damage damage = file.overlapping(ref);
        if (damage == null && ref.end() > file.size) {
            damage = new Damage(new CorruptionException("the file ends before records that references name",
                    dir.resolve(name).toString(), file.size), Long.MAX_VALUE);
            file.damage.put(file.size, damage);
        }
        if (damage != null) {
            damage.breaks(described);
            return;
        }
        problems.accept(new CorruptionException(entry + " refers to " + name + " offset " + ref.offset() + " ("
                + Plural.count(ref.recordSize(), "byte") + "), where no sound record of that size starts: " + failure,
                where, offset));
    }

    /** Reports the damage found, each with the references it breaks, in file and offset order. */
    void finish() {
        TreeSet<Long> numbers = new TreeSet<>(scanned.keySet());
        numbers.addAll(missing.keySet());
        for (long number : numbers) {
            List<Damage> found = new ArrayList<>();
            if (missing.containsKey(number)) {
                found.add(missing.get(number));
            } else {
                found.addAll(scanned.get(number).damage.values());
            }
            for (Damage d : found) {
                CorruptionException e = d.found;
                String breaks = d.references == 0 ? "breaks no reference"
                        : "breaks " + Plural.count(d.references, "reference");
                problems.accept(new CorruptionException(e.reason() + "; " + breaks, e.file(), e.offset()));
                for (String entry : d.broken) {
                    notes.accept(entry);
                }
                if (d.references > d.broken.size()) {
                    notes.accept("and " + Plural.count(d.references - d.broken.size(), "more reference"));
                }
            }
        }
    }

    @Override
    public void close() {
        values.close();
    }
}
