package org.leveldbj.backup;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.Env;

/**
 * Checks a backup's stored files against its meta file: each must exist, have the size and the
 * CRC32C the meta file gives.
 *
 * <p>Thread safety: stateless.
 */
final class BackupVerification {
    private BackupVerification() {
    }

    /**
     * Reads every file of a backup.
     *
     * @param directory the backup directory
     * @param meta the backup
     * @param progress told of the bytes read
     * @throws CorruptionException for the first file that is missing or differs, with one
     *     suppressed {@code CorruptionException} for each further one
     * @throws IOException if a file cannot be read
     */
    static void verify(BackupDirectory directory, BackupMeta meta, BackupProgress progress) throws IOException {
        Env env = directory.env();
        Copier reader = new Copier(progress, meta.size());
        List<CorruptionException> problems = new ArrayList<>();
        for (BackupMeta.StoredFile f : meta.files()) {
            Path source = directory.resolve(f);
            if (!env.fileExists(source)) {
                problems.add(missing(meta, source));
                continue;
            }
            try {
                check(meta, f, source, reader.read(env, source), true);
            } catch (CorruptionException e) {
                problems.add(e);
            }
        }
        if (!problems.isEmpty()) {
            CorruptionException first = problems.get(0);
            for (CorruptionException more : problems.subList(1, problems.size())) {
                first.addSuppressed(more);
            }
            throw first;
        }
    }

    /**
     * Compares what was read of a stored file with what the meta file says.
     *
     * @param meta the backup
     * @param f the file as the meta file lists it
     * @param source where it is stored
     * @param read what was read of it
     * @param whole whether all of it was read (a restore reads one byte more than the meta file
     *     says, no further)
     * @throws CorruptionException naming the file and what differs
     */
    static void check(BackupMeta meta, BackupMeta.StoredFile f, Path source, Copier.Result read, boolean whole) {
        if (read.bytes() != f.size()) {
            throw new CorruptionException("backup " + meta.id() + ": size mismatch (its meta file says " + f.size()
                    + " bytes, the file has " + (read.bytes() > f.size() && !whole ? "more" : Long.toString(read.bytes())) + ")",
                    source.toString(), CorruptionException.UNKNOWN_OFFSET);
        }
        if (read.crc() != f.crc()) {
            throw new CorruptionException("backup " + meta.id() + ": checksum mismatch (its meta file says crc32c "
                    + BackupMeta.hex(f.crc()) + ", the bytes give " + BackupMeta.hex(read.crc()) + ")",
                    source.toString(), CorruptionException.UNKNOWN_OFFSET);
        }
    }

    /** @return the report of a file a backup lists that is not there */
    static CorruptionException missing(BackupMeta meta, Path source) {
        return new CorruptionException("backup " + meta.id() + ": missing file", source.toString(),
                CorruptionException.UNKNOWN_OFFSET);
    }
}
