package org.leveldbj.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.iq80.leveldb.Env;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.testing.ForwardingEnv;

/**
 * An environment whose creation of table files waits until the test opens the gate: a memtable
 * flush then stays in progress for as long as the test needs, so that writers behind it stall
 * on the full memtable for certain.
 *
 * <p>Thread safety: safe for concurrent use.
 */
final class GatedEnv extends ForwardingEnv {
    private final CountDownLatch gate = new CountDownLatch(1);
    private final CountDownLatch blocked = new CountDownLatch(1);

    GatedEnv(Env target) {
        super(target);
    }

    @Override
    public WritableFile newWritableFile(Path file) throws IOException {
        FileNames.Parsed p = FileNames.parse(file.getFileName().toString());
        if (p != null && p.type() == FileType.TABLE && gate.getCount() > 0) {
            blocked.countDown();
            try {
                if (!gate.await(5, TimeUnit.MINUTES)) {
                    throw new IOException("the gate was never opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted at the gate", e);
            }
        }
        return super.newWritableFile(file);
    }

    /**
     * Waits until a table file is being created behind the closed gate.
     *
     * @throws InterruptedException if interrupted
     */
    void awaitBlocked() throws InterruptedException {
        if (!blocked.await(2, TimeUnit.MINUTES)) {
            throw new AssertionError("no table file was created");
        }
    }

    /** Lets every table file be created from now on. */
    void open() {
        gate.countDown();
    }
}
