package org.leveldbj.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The budget's arithmetic: usage counts memtables taking writes and being flushed; past the
 * capacity, with at least half of it in memtables taking writes and not yet asked for, the
 * largest of those is asked (once) to switch; switching answers; flushing and leaving give the
 * memory back.
 */
class MemTableBudgetTest {
    private final List<String> asked = new ArrayList<>();

    @Test
    void pastTheCapacityTheLargestMemTableIsAskedOnce() {
        MemTableBudget budget = new MemTableBudget(1000);
        MemTableBudget.Member a = budget.join("a", () -> asked.add("a"));
        MemTableBudget.Member b = budget.join("b", () -> asked.add("b"));
        a.memTableIs(400);
        b.memTableIs(300);
        assertEquals(700, budget.usage());
        a.memTableIs(600);
        assertEquals(List.of(), asked, "under the capacity: no ask");
        b.memTableIs(450); // 1050: over; a holds the most
        assertEquals(List.of("a"), asked);
        assertTrue(a.isAsked());
        assertFalse(b.isAsked());
        b.memTableIs(460); // still over, but what is not asked for (460) is under half: no new ask
        a.memTableIs(620); // a again: asked already
        assertEquals(List.of("a"), asked);

        a.switched(); // a's 620 bytes are being flushed; asked no more
        assertFalse(a.isAsked());
        assertEquals(1080, budget.usage(), "a memtable being flushed still counts");
        b.memTableIs(600); // 1220: 600 taking writes, none asked for: b is asked
        assertEquals(List.of("a", "b"), asked);
        a.flushed();
        assertEquals(600, budget.usage());
        b.switched();
        b.flushed();
        assertEquals(0, budget.usage());
    }

    @Test
    void anEmptyMemTableAnswersAndALeavingMemberTakesItsMemoryAlong() {
        MemTableBudget budget = new MemTableBudget(100);
        MemTableBudget.Member a = budget.join("a", () -> asked.add("a"));
        MemTableBudget.Member b = budget.join("b", () -> asked.add("b"));
        a.memTableIs(80);
        b.memTableIs(30);
        assertEquals(List.of("a"), asked);
        a.answered();
        assertFalse(a.isAsked());
        a.switched();
        assertEquals(2, budget.members());
        a.leave();
        a.leave(); // idempotent
        assertEquals(30, budget.usage());
        assertEquals(1, budget.members());
        a.memTableIs(500); // a member that left reports nothing
        assertEquals(30, budget.usage());
        b.leave();
        assertEquals(0, budget.usage());
        assertEquals(0, budget.members());
    }

    @Test
    void theCapacityMustBePositive() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MemTableBudget(0));
        assertEquals("a write buffer budget must be above 0 bytes, but was 0", e.getMessage());
        assertEquals(5, new MemTableBudget(5).capacity());
    }
}
