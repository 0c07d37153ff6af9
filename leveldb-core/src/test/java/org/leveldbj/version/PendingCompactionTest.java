package org.leveldbj.version;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The pending-compaction estimate against sums worked out by hand. */
class PendingCompactionTest {
    private static final long MIB = 1L << 20;

    @Test
    void levelsWithinTheirTargetsOweNothing() {
        assertEquals(0, PendingCompaction.bytes(3, new long[] {3 * MIB, 10 * MIB, 100 * MIB, 0, 0, 0, 0}));
    }

    @Test
    void aFullLevelZeroOwesAllItsBytesAndPushesThemDown() {
        // Level 0 (4 tables) owes 8 MiB; level 1 then holds 8 + 5 = 13 MiB, 3 over its 10.
        assertEquals(11 * MIB, PendingCompaction.bytes(4, new long[] {8 * MIB, 5 * MIB, 0, 0, 0, 0, 0}));
    }

    @Test
    void excessCascadesAndTheLastLevelOwesNothing() {
        // Level 1: 15 - 10 = 5; level 2: 98 + 5 - 100 = 3; level 6 has no target.
        long[] levels = {0, 15 * MIB, 98 * MIB, 0, 0, 0, 999_999 * MIB};
        assertEquals(8 * MIB, PendingCompaction.bytes(0, levels));
    }
}
