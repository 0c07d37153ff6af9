package org.leveldbj.table;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

/** Blocks of random entries, built and read back with random settings, against a sorted model. */
@ExtendWith(SeedExtension.class)
class BlockRandomizedTest {
    @Test
    void randomBlocksMatchTheModel(@Seed long seed) {
        Random r = new Random(seed);
        for (int round = 0; round < 150; round++) {
            int n = round < 5 ? round : r.nextInt(r.nextBoolean() ? 40 : 600);
            List<byte[][]> model = RandomData.entries(r, n);
            int interval = 1 + r.nextInt(32);
            BlockBuilder builder = new BlockBuilder(interval, BytewiseComparator.INSTANCE);
            for (byte[][] e : model) {
                builder.add(e[0], e[1]);
            }
            ByteBuffer built = builder.finish();
            byte[] bytes = new byte[built.remaining()];
            built.get(bytes);
            boolean direct = r.nextBoolean();
            ByteBuffer contents = direct ? ModelChecker.direct(bytes) : ByteBuffer.wrap(bytes);
            Block block = new Block(contents);
            // Sometimes a tiny budget, so that stepping back re-decodes instead of using kept keys.
            int budget = r.nextInt(4) == 0 ? r.nextInt(64) : BlockIterator.DEFAULT_REVERSE_KEY_BUDGET;
            String context = "seed " + seed + " round " + round + " (" + model.size() + " entries, interval "
                    + interval + ", " + (direct ? "direct" : "heap") + ", budget " + budget + ")";
            ModelChecker.check(new BlockIterator(BytewiseComparator.INSTANCE, block, budget), model, r, context);
        }
    }
}
