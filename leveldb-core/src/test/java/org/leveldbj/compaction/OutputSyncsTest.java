package org.leveldbj.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.Env.WritableFile;
import org.leveldbj.filename.FileNames;
import org.leveldbj.iterator.EmptyIterator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableOptions;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.ForwardingWritableFile;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.TableSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OutputSyncs}: outputs synced on helpers come back in order, synced and closed; a
 * failed sync is thrown once all have ended and stops later hand-overs; helpers delete nothing,
 * and clean-up leaves no file.
 */
class OutputSyncsTest {
    private static final Path DIR = Path.of("/db");
    private final FaultInjectionEnv env = new FaultInjectionEnv();
    private final ExecutorService helpers = Executors.newFixedThreadPool(2);
    /** Opening a finished table is not what these tests are about: any number opens. */
    private final TableSource tables = new TableSource() {
        @Override
        public SortedIterator iterator(long fileNumber, long fileSize, TableReadOptions readOptions) {
            return EmptyIterator.INSTANCE;
        }

        @Override
        public boolean get(long fileNumber, long fileSize, ByteBuffer internalKey, TableReadOptions readOptions,
                           Table.EntryHandler handler) {
            return false;
        }

        @Override
        public long approximateOffsetOf(long fileNumber, long fileSize, ByteBuffer internalKey) {
            return 0;
        }

        @Override
        public void evict(long fileNumber) {
        }
    };

    @AfterEach
    void stopHelpers() {
        helpers.shutdownNow();
    }

    private TableFileWriter output(long number) throws IOException {
        return output(env, number);
    }

    private TableFileWriter output(Env through, long number) throws IOException {
        TableFileWriter out = new TableFileWriter(through, DIR, number, false, TableOptions.DEFAULTS, tables);
        for (int i = 0; i < 100; i++) {
            byte[] key = String.format("key-%03d-%05d", number, i).getBytes(StandardCharsets.US_ASCII);
            out.add(ByteBuffer.wrap(key), ByteBuffer.wrap(new byte[100]));
        }
        return out;
    }

    private boolean exists(long number) throws IOException {
        return env.fileExists(DIR.resolve(FileNames.tableFileName(number, false)));
    }

    @Test
    void returnsEveryOutputInOrderSyncedAndClosed() throws IOException {
        env.createDir(DIR);
        OutputSyncs syncs = new OutputSyncs(helpers);
        for (long n = 1; n <= 5; n++) {
            syncs.submit(output(n));
        }
        List<FileMetaData> done = syncs.awaitAll();
        List<Long> numbers = new ArrayList<>();
        for (FileMetaData f : done) {
            numbers.add(f.number());
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L), numbers);
        // Every output survives a power failure once the directory is synced too: it was synced.
        env.syncDir(DIR);
        env.crash();
        for (FileMetaData f : done) {
            assertEquals(f.fileSize(), env.getFileSize(DIR.resolve(FileNames.tableFileName(f.number(), false))),
                    "table " + f.number() + " was synced whole before awaitAll returned");
        }
    }

    @Test
    void aFailedSyncIsThrownAfterAllEndedAndCleanUpLeavesNoFile() throws Exception {
        env.createDir(DIR);
        // The helper never runs a task until told: hand-overs queue up.
        List<Runnable> queued = new ArrayList<>();
        Executor held = queued::add;
        OutputSyncs syncs = new OutputSyncs(held);
        syncs.submit(output(1));
        syncs.submit(output(2));
        env.fail(FaultInjectionEnv.Op.SYNC, 1); // the first sync run fails: output 1's
        for (Runnable r : queued) {
            r.run();
        }
        TableFileWriter third = output(3);
        IOException e = assertThrows(IOException.class, () -> syncs.submit(third),
                "a hand-over after a known failure throws it");
        third.abandon();
        assertTrue(e.getMessage().contains(FaultInjectionEnv.INJECTED), e.getMessage());
        assertThrows(IOException.class, syncs::awaitAll);
        assertTrue(exists(1) && exists(2),
                "helpers delete nothing: every output is left for the caller's clean-up");
        List<Long> deleted = new ArrayList<>();
        syncs.abandon(n -> {
            deleted.add(n);
            try {
                env.deleteFile(DIR.resolve(FileNames.tableFileName(n, false)));
            } catch (IOException ex) {
                throw new AssertionError(ex);
            }
        });
        assertEquals(List.of(1L, 2L), deleted, "clean-up deletes every output handed over, failed or not");
        assertFalse(exists(1) || exists(2));
    }

    /**
     * Counts the syncs in progress inside the files' own {@code sync}: an output's slot is given
     * back only after its sync returned, so the count is exact whatever the scheduling (counting
     * around the executor's task instead saw a next sync start before the task's wrapper ended).
     */
    @Test
    void atMostTwoOutputsAreSyncedAtOnce() throws Exception {
        env.createDir(DIR);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        Env counting = new ForwardingEnv(env) {
            @Override
            public WritableFile newWritableFile(Path file) throws IOException {
                return new ForwardingWritableFile(file, super.newWritableFile(file)) {
                    @Override
                    public void sync() throws IOException {
                        most.accumulateAndGet(running.incrementAndGet(), Math::max);
                        try {
                            Thread.sleep(30);
                            super.sync();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new java.io.InterruptedIOException("interrupted");
                        } finally {
                            running.decrementAndGet();
                        }
                    }
                };
            }
        };
        ExecutorService unbounded = Executors.newCachedThreadPool();
        try {
            OutputSyncs syncs = new OutputSyncs(unbounded);
            for (long n = 1; n <= 6; n++) {
                syncs.submit(output(counting, n));
            }
            assertEquals(6, syncs.awaitAll().size());
            assertTrue(most.get() <= OutputSyncs.MAX_IN_FLIGHT, most.get() + " syncs in progress at once");
        } finally {
            unbounded.shutdownNow();
        }
    }

    @Test
    void withoutAHelperThreadTheCallerSyncs() throws IOException {
        env.createDir(DIR);
        OutputSyncs syncs = new OutputSyncs(task -> {
            throw new java.util.concurrent.RejectedExecutionException("no thread");
        });
        syncs.submit(output(7));
        assertEquals(7, syncs.awaitAll().get(0).number());
    }
}
