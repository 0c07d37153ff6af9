package org.leveldbj.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.function.Predicate;
import org.iq80.leveldb.Env;
import org.leveldbj.testing.FaultInjectionEnv.Op;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.ForwardingWritableFile;

/**
 * A test {@link Env} over a {@link FaultInjectionEnv} that adds two scripted faults the
 * fault-injection environment does not offer:
 *
 * <ul>
 *   <li><b>Freezing</b> ({@link #freezeAfter(long)}): after a chosen number of mutating calls
 *       (append, sync, file creation, rename, delete, directory sync) every further mutating call
 *       fails. Followed by {@link FaultInjectionEnv#crash()}, this is a power failure at an exact
 *       I/O boundary: nothing the database tries after the chosen call reaches the disk, not
 *       even from its background thread, so the state after the crash is exactly the durable
 *       state at that call.
 *   <li><b>Targeted failures</b> ({@link #failNext(Op, Predicate, int, boolean)}): the next
 *       calls of an operation on files whose name matches fail (optionally torn: half the bytes
 *       of a failing append are written), to hit table files or the MANIFEST specifically.
 * </ul>
 *
 * <p>Public for the tests of other packages (backups) that freeze or fail their own file
 * operations the same way.
 *
 * <p>Thread safety: safe for concurrent use (synchronized on this object).
 */
public final class ScriptedEnv extends ForwardingEnv {
    static final String FROZEN = "injected crash";

    private final FaultInjectionEnv fault;
    // Guarded by this.
    private long mutations;
    private long freezeAt = Long.MAX_VALUE;
    private long failAt = Long.MAX_VALUE;
    private boolean frozen;
    private Op targetOp;
    private Predicate<String> targetName;
    private int targetCount;
    private boolean targetTorn;
    private long targetHits;
    private String lastRenameTarget;

    public ScriptedEnv(FaultInjectionEnv fault) {
        super(fault);
        this.fault = fault;
    }

    public FaultInjectionEnv fault() {
        return fault;
    }

    /**
     * Freezes the disk after {@code n} more mutating calls succeed.
     *
     * @param n the number of mutating calls still allowed, at least 0
     */
    public synchronized void freezeAfter(long n) {
        freezeAt = mutations + n;
    }

    /**
     * Makes one mutating call fail, the one after {@code n} more succeed; later calls succeed
     * again. Unlike {@link #freezeAfter}, what the caller does about the failure reaches the disk.
     *
     * @param n the number of mutating calls still allowed before the failing one, at least 0
     */
    public synchronized void failAfter(long n) {
        failAt = mutations + n + 1;
    }

    /** Cancels a failure {@link #failAfter} set up that has not happened yet. */
    public synchronized void clearFailure() {
        failAt = Long.MAX_VALUE;
    }

    /** Freezes the disk now. */
    synchronized void freeze() {
        frozen = true;
    }

    /** @return whether the disk is frozen */
    public synchronized boolean isFrozen() {
        return frozen;
    }

    /** Simulates the power failure: loses unsynced data, then unfreezes for the next run. */
    public void crashAndThaw() throws IOException {
        synchronized (this) {
            frozen = true;
        }
        fault.crash();
        synchronized (this) {
            frozen = false;
            freezeAt = Long.MAX_VALUE;
            targetOp = null;
        }
    }

    /** @return how many mutating calls were made */
    public synchronized long mutations() {
        return mutations;
    }

    /** @return how many targeted failures were injected */
    synchronized long targetHits() {
        return targetHits;
    }

    /**
     * Makes the next {@code count} calls of {@code op} on files whose name matches fail.
     *
     * @param op the operation
     * @param name tested against the file name (not the path)
     * @param count how many calls fail
     * @param torn whether a failing append writes half its bytes first
     */
    synchronized void failNext(Op op, Predicate<String> name, int count, boolean torn) {
        targetOp = op;
        targetName = name;
        targetCount = count;
        targetTorn = torn;
    }

    /**
     * Counts a mutating call; returns 0 when it may proceed, 1 when it fails, 2 when it fails
     * torn. A directory sync is tested against the name {@code "<dir> after rename to <name>"}
     * when the previous mutating call renamed a file to {@code name}.
     */
    private synchronized int check(Op op, Path file) {
        if (frozen) {
            return 1;
        }
        String name = file == null || file.getFileName() == null ? "" : file.getFileName().toString();
        if (op == Op.SYNC_DIR && lastRenameTarget != null) {
            name = name + " after rename to " + lastRenameTarget;
        }
        lastRenameTarget = op == Op.RENAME ? name : null;
        if (targetOp == op && targetCount > 0 && targetName.test(name)) {
            targetCount--;
            targetHits++;
            return targetTorn ? 2 : 1;
        }
        mutations++;
        if (mutations == failAt) {
            failAt = Long.MAX_VALUE;
            return 1;
        }
        if (mutations > freezeAt) {
            frozen = true;
            return 1;
        }
        return 0;
    }

    private void maybeFail(Op op, Path file) throws IOException {
        if (check(op, file) != 0) {
            throw new IOException(FROZEN + " (" + op + "): " + file);
        }
    }

    @Override
    public WritableFile newWritableFile(Path file) throws IOException {
        maybeFail(Op.NEW_FILE, file);
        return new File(file, fault.newWritableFile(file));
    }

    @Override
    public WritableFile newAppendableFile(Path file) throws IOException {
        maybeFail(Op.NEW_FILE, file);
        return new File(file, fault.newAppendableFile(file));
    }

    @Override
    public void deleteFile(Path file) throws IOException {
        maybeFail(Op.DELETE, file);
        fault.deleteFile(file);
    }

    @Override
    public void deleteDir(Path dir) throws IOException {
        maybeFail(Op.DELETE, dir);
        fault.deleteDir(dir);
    }

    @Override
    public void renameFile(Path source, Path target) throws IOException {
        maybeFail(Op.RENAME, target);
        fault.renameFile(source, target);
    }

    @Override
    public void syncDir(Path dir) throws IOException {
        maybeFail(Op.SYNC_DIR, dir);
        fault.syncDir(dir);
    }

    @Override
    public String toString() {
        return "ScriptedEnv(" + fault + ")";
    }

    private final class File extends ForwardingWritableFile {
        File(Path path, WritableFile delegate) {
            super(path, delegate);
        }

        @Override
        public void append(ByteBuffer data) throws IOException {
            int verdict = check(Op.APPEND, path());
            if (verdict == 2) {
                appendFirstHalf(data);
            }
            if (verdict != 0) {
                throw new IOException(FROZEN + " (" + Op.APPEND + "): " + path());
            }
            super.append(data);
        }

        @Override
        public void sync() throws IOException {
            maybeFail(Op.SYNC, path());
            super.sync();
        }
    }
}
