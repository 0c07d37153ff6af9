package org.leveldbj.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;

@ExtendWith(SeedExtension.class)
class SkipListTest {
    private static final byte[] EMPTY = new byte[0];

    private static long insert(Arena arena, SkipList list, int key, long sequence) {
        byte[] k = ByteBuffer.allocate(4).putInt(key).array();
        long node = list.newNode(MemTableEntry.encodedLength(4, 0));
        MemTableEntry.write(arena.buffer(node), SkipList.entry(node),
                InternalKeys.packTrailer(sequence, ValueType.VALUE), k, 0, 4, EMPTY, 0, 0);
        list.insert(node);
        return node;
    }

    private static int keyOf(Arena arena, long node) {
        long key = MemTableEntry.internalKey(arena.buffer(node), SkipList.entry(node));
        // A duplicate is big-endian, the order the key was written in.
        return arena.buffer(node).duplicate().getInt(MemTableEntry.start(key));
    }

    @Test
    void emptyList() {
        try (Arena arena = new Arena(4096)) {
            SkipList list = new SkipList(arena, BytewiseComparator.INSTANCE, 1);
            assertEquals(Arena.NULL, list.first());
            assertEquals(Arena.NULL, list.last());
            assertEquals(Arena.NULL, list.seek(ByteBuffer.allocate(0), 0, 0, 0));
        }
    }

    @Test
    void prevAndNextPointersAreInverseAndHeightsFollowTheBranchingFactor(@Seed long seed) {
        Random random = new Random(seed);
        List<Integer> keys = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            keys.add(i * 2);
        }
        Collections.shuffle(keys, random);
        try (Arena arena = new Arena(64 * 1024)) {
            SkipList list = new SkipList(arena, BytewiseComparator.INSTANCE, random.nextLong());
            int[] heightCounts = new int[SkipList.MAX_HEIGHT + 1];
            for (int k : keys) {
                long node = insert(arena, list, k, 1);
                heightCounts[list.height(node)]++;
            }
            long previous = Arena.NULL;
            int expected = 0;
            for (long x = list.first(); x != Arena.NULL; x = list.next(x)) {
                assertEquals(expected, keyOf(arena, x));
                assertEquals(previous, list.prev(x));
                previous = x;
                expected += 2;
            }
            assertEquals(40_000, expected);
            assertEquals(previous, list.last());
            // P(height >= 2) = 1/4: about 5,000 of 20,000; allow a wide margin.
            int tall = 20_000 - heightCounts[1];
            assertTrue(tall > 4_000 && tall < 6_000, "nodes of height >= 2: " + tall);
            assertEquals(0, heightCounts[0]);
        }
    }

    @Test
    void seekFindsTheFirstEntryAtOrAfterTheTarget() {
        try (Arena arena = new Arena(4096)) {
            SkipList list = new SkipList(arena, BytewiseComparator.INSTANCE, 7);
            for (int k = 0; k < 1000; k += 10) {
                insert(arena, list, k, 5);
            }
            for (int target = -1; target < 1000; target++) {
                ByteBuffer t = ByteBuffer.allocate(4).putInt(0, target);
                long node = list.seek(t, 0, 4, InternalKeys.packTrailer(5, ValueType.VALUE));
                if (target < 0 || target > 990) {
                    // -1 is 0xffffffff unsigned: after every key.
                    assertEquals(Arena.NULL, node, "target " + target);
                } else {
                    assertEquals((target + 9) / 10 * 10, keyOf(arena, node), "target " + target);
                }
                // An older snapshot trailer sorts after the entry of the same user key.
                long older = list.seek(t, 0, 4, InternalKeys.packTrailer(4, ValueType.VALUE));
                if (target >= 0 && target < 990 && target % 10 == 0) {
                    assertEquals(target + 10, keyOf(arena, older));
                }
            }
        }
    }
}
