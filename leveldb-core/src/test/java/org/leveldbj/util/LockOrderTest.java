package org.leveldbj.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The lock-order checker: a planted inversion fails at the acquisition, with both stacks, before
 * the lock is taken; what the order allows passes; and doc/impl.md's lock table lists the ranks in
 * the order the checker enforces.
 */
class LockOrderTest {
    @BeforeAll
    static void checkerIsOn() {
        assertTrue(LockOrder.ENABLED, "the build runs every test with -Dleveldbj.lockOrderCheck=true");
    }

    @AfterEach
    void forgetPlantedViolations() {
        // The violations below are planted: they must not fail the test through the extension.
        LockOrder.takeViolations();
    }

    @Test
    void takingAnEarlierRankWhileHoldingALaterOneFailsWithBothStacks() {
        OrderedLock database = new OrderedLock(LockRank.DATABASE);
        OrderedLock valueLog = new OrderedLock(LockRank.VALUE_LOG);
        valueLog.lock();
        try {
            LockOrderViolation e = assertThrows(LockOrderViolation.class, database::lock);
            assertFalse(database.isLocked(), "the checker refuses before acquiring");
            assertTrue(e.getMessage().contains("takes DATABASE@"), e.getMessage());
            assertTrue(e.getMessage().contains("(rank 2) while holding VALUE_LOG@"), e.getMessage());
            assertTrue(e.getMessage().contains("(rank 6);"), "ranks as doc/impl.md numbers them: " + e.getMessage());
            assertEquals("taken here", e.getCause().getMessage());
            assertTrue(Arrays.stream(e.getCause().getStackTrace())
                    .anyMatch(f -> f.getMethodName().startsWith("takingAnEarlierRank")), "the holder's stack");
            List<String> reports = LockOrder.takeViolations();
            assertEquals(1, reports.size());
            String report = reports.get(0);
            assertTrue(report.contains("the lock held was taken at:") && report.contains("the lock is being taken at:"),
                    report);
        } finally {
            valueLog.unlock();
        }
        assertEquals(List.of(), LockOrder.heldByCurrentThread());
    }

    @Test
    void twoLocksOfOneRankAreNeverNested() {
        OrderedLock a = new OrderedLock(LockRank.TABLE_CACHE_SHARD);
        OrderedLock b = new OrderedLock(LockRank.TABLE_CACHE_SHARD);
        a.lock();
        try {
            assertThrows(LockOrderViolation.class, b::lock);
        } finally {
            a.unlock();
        }
    }

    @Test
    void theOrderReentrancyAndConditionsPass() throws InterruptedException {
        OrderedLock database = new OrderedLock(LockRank.DATABASE);
        OrderedLock valueLog = new OrderedLock(LockRank.VALUE_LOG);
        OrderedLock infoLog = new OrderedLock(LockRank.INFO_LOG);
        Condition changed = database.newCondition();
        database.lock();
        try {
            valueLog.lock();
            try {
                database.lock(); // reentrant: held already, so no new place in the order
                database.unlock();
                infoLog.lock();
                infoLog.unlock();
            } finally {
                valueLog.unlock();
            }
            assertFalse(changed.await(1, TimeUnit.MILLISECONDS));
            assertEquals(List.of(LockRank.DATABASE), LockOrder.heldByCurrentThread());
        } finally {
            database.unlock();
        }
        assertEquals(List.of(), LockOrder.heldByCurrentThread());
        assertEquals(List.of(), LockOrder.takeViolations());
        assertTrue(LockOrder.nestings().contains("DATABASE -> VALUE_LOG"), LockOrder.nestings().toString());
    }

    @Test
    void tryLockCannotDeadlockSoItIsNotCheckedButCountsAsHeld() {
        OrderedLock database = new OrderedLock(LockRank.DATABASE);
        OrderedLock valueLog = new OrderedLock(LockRank.VALUE_LOG);
        valueLog.lock();
        try {
            assertTrue(database.tryLock());
            assertEquals(List.of(LockRank.VALUE_LOG, LockRank.DATABASE), LockOrder.heldByCurrentThread());
            database.unlock();
        } finally {
            valueLog.unlock();
        }
        assertEquals(List.of(), LockOrder.takeViolations());
    }

    @Test
    void docImplLockTableListsTheRanksInOrder() throws IOException {
        Path doc = Path.of(System.getProperty("user.dir")).resolve("../doc/impl.md").normalize();
        String text = Files.readString(doc, StandardCharsets.UTF_8);
        int start = text.indexOf("## Locks, and their order");
        assertTrue(start >= 0, "doc/impl.md has a section 'Locks, and their order'");
        int end = text.indexOf("\n## ", start + 1);
        String section = text.substring(start, end < 0 ? text.length() : end);
        Matcher row = Pattern.compile("(?m)^\\| (\\d+) \\| `([A-Z_]+)`").matcher(section);
        List<String> documented = new ArrayList<>();
        while (row.find()) {
            assertEquals(documented.size() + 1, Integer.parseInt(row.group(1)), "rank numbers run 1, 2, 3...");
            documented.add(row.group(2));
        }
        List<String> ranks = Arrays.stream(LockRank.values()).map(Enum::name).toList();
        assertEquals(ranks, documented, "doc/impl.md's lock table and org.leveldbj.util.LockRank");
    }
}
