package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.ExtendedDB;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;

/**
 * The crash test's compaction filter: its decisions follow the operation number alone, and a
 * database it compacted reads, through {@link Values#state}, as the checks expect: doomed values
 * gone without an older value coming back, shortened values still naming their operation.
 */
class StressCompactionFilterTest {
    @Test
    void decisionsFollowTheOperationNumber() {
        StressCompactionFilter filter = new StressCompactionFilter();
        int doomed = 0;
        int shortened = 0;
        for (long op = 1; op <= 1600; op++) {
            byte[] value = Values.encode(1, 2, op, 100);
            CompactionFilter.Decision d = filter.filter(1, Keys.key(1, 2), value);
            if (Values.doomed(op)) {
                doomed++;
                assertEquals(CompactionFilter.Decision.REMOVE, d);
                assertEquals(ExpectedState.ABSENT, Values.state(1, 2, value));
            } else if (Values.shortened(op)) {
                shortened++;
                assertEquals(60, d.replacement().length);
                assertEquals(op, Values.decode(1, 2, d.replacement()), "a prefix names the same operation");
            } else {
                assertEquals(CompactionFilter.Decision.KEEP, d);
                assertEquals(op, Values.state(1, 2, value));
            }
        }
        assertTrue(doomed > 50 && doomed < 150, doomed + " doomed of 1600");
        assertTrue(shortened > 50 && shortened < 150, shortened + " shortened of 1600");
        assertEquals(CompactionFilter.Decision.KEEP, filter.filter(1, new byte[1], new byte[3]), "not a stress value");
    }

    @Test
    void aFilteredDatabaseReadsAsTheChecksExpect() throws IOException {
        Config config = Config.parse("--compaction-filter=true", "--value-threshold=1024");
        List<Long> doomedOps = new ArrayList<>();
        long op = 1;
        while (doomedOps.size() < 5) {
            if (Values.doomed(op)) {
                doomedOps.add(op);
            }
            op++;
        }
        try (ExtendedDB db = LevelDbFactory.factory.open(new File("/db"), config.options(new MemEnv()))) {
            for (int k = 0; k < doomedOps.size(); k++) {
                long older = doomedOps.get(k) - 1;
                while (Values.doomed(older)) {
                    older--;
                }
                db.put(Keys.key(0, k), Values.encode(0, k, older, 2000));
                db.compactRange(null, null);
                db.put(Keys.key(0, k), Values.encode(0, k, doomedOps.get(k), 30 + 500 * k));
            }
            db.compactRange(null, null);
            for (int k = 0; k < doomedOps.size(); k++) {
                assertNull(db.get(Keys.key(0, k)), "the doomed value is gone and the older one stays hidden");
            }
        }
    }
}
