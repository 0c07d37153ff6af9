package org.leveldbj.stress;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import org.iq80.leveldb.Env;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.ForwardingWritableFile;

/**
 * An {@link Env} that halts the JVM (as a kill would) at the n-th file change the engine makes
 * inside one {@link KillPoint} activity, either just before or just after that change.
 *
 * <p>Only changes to files whose name fits the activity are considered, and only for those is
 * the stack walked (at each change: a MANIFEST opened while the database opens is appended to
 * later by every version change). Other files, and every file of an unarmed environment, are
 * not wrapped at all.
 *
 * <p>Thread safety: safe for concurrent use; the countdown is shared by all threads.
 */
final class KillPointEnv extends ForwardingEnv {
    /** The exit status of a JVM halted at a kill point. */
    static final int HALT_STATUS = 86;

    private final KillPoint armed;
    private final AtomicLong remaining;
    private volatile boolean counting;

    /**
     * @param target the environment to forward to
     * @param armed the activity to halt in, or {@code null} for none
     * @param after halt at this many-th change event (two per change: before and after it)
     * @param counting whether events count from now on, or only after {@link #startCounting}
     */
    KillPointEnv(Env target, KillPoint armed, long after, boolean counting) {
        super(target);
        this.armed = armed;
        this.remaining = new AtomicLong(after);
        this.counting = counting;
    }

    /** Starts counting events (for instance once the database is open). */
    void startCounting() {
        counting = true;
    }

    /** How many change events of the armed activity were seen so far, given the arming count. */
    long seen(long after) {
        return after - remaining.get();
    }

    private boolean watched(Path file) {
        return armed != null && armed.matchesFile(file);
    }

    /** Counts one event of a watched file, if it happens inside the activity. */
    private void tick(String what) {
        if (counting && armed.onStack() && remaining.decrementAndGet() == 0) {
            System.err.println("crashtest: halting in " + armed.name().toLowerCase(Locale.ROOT) + " " + what);
            System.err.flush();
            Runtime.getRuntime().halt(HALT_STATUS);
        }
    }

    @Override
    public WritableFile newWritableFile(Path file) throws IOException {
        if (!watched(file)) {
            return super.newWritableFile(file);
        }
        tick("before creating " + file.getFileName());
        WritableFile f = super.newWritableFile(file);
        tick("after creating " + file.getFileName());
        return new Counted(file, f);
    }

    @Override
    public WritableFile newAppendableFile(Path file) throws IOException {
        if (!watched(file)) {
            return super.newAppendableFile(file);
        }
        tick("before opening " + file.getFileName());
        WritableFile f = super.newAppendableFile(file);
        tick("after opening " + file.getFileName());
        return new Counted(file, f);
    }

    @Override
    public void renameFile(Path source, Path target) throws IOException {
        if (!watched(target) && !watched(source)) {
            super.renameFile(source, target);
            return;
        }
        String what = "renaming " + source.getFileName() + " to " + target.getFileName();
        tick("before " + what);
        super.renameFile(source, target);
        tick("after " + what);
    }

    @Override
    public boolean linkOrCopyFile(Path source, Path target) throws IOException {
        if (!watched(target)) {
            return super.linkOrCopyFile(source, target);
        }
        String what = "linking " + source.getFileName() + " into " + target.getParent().getFileName();
        tick("before " + what);
        boolean linked = super.linkOrCopyFile(source, target);
        tick("after " + what);
        return linked;
    }

    @Override
    public void deleteFile(Path file) throws IOException {
        if (!watched(file)) {
            super.deleteFile(file);
            return;
        }
        tick("before deleting " + file.getFileName());
        super.deleteFile(file);
        tick("after deleting " + file.getFileName());
    }

    @Override
    public void createDir(Path dir) throws IOException {
        if (!watched(dir)) {
            super.createDir(dir);
            return;
        }
        tick("before creating directory " + dir.getFileName());
        super.createDir(dir);
        tick("after creating directory " + dir.getFileName());
    }

    @Override
    public void syncDir(Path dir) throws IOException {
        if (armed == null || armed == KillPoint.FLUSH || armed == KillPoint.COMPACTION) {
            super.syncDir(dir);
            return;
        }
        tick("before syncing the directory");
        super.syncDir(dir);
        tick("after syncing the directory");
    }

    /** A watched file: each change is a pair of events, counted when inside the activity. */
    private final class Counted extends ForwardingWritableFile {
        private final String name;

        Counted(Path path, WritableFile file) {
            super(path, file);
            this.name = path.getFileName().toString();
        }

        @Override
        public void append(ByteBuffer data) throws IOException {
            tick("before appending " + data.remaining() + " bytes to " + name);
            super.append(data);
            tick("after appending to " + name);
        }

        @Override
        public void flush() throws IOException {
            tick("before flushing " + name);
            super.flush();
            tick("after flushing " + name);
        }

        @Override
        public void sync() throws IOException {
            tick("before syncing " + name);
            super.sync();
            tick("after syncing " + name);
        }

        @Override
        public void close() throws IOException {
            tick("before closing " + name);
            super.close();
            tick("after closing " + name);
        }
    }
}
