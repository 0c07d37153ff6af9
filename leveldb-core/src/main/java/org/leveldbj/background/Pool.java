package org.leveldbj.background;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import org.iq80.leveldb.BackgroundPool;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * A bounded set of threads running the background steps of the databases registered with it,
 * flushes first (see the package overview for the order and for how a compaction gives way to
 * a waiting flush).
 *
 * <p>Thread safety: safe for concurrent use; every mutable field, and the state of every lane,
 * is guarded by {@link #lock}, which is never held while a step or task runs. Lifetime: the
 * default pool ({@link #defaultPool()}) lives as long as the process; a pool made by the
 * factory lives until {@link #close()}, which refuses while a lane is registered.
 */
public final class Pool implements BackgroundPool {
    /** Seconds a thread waits for work before it ends. */
    public static final long KEEP_ALIVE_SECONDS = 30;

    private static final AtomicInteger POOL_IDS = new AtomicInteger();

    /** The queues, the lanes' state and the threads (doc/impl.md, Locks). */
    final OrderedLock lock = new OrderedLock(LockRank.BACKGROUND_POOL);
    /** Signalled when work is queued for an idle thread, and when the pool closes. */
    private final Condition workArrived = lock.newCondition();
    /** Signalled when a step ends and when a thread ends. */
    private final Condition stepEnded = lock.newCondition();
    private final int maxThreads;
    private final String threadName;
    private final AtomicInteger threadIds = new AtomicInteger();
    private final long keepAliveNanos;

    @GuardedBy("lock")
    private final ArrayDeque<Lane> flushes = new ArrayDeque<>();
    @GuardedBy("lock")
    private final ArrayDeque<Lane> compactions = new ArrayDeque<>();
    @GuardedBy("lock")
    private final ArrayDeque<Task> tasks = new ArrayDeque<>();
    @GuardedBy("lock")
    private final Set<Lane> lanes = new LinkedHashSet<>();
    @GuardedBy("lock")
    private final List<Thread> threads = new ArrayList<>();
    /** Threads waiting for work. */
    @GuardedBy("lock")
    private int idle;
    @GuardedBy("lock")
    private boolean closed;
    /** The length of {@link #flushes}, for {@link #help}'s check without the lock. */
    private volatile int flushesWaiting;

    /** A task handed over by a lane, run independently of its steps. */
    private record Task(Lane owner, Runnable work) {
    }

    /**
     * Creates a pool; its threads start when work arrives.
     *
     * @param threads the most threads it runs at once, at least 1
     * @param threadName the prefix of its threads' names
     * @param keepAliveNanos how long a thread waits for work before it ends
     * @throws IllegalArgumentException if {@code threads} is below 1
     */
    Pool(int threads, String threadName, long keepAliveNanos) {
        if (threads < 1) {
            throw new IllegalArgumentException("a background pool needs at least 1 thread, but was given " + threads);
        }
        this.maxThreads = threads;
        this.threadName = threadName;
        this.keepAliveNanos = keepAliveNanos;
    }

    /**
     * Creates a pool for {@code LevelDbFactory.newBackgroundPool}.
     *
     * @param threads the most threads it runs at once, at least 1
     * @return the pool
     * @throws IllegalArgumentException if {@code threads} is below 1
     */
    public static Pool create(int threads) {
        return new Pool(threads, "leveldbj-pool-" + POOL_IDS.incrementAndGet() + "-",
                TimeUnit.SECONDS.toNanos(KEEP_ALIVE_SECONDS));
    }

    /**
     * The pool of every database opened without one: as many threads as processors, at least 2.
     *
     * @return the process's default pool
     */
    public static Pool defaultPool() {
        return DefaultPool.INSTANCE;
    }

    /** Holder of the default pool, made at first use. */
    private static final class DefaultPool {
        static final Pool INSTANCE = new Pool(Math.max(2, Runtime.getRuntime().availableProcessors()),
                "leveldbj-background-", TimeUnit.SECONDS.toNanos(KEEP_ALIVE_SECONDS));
    }

    /**
     * Registers a database.
     *
     * @param name the database, for messages
     * @param step runs one background step of the database
     * @param urgent tells, without taking a lock, whether the database's next step is a flush
     * @return the database's lane
     * @throws IllegalStateException if the pool is closed
     */
    public Lane register(String name, Lane.Step step, java.util.function.BooleanSupplier urgent) {
        Lane lane = new Lane(this, name, step, urgent);
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("the background pool is closed");
            }
            lanes.add(lane);
        } finally {
            lock.unlock();
        }
        return lane;
    }

    @Override
    public int threads() {
        return maxThreads;
    }

    @Override
    public int databases() {
        lock.lock();
        try {
            return lanes.size();
        } finally {
            lock.unlock();
        }
    }

    /** @return the threads running now (busy or waiting for work) */
    public int liveThreads() {
        lock.lock();
        try {
            return threads.size();
        } finally {
            lock.unlock();
        }
    }

    /**
     * How many steps a lane ran, and how many of them another lane's compaction ran for it.
     *
     * @param lane the lane
     * @return {steps, helped}
     */
    public long[] steps(Lane lane) {
        lock.lock();
        try {
            return new long[] {lane.steps, lane.helped};
        } finally {
            lock.unlock();
        }
    }

    void schedule(Lane lane) {
        lock.lock();
        try {
            if (lane.closed) {
                return;
            }
            if (lane.runner != null) {
                lane.again = true;
                return;
            }
            if (lane.queued == Lane.Queue.FLUSHES) {
                return;
            }
            boolean urgent = lane.urgent.getAsBoolean();
            if (lane.queued == Lane.Queue.COMPACTIONS) {
                if (!urgent) {
                    return;
                }
                compactions.remove(lane);
            }
            enqueue(lane, urgent);
            dispatch();
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void enqueue(Lane lane, boolean urgent) {
        if (urgent) {
            lane.queued = Lane.Queue.FLUSHES;
            flushes.addLast(lane);
            flushesWaiting = flushes.size();
        } else {
            lane.queued = Lane.Queue.COMPACTIONS;
            compactions.addLast(lane);
        }
    }

    void execute(Lane owner, Runnable work) {
        lock.lock();
        try {
            if (owner.closed) {
                return;
            }
            tasks.addLast(new Task(owner, work));
            dispatch();
        } finally {
            lock.unlock();
        }
    }

    /** Wakes an idle thread for new work, and starts one when work waits for more threads than are idle. */
    @GuardedBy("lock")
    private void dispatch() {
        int waiting = flushes.size() + compactions.size() + tasks.size();
        if (idle > 0) {
            workArrived.signal();
        }
        if (waiting > idle && threads.size() < maxThreads) {
            Thread t = new Thread(this::work, threadName + threadIds.incrementAndGet());
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
    }

    /** A thread's life: takes work, flushes first, until it waits too long for any or the pool closes. */
    private void work() {
        lock.lock();
        try {
            serveThenRetire();
        } finally {
            lock.unlock();
        }
    }

    @GuardedBy("lock")
    private void serveThenRetire() {
        try {
            serve();
        } finally {
            retire();
        }
    }

    @GuardedBy("lock")
    private void serve() {
        long deadline = System.nanoTime() + keepAliveNanos;
        while (true) {
            Lane lane = flushes.peekFirst();
            if (lane == null && tasks.isEmpty()) {
                lane = compactions.peekFirst();
            }
            if (lane != null) {
                dequeue(lane);
                runStep(lane, false);
                if (!lane.closed && lane.again) {
                    lane.again = false;
                    // This thread takes the next work itself: no thread to wake.
                    enqueue(lane, lane.urgent.getAsBoolean());
                }
                deadline = System.nanoTime() + keepAliveNanos;
                continue;
            }
            Task task = tasks.pollFirst();
            if (task != null) {
                runTask(task);
                deadline = System.nanoTime() + keepAliveNanos;
                continue;
            }
            long left = deadline - System.nanoTime();
            if (closed || left <= 0) {
                return;
            }
            idle++;
            try {
                workArrived.awaitNanos(left);
            } catch (InterruptedException e) {
                // Nothing interrupts these threads on purpose; keep serving.
            } finally {
                idle--;
            }
        }
    }

    /** Takes the ending thread off the list, and tells a closing pool. */
    @GuardedBy("lock")
    private void retire() {
        threads.remove(Thread.currentThread());
        stepEnded.signalAll();
    }

    @GuardedBy("lock")
    private void dequeue(Lane lane) {
        if (lane.queued == Lane.Queue.FLUSHES) {
            flushes.remove(lane);
            flushesWaiting = flushes.size();
        } else if (lane.queued == Lane.Queue.COMPACTIONS) {
            compactions.remove(lane);
        }
        lane.queued = Lane.Queue.NONE;
    }

    /** Runs a lane's step with the lock released; on return the lane runs nothing. */
    @GuardedBy("lock")
    private void runStep(Lane lane, boolean urgentOnly) {
        lane.runner = Thread.currentThread();
        lane.again = false;
        lane.steps++;
        if (urgentOnly) {
            lane.helped++;
        }
        lock.unlock();
        try {
            lane.step.run(urgentOnly);
        } catch (RuntimeException | Error e) {
            // The engine's steps record their own failures; anything else must not end the thread.
            report(e);
        } finally {
            lock.lock();
            lane.runner = null;
            stepEnded.signalAll();
        }
    }

    /** Runs a task with the lock released. */
    @GuardedBy("lock")
    private void runTask(Task task) {
        lock.unlock();
        try {
            task.work().run();
        } catch (RuntimeException | Error e) {
            report(e);
        } finally {
            lock.lock();
        }
    }

    private static void report(Throwable e) {
        Thread t = Thread.currentThread();
        t.getUncaughtExceptionHandler().uncaughtException(t, e);
    }

    long help(Lane self) {
        if (flushesWaiting == 0) {
            return 0;
        }
        long start = System.nanoTime();
        lock.lock();
        try {
            Lane lane;
            while ((lane = flushes.peekFirst()) != null) {
                assert lane != self : "a running lane is never queued";
                dequeue(lane);
                runStep(lane, true);
                if (!lane.closed && lane.again) {
                    lane.again = false;
                    enqueue(lane, lane.urgent.getAsBoolean());
                    dispatch();
                }
            }
        } finally {
            lock.unlock();
        }
        return System.nanoTime() - start;
    }

    void close(Lane lane) {
        lock.lock();
        try {
            if (!lane.closed) {
                lane.closed = true;
                dequeue(lane);
                tasks.removeIf(t -> t.owner() == lane);
            }
            boolean interrupted = false;
            while (lane.runner != null && lane.runner != Thread.currentThread()) {
                try {
                    stepEnded.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            lanes.remove(lane);
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void close() {
        if (this == DefaultPool.INSTANCE) {
            throw new UnsupportedOperationException("the default background pool is never closed");
        }
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (!lanes.isEmpty()) {
                Iterator<Lane> it = lanes.iterator();
                throw new IllegalStateException("the background pool is still used by " + lanes.size()
                        + " open database" + (lanes.size() == 1 ? "" : "s") + " (" + it.next().name
                        + (lanes.size() > 1 ? ", ..." : "") + "): close them before the pool");
            }
            closed = true;
            workArrived.signalAll();
            boolean interrupted = false;
            while (!threads.isEmpty() && !threads.contains(Thread.currentThread())) {
                try {
                    stepEnded.await();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        } finally {
            lock.unlock();
        }
    }

    /** @return whether {@link #close()} has run */
    public boolean isClosed() {
        lock.lock();
        try {
            return closed;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "BackgroundPool[threads=" + maxThreads + ", databases=" + databases() + "]";
    }
}
