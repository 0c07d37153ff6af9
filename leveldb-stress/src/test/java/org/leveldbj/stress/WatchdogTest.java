package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The watchdog in this JVM: two threads that wait for each other's locks are reported as a
 * deadlock with both stacks and who holds what; no operation completed within the timeout is a
 * stall; the heartbeat carries the count of completed operations.
 */
class WatchdogTest {
    @TempDir
    Path dir;

    private Watchdog.Hang hang;
    private String report;

    @Test
    void reportsThreadsThatWaitForEachOther() throws Exception {
        ReentrantLock first = new ReentrantLock();
        ReentrantLock second = new ReentrantLock();
        CyclicBarrier both = new CyclicBarrier(2);
        Thread a = new Thread(() -> lockBoth(first, second, both), "deadlocked-a");
        Thread b = new Thread(() -> lockBoth(second, first, both), "deadlocked-b");
        a.start();
        b.start();
        try (Watchdog watchdog = new Watchdog(null, this::hung)) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (hang == null && System.nanoTime() < deadline) {
                watchdog.check();
                Thread.sleep(20);
            }
        } finally {
            a.interrupt();
            b.interrupt();
            a.join();
            b.join();
        }
        assertEquals(Watchdog.Hang.DEADLOCK, hang, report);
        String[] lines = report.split("\n");
        assertTrue(lines[0].startsWith(Watchdog.REPORT_START + "DEADLOCK: threads "), lines[0]);
        assertTrue(lines[0].contains("\"deadlocked-a\"") && lines[0].contains("\"deadlocked-b\""), lines[0]);
        assertTrue(report.contains("owned by \"deadlocked-b\""), report);
        assertTrue(report.contains("owned by \"deadlocked-a\""), report);
        assertTrue(report.contains("WatchdogTest.lockBoth"), report);
        assertTrue(report.contains("locked synchronizers: [java.util.concurrent.locks.ReentrantLock"), report);
        assertEquals(Watchdog.REPORT_END, lines[lines.length - 1]);
    }

    @Test
    void reportsAStallAndPublishesTheCount() throws Exception {
        Path file = dir.resolve(Heartbeat.FILE);
        try (Heartbeat heartbeat = new Heartbeat(file); Watchdog watchdog = new Watchdog(heartbeat, this::hung)) {
            assertEquals(-1, Heartbeat.read(file));
            watchdog.expectProgressWithin(0.2);
            for (int i = 0; i < 10; i++) {
                watchdog.completed();
                watchdog.check();
                Thread.sleep(50);
            }
            assertNull(hang, report);
            assertEquals(10, Heartbeat.read(file));
            Thread.sleep(300);
            watchdog.check();
        }
        assertEquals(Watchdog.Hang.STALL, hang);
        assertTrue(report.startsWith(Watchdog.REPORT_START + "STALL: no operation completed for "), report);
        assertTrue(report.contains("(10 completed before)"), report);
        assertTrue(report.contains("WatchdogTest.reportsAStallAndPublishesTheCount"), report);
    }

    private void hung(Watchdog.Hang h, String r) {
        hang = h;
        report = r;
    }

    private static void lockBoth(ReentrantLock first, ReentrantLock second, CyclicBarrier both) {
        first.lock();
        try {
            both.await();
            second.lockInterruptibly();
            second.unlock();
        } catch (Exception e) {
            // Interrupted at the end of the test.
        } finally {
            first.unlock();
        }
    }
}
