package org.leveldbj.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Per-thread cells add up to every increment, whether their threads still run or have ended. */
class ThreadCellsTest {
    @Test
    void theSumCountsEveryIncrementOfEveryThread() throws InterruptedException {
        ThreadCells cells = new ThreadCells(2);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            int slot = t % 2;
            threads.add(new Thread(() -> {
                for (int i = 0; i < 100_000; i++) {
                    cells.increment(slot);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        cells.increment(0);
        assertArrayEquals(new long[] {400_001, 400_000}, cells.sum());
        assertEquals(1, cells.cellsForTesting(), "the ended threads' cells were folded");
        assertArrayEquals(new long[] {400_001, 400_000}, cells.sum(), "folding keeps every count");
    }

    @Test
    void sumsNeverDecreaseWhileThreadsCountAndEnd() throws Exception {
        ThreadCells cells = new ThreadCells(1);
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> failure = new AtomicReference<>();
        CountDownLatch summed = new CountDownLatch(1);
        Thread summer = new Thread(() -> {
            long last = 0;
            while (!done.get()) {
                long now = cells.sum()[0];
                if (now < last) {
                    failure.set(now + " after " + last);
                }
                last = now;
                summed.countDown();
            }
        });
        summer.start();
        summed.await();
        for (int round = 0; round < 50; round++) {
            Thread t = new Thread(() -> {
                for (int i = 0; i < 1_000; i++) {
                    cells.increment(0);
                }
            });
            t.start();
            t.join();
        }
        done.set(true);
        summer.join();
        assertEquals(null, failure.get());
        assertEquals(50_000, cells.sum()[0]);
    }

    @Test
    void threadsThatComeAndGoDoNotGrowTheList() throws InterruptedException {
        ThreadCells cells = new ThreadCells(1);
        for (int i = 0; i < 1_000; i++) {
            Thread t = new Thread(() -> cells.increment(0));
            t.start();
            t.join();
        }
        assertTrue(cells.cellsForTesting() <= 128, "cells kept: " + cells.cellsForTesting());
        assertEquals(1_000, cells.sum()[0]);
    }
}
