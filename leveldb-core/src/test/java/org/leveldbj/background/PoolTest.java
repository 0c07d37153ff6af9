package org.leveldbj.background;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool's scheduling, with steps that record what ran: flushes before compactions,
 * compactions in turn, one step at a time per lane, a compaction running waiting flushes
 * between entries, closing a lane without waiting for others, the thread limit and the pool's
 * lifetime. Steps block on latches, never on time; every wait has a generous deadline so that a
 * hang fails instead of stalling the build.
 */
class PoolTest {
    private static final long DEADLINE_SECONDS = 60;

    private final List<String> ran = Collections.synchronizedList(new ArrayList<>());
    private final List<Pool> pools = new ArrayList<>();

    private Pool pool(int threads) {
        Pool p = new Pool(threads, "pool-test-", TimeUnit.SECONDS.toNanos(Pool.KEEP_ALIVE_SECONDS));
        pools.add(p);
        return p;
    }

    private final List<Lane> lanes = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void closePools() {
        for (Lane lane : lanes) {
            lane.close();
        }
        for (Pool p : pools) {
            p.close();
        }
    }

    /** A lane whose steps record their name, and whose urgency the test sets. */
    private final class Recorder {
        final AtomicBoolean urgent = new AtomicBoolean();
        final Lane lane;

        Recorder(Pool pool, String name) {
            this(pool, name, urgentOnly -> { });
        }

