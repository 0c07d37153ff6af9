package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

class JitSettleTest {
    /** Answers the given totals in turn, then the last one for ever. */
    private static LongSupplier totals(long... values) {
        return new LongSupplier() {
            private int next;

            @Override
            public long getAsLong() {
                return values[Math.min(next++, values.length - 1)];
            }
        };
    }

    @Test
    void stopsAfterTheGivenNumberOfUnchangedPolls() throws InterruptedException {
        List<Integer> sleeps = new ArrayList<>();
        // Grows on the first three polls, then stays: three more polls see no change.
        long slept = JitSettle.await(totals(0, 10, 25, 40, 40, 40, 40, 99), sleeps::add, 50, 3, 100);
        assertEquals(6, sleeps.size());
        assertEquals(300, slept);
    }

    @Test
    void aChangeStartsTheQuietCountAgain() throws InterruptedException {
        List<Integer> sleeps = new ArrayList<>();
        long slept = JitSettle.await(totals(5, 5, 5, 9, 9, 9, 9), sleeps::add, 10, 3, 100);
        // Two quiet polls, a change, then three quiet ones.
        assertEquals(6, sleeps.size());
        assertEquals(60, slept);
    }

    @Test
    void givesUpAfterTheMostPolls() throws InterruptedException {
        long[] counter = {0};
        List<Integer> sleeps = new ArrayList<>();
        long slept = JitSettle.await(() -> counter[0]++, sleeps::add, 20, 3, 7);
        assertEquals(7, sleeps.size());
        assertEquals(140, slept);
    }
}
