package org.leveldbj.compaction;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongConsumer;
import org.iq80.leveldb.DBException;
import org.leveldbj.version.FileMetaData;

/**
 * The output tables of one compaction, synced on helper threads while the compaction writes the
 * next ones: a completed output is handed over, and a helper syncs, closes and reopens it
 * ({@link TableFileWriter#syncAndOpen}).
 *
 * <p>Why: a table's {@code fdatasync} blocks the writing thread for as long as the device takes
 * (3 to 6 ms per 2 MB table here, a third of a compaction's time in {@code bin/db-bench
 * --benchmarks=fill100K} according to {@code strace -T}), time in which it could be writing the
 * next table. C++ LevelDB syncs each output before it starts the next.
 *
 * <p>Durability is unchanged: {@link #awaitAll()} returns only once every output is synced and
 * closed, and the compaction syncs the directory and writes the MANIFEST naming the outputs only
 * after that.
 *
 * <p>Failures: the first failure is thrown by {@link #awaitAll()} once every output has ended,
 * and {@link #submit} throws early once one is known, so a compaction stops writing tables that
 * would be discarded. A helper closes a failed output but deletes nothing (only the database's
 * background step deletes files); {@link #abandon} waits for every output and deletes them
 * all. No helper touches a file after {@link #awaitAll()} or {@link #abandon} returns.
 *
 * <p>Threads: daemon threads named {@code leveldbj-sync}, shared by every database in the
 * process, made on demand and ended after {@link #IDLE_SECONDS} seconds without work; at most
 * {@link #MAX_IN_FLIGHT} work for one compaction at a time. When no thread can be made, the
 * compaction's own thread syncs the output.
 *
 * <p>Thread safety: used by the one thread running the compaction.
 */
final class OutputSyncs {
    static final int IDLE_SECONDS = 30;
    /**
     * The most outputs of one compaction being synced at once: a disk slower to sync than the
     * compaction is to write makes the compaction wait for the oldest, rather than start a
     * thread and leave another table's dirty pages per output.
     */
    static final int MAX_IN_FLIGHT = 2;
    private static final Executor POOL = newPool();

    private final Executor helpers;
    private final List<Future<FileMetaData>> results = new ArrayList<>();
    /** The file number of each output handed over, in order. */
    private final List<Long> numbers = new ArrayList<>();
    /** The outputs before this index in {@link #results} are known to have ended. */
    private int ended;
    /** Set by a helper whose output failed; the failure itself is in its future. */
    private volatile boolean failed;

    /** Output syncs on the shared helper threads. */
    OutputSyncs() {
        this(POOL);
    }

    /** Output syncs on the given threads, for tests. */
    OutputSyncs(Executor helpers) {
        this.helpers = helpers;
    }

    private static Executor newPool() {
        AtomicInteger count = new AtomicInteger();
        return new ThreadPoolExecutor(0, Integer.MAX_VALUE, IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(),
                task -> {
                    Thread t = new Thread(task, "leveldbj-sync-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
    }

    /**
     * Completes an output (writes the rest of its table) and hands it over to be synced.
     *
     * @param out an output with at least one entry
     * @throws IOException if completing it fails, or an output handed over earlier failed
     */
    void submit(TableFileWriter out) throws IOException {
        throwIfFailed();
        while (results.size() - ended >= MAX_IN_FLIGHT) {
            try {
                getUninterruptibly(results.get(ended));
            } catch (ExecutionException ignored) {
                // the failure is thrown below, with the others' outcome known
            }
            ended++;
        }
        throwIfFailed();
        out.complete();
        FutureTask<FileMetaData> task = new FutureTask<>(() -> {
            try {
                return out.syncAndOpen(false);
            } catch (IOException | RuntimeException | Error e) {
                failed = true;
                throw e;
            }
        });
        try {
            helpers.execute(task);
        } catch (RuntimeException | OutOfMemoryError noThread) {
            task.run(); // no helper thread could take it: sync it here
        }
        results.add(task);
        numbers.add(out.number());
    }

    /**
     * Waits for every output handed over.
     *
     * @return their metadata, in the order they were handed over
     * @throws IOException the first failure, once every output has ended
     */
    List<FileMetaData> awaitAll() throws IOException {
        List<FileMetaData> done = new ArrayList<>(results.size());
        Throwable failure = null;
        for (Future<FileMetaData> f : results) {
            try {
                done.add(getUninterruptibly(f));
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause();
                }
            }
        }
        if (failure != null) {
            rethrow(failure);
        }
        return done;
    }

    /**
     * After a failure: waits for every output handed over, then deletes every one of them.
     *
     * @param delete deletes the table file of a number
     */
    void abandon(LongConsumer delete) {
        for (Future<FileMetaData> f : results) {
            try {
                getUninterruptibly(f);
            } catch (ExecutionException closedByItsHelper) {
                // deleted below with the others
            }
        }
        numbers.forEach(delete::accept);
    }

    /** Once an output has failed: waits for the others and throws the first failure. */
    private void throwIfFailed() throws IOException {
        if (failed) {
            awaitAll(); // throws: a future holds the failure
        }
    }

    private static FileMetaData getUninterruptibly(Future<FileMetaData> f) throws ExecutionException {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return f.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void rethrow(Throwable failure) throws IOException {
        if (failure instanceof IOException) {
            throw (IOException) failure; // as it is: callers tell a full disk by its class
        }
        if (failure instanceof RuntimeException) {
            throw (RuntimeException) failure;
        }
        if (failure instanceof Error) {
            throw (Error) failure;
        }
        throw new DBException(failure);
    }
}