        Recorder(Pool pool, String name, Lane.Step also) {
            lane = pool.register(name, urgentOnly -> {
                ran.add(name + (urgentOnly ? " (helped)" : ""));
                also.run(urgentOnly);
            }, urgent::get);
            lanes.add(lane);
        }
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(DEADLINE_SECONDS, TimeUnit.SECONDS), "timed out");
    }

    @Test
    void aWaitingFlushRunsBeforeCompactionsAskedForEarlier() throws Exception {
        Pool pool = pool(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder busy = new Recorder(pool, "busy", urgentOnly -> {
            started.countDown();
            awaitQuietly(release);
        });
        Recorder compactC = new Recorder(pool, "compact C");
        Recorder compactD = new Recorder(pool, "compact D");
        Recorder flushB = new Recorder(pool, "flush B");
        CountDownLatch done = new CountDownLatch(1);
        Recorder last = new Recorder(pool, "last", urgentOnly -> done.countDown());
        busy.lane.schedule();
        await(started);
        compactC.lane.schedule();
        compactD.lane.schedule();
        flushB.urgent.set(true);
        flushB.lane.schedule();
        last.lane.schedule();
        release.countDown();
        await(done);
        assertEquals(List.of("busy", "flush B", "compact C", "compact D", "last"), ran);
        for (Recorder r : List.of(busy, compactC, compactD, flushB, last)) {
            r.lane.close();
        }
    }

    @Test
    void aLaneWaitingToCompactMovesAheadWhenItNowNeedsAFlush() throws Exception {
        Pool pool = pool(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder busy = new Recorder(pool, "busy", urgentOnly -> {
            started.countDown();
            awaitQuietly(release);
        });
        Recorder c = new Recorder(pool, "C");
        Recorder b = new Recorder(pool, "B");
        CountDownLatch done = new CountDownLatch(2);
        Recorder d = new Recorder(pool, "D", urgentOnly -> done.countDown());
        busy.lane.schedule();
        await(started);
        c.lane.schedule();
        b.lane.schedule();
        d.lane.schedule();
        b.urgent.set(true);
        b.lane.schedule(); // asked again, now urgent: out of the compaction queue, into the flush queue
        c.lane.schedule(); // asked again, not urgent: stays where it is
        release.countDown();
        Recorder tail = new Recorder(pool, "tail", urgentOnly -> done.countDown());
        tail.lane.schedule();
        await(done);
        assertEquals(List.of("busy", "B", "C", "D", "tail"), ran);
    }

    @Test
    void lanesThatKeepAskingTakeTurns() throws Exception {
        Pool pool = pool(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder busy = new Recorder(pool, "busy", urgentOnly -> {
            started.countDown();
            awaitQuietly(release);
        });
        CountDownLatch done = new CountDownLatch(6);
        List<Recorder> lanes = new ArrayList<>();
        for (String name : List.of("A", "B", "C")) {
            AtomicInteger left = new AtomicInteger(2);
            AtomicReference<Lane> self = new AtomicReference<>();
            Recorder r = new Recorder(pool, name, urgentOnly -> {
                done.countDown();
                if (left.decrementAndGet() > 0) {
                    self.get().schedule(); // asked again from inside its own step
                }
            });
            self.set(r.lane);
            lanes.add(r);
        }
        busy.lane.schedule();
        await(started);
        for (Recorder r : lanes) {
            r.lane.schedule();
        }
        release.countDown();
        await(done);
        assertEquals(List.of("busy", "A", "B", "C", "A", "B", "C"), ran);
    }

    @Test
    void aLaneRunsOneStepAtATimeWhateverTheThreads() throws Exception {
        Pool pool = pool(4);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger left = new AtomicInteger(200);
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Lane> self = new AtomicReference<>();
        Recorder r = new Recorder(pool, "one", urgentOnly -> {
            most.accumulateAndGet(running.incrementAndGet(), Math::max);
            // Asked for again while running, from this and other threads.
            self.get().schedule();
            Thread other = new Thread(() -> self.get().schedule());
            other.start();
            joinQuietly(other);
            running.decrementAndGet();
            if (left.decrementAndGet() == 0) {
                done.countDown();
            }
        });
        self.set(r.lane);
        r.lane.schedule();
        await(done);
        r.lane.close();
        assertEquals(1, most.get(), "steps of one lane never overlap");
    }

    @Test
    void aCompactionRunsWaitingFlushesOnItsOwnThreadBetweenEntries() throws Exception {
        Pool pool = pool(1);
        CountDownLatch compacting = new CountDownLatch(1);
        CountDownLatch flushAsked = new CountDownLatch(1);
        AtomicReference<Thread> compactor = new AtomicReference<>();
        AtomicReference<Thread> flusher = new AtomicReference<>();
        AtomicReference<Lane> self = new AtomicReference<>();
        AtomicInteger entries = new AtomicInteger();
        Recorder a = new Recorder(pool, "compact A", urgentOnly -> {
            compactor.set(Thread.currentThread());
            compacting.countDown();
            awaitQuietly(flushAsked);
            // The compaction's loop over its entries: it asks for help at each one.
            for (int i = 0; i < 3; i++) {
                entries.incrementAndGet();
                ran.add("entry " + i);
                self.get().help();
            }
        });
        self.set(a.lane);
        Recorder b = new Recorder(pool, "flush B", urgentOnly -> flusher.set(Thread.currentThread()));
        a.lane.schedule();
        await(compacting);
        b.urgent.set(true);
        b.lane.schedule();
        flushAsked.countDown();
        a.lane.close();
        b.lane.close();
        assertEquals(List.of("compact A", "entry 0", "flush B (helped)", "entry 1", "entry 2"), ran);
        assertSame(compactor.get(), flusher.get(), "the flush ran on the compacting thread");
        assertEquals(1, pool.steps(b.lane)[1], "one helped step");
    }

    @Test
    void closingALaneDropsItsWaitingWorkAndWaitsOnlyForItsOwnStep() throws Exception {
        Pool pool = pool(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder busy = new Recorder(pool, "busy", urgentOnly -> {
            started.countDown();
            awaitQuietly(release);
        });
        Recorder waiting = new Recorder(pool, "waiting");
        AtomicBoolean taskRan = new AtomicBoolean();
        busy.lane.schedule();
        await(started);
        waiting.lane.schedule();
        waiting.lane.execute(() -> taskRan.set(true));
        waiting.lane.close(); // returns while busy's step still runs
        assertEquals(1, pool.databases());
        Thread closer = new Thread(busy.lane::close);
        closer.start();
        closer.join(100);
        assertTrue(closer.isAlive(), "closing a lane waits for its running step");
        release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(DEADLINE_SECONDS));
        assertFalse(closer.isAlive());
        assertEquals(List.of("busy"), ran, "the closed lane's step never ran");
        assertFalse(taskRan.get(), "nor its task");
        waiting.lane.schedule(); // a closed lane asks for nothing
        assertEquals(0, pool.databases());
    }

    @Test
    void tasksRunAfterFlushesAndBeforeCompactions() throws Exception {
        Pool pool = pool(1);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Recorder busy = new Recorder(pool, "busy", urgentOnly -> {
            started.countDown();
            awaitQuietly(release);
        });
        CountDownLatch done = new CountDownLatch(1);
        Recorder compaction = new Recorder(pool, "compaction", urgentOnly -> done.countDown());
        Recorder flush = new Recorder(pool, "flush");
        flush.urgent.set(true);
        busy.lane.schedule();
        await(started);
        compaction.lane.schedule();
        compaction.lane.execute(() -> ran.add("task"));
        flush.lane.schedule();
        release.countDown();
        await(done);
        assertEquals(List.of("busy", "flush", "task", "compaction"), ran);
    }

    @Test
    void manyLanesNeverUseMoreThreadsThanTheLimit() throws Exception {
        Pool pool = pool(2);
        int lanes = 50;
        CountDownLatch done = new CountDownLatch(lanes);
        AtomicInteger concurrent = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        List<Recorder> recorders = new ArrayList<>();
        for (int i = 0; i < lanes; i++) {
            recorders.add(new Recorder(pool, "lane " + i, urgentOnly -> {
                most.accumulateAndGet(concurrent.incrementAndGet(), Math::max);
                Thread.yield();
                concurrent.decrementAndGet();
                done.countDown();
            }));
        }
        for (Recorder r : recorders) {
            r.lane.schedule();
        }
        await(done);
        assertTrue(pool.liveThreads() <= 2, "threads: " + pool.liveThreads());
        assertTrue(most.get() <= 2, "steps at once: " + most.get());
        for (Recorder r : recorders) {
            r.lane.close();
        }
    }

    @Test
    void idleThreadsEndAndComeBackWhenWorkArrives() throws Exception {
        Pool pool = new Pool(2, "pool-test-idle-", TimeUnit.MILLISECONDS.toNanos(1));
        pools.add(pool);
        CountDownLatch first = new CountDownLatch(1);
        Recorder r = new Recorder(pool, "r", urgentOnly -> first.countDown());
        r.lane.schedule();
        await(first);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (pool.liveThreads() > 0) {
            assertTrue(System.nanoTime() < deadline, "an idle thread did not end");
            Thread.sleep(1); // polling for the end, not waiting for it to happen
        }
        CountDownLatch second = new CountDownLatch(1);
        Recorder s = new Recorder(pool, "s", urgentOnly -> second.countDown());
        s.lane.schedule();
        await(second);
        r.lane.close();
        s.lane.close();
    }

    @Test
    void closingAPoolInUseFailsAndNamesADatabaseThenWorksOnceTheyAreClosed() throws Exception {
        Pool pool = pool(2);
        Recorder r = new Recorder(pool, "/data/users");
        IllegalStateException e = assertThrows(IllegalStateException.class, pool::close);
        assertEquals("the background pool is still used by 1 open database (/data/users): close them before the pool",
                e.getMessage());
        CountDownLatch ran = new CountDownLatch(1);
        Recorder s = new Recorder(pool, "after", urgentOnly -> ran.countDown());
        s.lane.schedule();
        await(ran); // still working
        r.lane.close();
        s.lane.close();
        pool.close();
        assertEquals(0, pool.liveThreads(), "close ends the threads");
        assertTrue(pool.isClosed());
        pool.close(); // idempotent
        IllegalStateException late = assertThrows(IllegalStateException.class, () -> new Recorder(pool, "late"));
        assertEquals("the background pool is closed", late.getMessage());
    }

    @Test
    void theThreadLimitIsChecked() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Pool.create(0));
        assertEquals("a background pool needs at least 1 thread, but was given 0", e.getMessage());
        assertThrows(UnsupportedOperationException.class, () -> Pool.defaultPool().close());
        assertTrue(Pool.defaultPool().threads() >= 2);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            if (!latch.await(DEADLINE_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static void joinQuietly(Thread t) {
        try {
            t.join();
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
