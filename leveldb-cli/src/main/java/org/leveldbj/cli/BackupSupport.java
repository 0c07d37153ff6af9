package org.leveldbj.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Supplier;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.InvalidArgumentException;
import org.leveldbj.backup.BackupEngine;
import org.leveldbj.backup.BackupInfo;
import org.leveldbj.backup.BackupProgress;
import org.leveldbj.backup.NotABackupDirectoryException;
import org.leveldbj.env.FileSystemEnv;

/**
 * What the {@code backup} commands share: opening the backup directory, reading a backup id,
 * describing a backup, drawing progress, and the exit codes of the engine's failures.
 *
 * <ul>
 *   <li>{@link NotABackupDirectoryException}: {@link ExitCode#IO}, as a directory that holds no
 *       database is for the other commands.
 *   <li>Other {@link InvalidArgumentException}s (an unknown id, a restore target that is not
 *       empty): {@link ExitCode#USAGE}.
 *   <li>{@link CorruptionException} (a damaged stored file or meta file):
 *       {@link ExitCode#CORRUPTION}, naming the file, without the database repair hint.
 *   <li>Everything else as {@link Errors} explains it (I/O errors, a held lock: {@link ExitCode#IO}).
 * </ul>
 *
 * <p>Thread safety: stateless.
 */
final class BackupSupport {
    private BackupSupport() {
    }

    /**
     * Opens a backup directory that exists.
     *
     * @param dir the directory
     * @return the engine
     */
    static BackupEngine openExisting(Path dir) {
        return call(() -> BackupEngine.open(dir, FileSystemEnv.getDefault(), false));
    }

    /**
     * Runs an engine call, turning its failures into the tool's exit codes.
     *
     * @param call the call
     * @return what it returns
     */
    static <T> T call(Supplier<T> call) {
        try {
            return call.get();
        } catch (NotABackupDirectoryException e) {
            throw new CliFailure(ExitCode.IO, e.getMessage(), e);
        } catch (InvalidArgumentException e) {
            throw new CliFailure(ExitCode.USAGE, e.getMessage(), e);
        } catch (CorruptionException e) {
            throw new CliFailure(ExitCode.CORRUPTION, corruption(e), e);
        }
    }

    /** @return {@code corruption in FILE: REASON} */
    static String corruption(CorruptionException e) {
        return "corruption" + (e.file() == null ? "" : " in " + e.file()) + ": " + e.reason();
    }

    /**
     * Reads a backup id: a number from 1, or {@code latest} for the newest backup.
     *
     * @param engine the engine, to find the newest
     * @param id the argument
     * @return the id
     */
    static int id(BackupEngine engine, String id) {
        if (id.equalsIgnoreCase("latest")) {
            List<BackupInfo> all = call(engine::listBackups);
            if (all.isEmpty()) {
                throw new CliFailure(ExitCode.USAGE, "no backup in " + engine.directory() + " (so none is the latest)");
            }
            return all.get(all.size() - 1).id();
        }
        if (!id.matches("[1-9][0-9]{0,9}") || Long.parseLong(id) > Integer.MAX_VALUE) {
            throw new CliFailure(ExitCode.USAGE, "bad backup id '" + id + "' (a number from 1, or 'latest')");
        }
        return Integer.parseInt(id);
    }

    /** The time of a backup as ISO 8601 in UTC, to the second. */
    static String time(Instant time) {
        return time.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /**
     * A backup's description as a JSON object.
     *
     * @param info the backup
     * @return {@code {"id":…,"time":…,"sequence":…,"files":…,"bytes":…,"new_files":…,"new_bytes":…,
     *     "database":…,"library":…,"format":…}}
     */
    static Json.JsonObject json(BackupInfo info) {
        return Json.object().add("id", info.id()).add("time", time(info.time())).add("sequence", info.sequence())
                .add("files", info.fileCount()).add("bytes", info.size()).add("new_files", info.newFiles())
                .add("new_bytes", info.newBytes()).add("database", info.database())
                .add("library", info.libraryVersion()).add("format", info.formatVersion());
    }

    /**
     * A progress bar for an engine operation, started at its first report (when the total is known).
     *
     * @param command the command, for the streams and {@code --quiet}
     * @param label what is being done
     * @return the listener, and the bar to close
     */
    static Bar bar(CommandBase command, String label) {
        return new Bar(command, label);
    }

    /** A {@link BackupProgress} drawing a {@link Progress} bar in bytes. */
    static final class Bar implements BackupProgress, AutoCloseable {
        private final CommandBase command;
        private final String label;
        private Progress progress;
        private long drawn;

        Bar(CommandBase command, String label) {
            this.command = command;
            this.label = label;
        }

        @Override
        public void progress(long doneBytes, long totalBytes) {
            if (progress == null) {
                progress = Progress.start(command.io(), command.quiet(), label, totalBytes, Progress.Unit.BYTES);
            }
            progress.add(doneBytes - drawn);
            drawn = doneBytes;
        }

        @Override
        public void close() {
            if (progress != null) {
                progress.close();
            }
        }
    }

    /**
     * Checks that a backup directory argument exists before the engine refuses it, with the
     * tool's wording for a missing path.
     *
     * @param dir the directory
     * @return the directory
     */
    static Path requireExisting(Path dir) {
        if (!Files.exists(dir)) {
            throw new CliFailure(ExitCode.IO, dir + " does not exist (give a backup directory; 'leveldb backup create'"
                    + " makes one)");
        }
        return dir;
    }
}
