package org.leveldbj.stress;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;

/**
 * The checkpoints the stress threads make of the live database, and what each must hold.
 *
 * <p>A stress thread writes only its own keys, so when it makes a checkpoint itself no write of
 * its keys is in flight: the checkpoint must hold exactly its model for them (writes without
 * the log included, since a checkpoint copies the memtable). Before the call the thread writes
 * that model to {@code DIR/checkpoints/NAME.expected} (a temporary file renamed into place); the
 * checkpoint goes to {@code DIR/checkpoints/NAME}. So after a kill, every directory under its
 * final name has its expectation, and a checkpoint killed midway may leave only
 * {@code NAME.checkpoint-tmp}, which must never open as {@code NAME}.
 *
 * <p>A checkpoint checked by its thread is renamed to {@code NAME.deleting} and then deleted.
 * {@link #verifyAll} (the driver, between rounds) opens every finished checkpoint, compares
 * the thread's keys with the expectation, and deletes every checkpoint and leftover, so the
 * directory never grows across rounds.
 *
 * <p>Byte layout of an expectation: US-ASCII lines {@code thread T}, then one line per key of
 * the thread, the number of the operation whose value it holds, or {@code -1} for absent.
 *
 * <p>Thread safety: static methods; each stress thread uses its own names.
 */
final class Checkpoints {
    /** The suffix of the file holding a checkpoint's expected contents. */
    static final String EXPECTED = ".expected";
    /** The suffix a checkpoint is renamed to before it is deleted. */
    static final String DELETING = ".deleting";

    private Checkpoints() {
    }

    static Path dir(Path work) {
        return work.resolve("checkpoints");
    }

    /**
     * Records what a checkpoint about to be made must hold, durably, before it is made.
     *
     * @param work the crash test's directory
     * @param name the checkpoint's name
     * @param thread the stress thread making it
     * @param model the thread's model now
     * @return the directory the checkpoint goes to
     * @throws IOException if the expectation cannot be written
     */
    static Path expect(Path work, String name, int thread, long[] model) throws IOException {
        Path dir = dir(work);
        Files.createDirectories(dir);
        writeModel(dir.resolve(name + EXPECTED), thread, model);
        return dir.resolve(name);
    }

    /**
     * Writes a thread's model durably (a synced temporary file renamed into place).
     *
     * @param file the model's file
     * @param thread the thread
     * @param model the operation each key holds
     * @throws IOException if it cannot be written
     */
    static void writeModel(Path file, int thread, long[] model) throws IOException {
        StringBuilder text = new StringBuilder("thread ").append(thread).append('\n');
        for (long op : model) {
            text.append(op).append('\n');
        }
        Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(temp, text, StandardCharsets.US_ASCII);
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
    }

    /**
     * Reads a model {@link #writeModel} wrote.
     *
     * @param file the model's file
     * @return its thread (first) and the model (then), as {@link Model}
     * @throws IOException if it cannot be read
     */
    static Model readModel(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        int thread = Integer.parseInt(lines.get(0).substring("thread ".length()));
        return new Model(thread, lines.subList(1, lines.size()).stream().mapToLong(Long::parseLong).toArray());
    }

    /** A thread and the operation each of its keys holds. */
    record Model(int thread, long[] ops) {
    }

    /**
     * Opens a checkpoint and compares a thread's keys with what it must hold.
     *
     * @param checkpoint the checkpoint's directory
     * @param options the options to open it with
     * @param thread the thread whose keys are compared
     * @param expected the model of the thread's keys
     * @return the mismatches, empty when it holds exactly the model
     */
    static List<String> check(Path checkpoint, Options options, int thread, long[] expected) {
        List<String> failures = new ArrayList<>();
        try (DB db = LevelDbFactory.factory.open(checkpoint.toFile(), new Options(options).createIfMissing(false))) {
            for (int i = 0; i < expected.length; i++) {
                byte[] value = db.get(Keys.key(thread, i));
                long found = Values.state(thread, i, value);
                if (found != expected[i]) {
                    failures.add("checkpoint " + checkpoint.getFileName() + ": " + Keys.show(Keys.key(thread, i))
                            + " expected " + expected[i] + ", found " + found);
                    if (failures.size() >= 5) {
                        break;
                    }
                }
            }
        } catch (RuntimeException | IOException e) {
            failures.add("checkpoint " + checkpoint.getFileName() + " does not open: " + e);
        }
        return failures;
    }

    /**
     * Checks every finished checkpoint against its expectation, then deletes them all and the
     * leftovers of unfinished ones.
     *
     * @param work the crash test's directory
     * @param options the options to open checkpoints with
     * @return how many were checked, and the failures
     * @throws IOException if the directory cannot be read or cleaned
     */
    static Result verifyAll(Path work, Options options) throws IOException {
        Path dir = dir(work);
        List<String> failures = new ArrayList<>();
        int checked = 0;
        if (!Files.isDirectory(dir)) {
            return new Result(0, failures);
        }
        List<Path> entries;
        try (Stream<Path> s = Files.list(dir)) {
            entries = s.sorted().toList();
        }
        for (Path p : entries) {
            String name = p.getFileName().toString();
            if (Files.isDirectory(p) && !name.endsWith(".checkpoint-tmp") && !name.endsWith(DELETING)) {
                Path expectation = dir.resolve(name + EXPECTED);
                if (!Files.exists(expectation)) {
                    failures.add("checkpoint " + name + " has no expectation (made before it was recorded?)");
                    continue;
                }
                Model model = readModel(expectation);
                failures.addAll(check(p, options, model.thread(), model.ops()));
                checked++;
            }
        }
        deleteRecursively(dir);
        return new Result(checked, failures);
    }

    /** What {@link #verifyAll} found. */
    record Result(int checked, List<String> failures) {
    }

    /**
     * Deletes a checkpoint after its check: renamed out of the way first, so that a kill midway
     * never leaves a partly deleted directory under its name.
     *
     * @param checkpoint the checkpoint's directory
     * @throws IOException if deleting fails
     */
    static void delete(Path checkpoint) throws IOException {
        Path doomed = checkpoint.resolveSibling(checkpoint.getFileName() + DELETING);
        Files.move(checkpoint, doomed, StandardCopyOption.ATOMIC_MOVE);
        Files.delete(checkpoint.resolveSibling(checkpoint.getFileName() + EXPECTED));
        deleteRecursively(doomed);
    }

    static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
