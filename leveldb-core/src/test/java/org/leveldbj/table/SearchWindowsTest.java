package org.leveldbj.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.comparator.UserComparators;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.testing.ReverseBytewiseComparator;
import org.leveldbj.testing.Seed;
import org.leveldbj.testing.SeedExtension;
import org.leveldbj.util.Bytes;

/**
 * Seeks in blocks with many restart points, where {@link SearchWindows} decide most steps,
 * against a sorted model: internal keys (trailer order included) and plain bytewise keys with
 * long shared prefixes, zero bytes, keys that are prefixes of others, and targets inside,
 * between, before and after the keys, or without the shared prefix.
 */
@ExtendWith(SeedExtension.class)
class SearchWindowsTest {
    private static final InternalKeyComparator INTERNAL = new InternalKeyComparator(BytewiseComparator.INSTANCE);

    @Test
    void internalKeySeeksMatchTheModel(@Seed long seed) {
        Random r = new Random(seed);
        for (int round = 0; round < 60; round++) {
            String context = "seed " + seed + " round " + round;
            String prefix = r.nextBoolean() ? "" : "0000000000".substring(r.nextInt(10));
            TreeSet<byte[]> keys = new TreeSet<>(INTERNAL::compare);
            int n = SearchWindows.MIN_RESTARTS + r.nextInt(400);
            while (keys.size() < n) {
                keys.add(internalKey(randomUserKey(r, prefix), r));
            }
            Block block = build(new ArrayList<>(keys), 1 + r.nextInt(3), INTERNAL);
            BlockIterator it = new BlockIterator(INTERNAL, block);
            for (int probe = 0; probe < 300; probe++) {
                byte[] target = r.nextInt(4) == 0 ? keys.toArray(new byte[0][])[r.nextInt(n)]
                        : internalKey(randomUserKey(r, r.nextInt(5) == 0 ? "" : prefix), r);
                byte[] expected = keys.ceiling(target);
                it.seek(ByteBuffer.wrap(target));
                if (expected == null) {
                    assertFalse(it.valid(), context + ": seek past the end");
                } else {
                    assertTrue(it.valid(), context + ": seek " + Bytes.escape(target));
                    assertArrayEquals(expected, Bytes.toArray(it.key()), context + ": seek " + Bytes.escape(target));
                }
            }
        }
    }

    @Test
    void bytewiseSeeksWithZerosAndPrefixKeysMatchTheModel(@Seed long seed) {
        Random r = new Random(seed);
        Comparator<byte[]> order = BytewiseComparator.INSTANCE::compare;
        for (int round = 0; round < 60; round++) {
            String context = "seed " + seed + " round " + round;
            TreeSet<byte[]> keys = new TreeSet<>(order);
            byte[] shared = new byte[r.nextInt(12)];
            r.nextBytes(shared);
            int n = SearchWindows.MIN_RESTARTS + r.nextInt(300);
            while (keys.size() < n) {
                keys.add(concat(shared, zeroHeavy(r, r.nextInt(14))));
            }
            Block block = build(new ArrayList<>(keys), 1, BytewiseComparator.INSTANCE);
            assertNotNull(built(block, 0), context);
            BlockIterator it = new BlockIterator(BytewiseComparator.INSTANCE, block);
            for (int probe = 0; probe < 300; probe++) {
                byte[] target = r.nextInt(6) == 0 ? zeroHeavy(r, r.nextInt(6)) : concat(shared, zeroHeavy(r, r.nextInt(14)));
                byte[] expected = keys.ceiling(target);
                it.seek(ByteBuffer.wrap(target));
                assertEquals(expected != null, it.valid(), context + ": seek " + Bytes.escape(target));
                if (expected != null) {
                    assertArrayEquals(expected, Bytes.toArray(it.key()), context + ": seek " + Bytes.escape(target));
                }
            }
        }
    }

    @Test
    void windowsStartAfterTheSharedPrefixAndNeedManyRestarts() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            keys.add(String.format("user/%010d", i * 7).getBytes(StandardCharsets.US_ASCII));
        }
        Block block = build(keys, 1, BytewiseComparator.INSTANCE);
        SearchWindows w = built(block, 0);
        assertNotNull(w);
        assertEquals("user/0000000".length(), w.prefixLength());
        assertNull(block.searchWindows(-1), "an order without the promise gets none");
        Block small = build(keys.subList(0, SearchWindows.MIN_RESTARTS - 1), 1, BytewiseComparator.INSTANCE);
        assertNull(built(small, 0), "too few restart points");
        Block sparse = build(keys, 16, BytewiseComparator.INSTANCE);
        assertNull(built(sparse, 0), "7 restart points");
        assertEquals(8, INTERNAL.bytewisePrefixTrim());
        // An application's comparator makes no promise, whatever its order.
        KeyComparator custom = UserComparators.of(ReverseBytewiseComparator.INSTANCE);
        assertEquals(-1, custom.bytewisePrefixTrim());
        assertEquals(-1, new InternalKeyComparator(custom).bytewisePrefixTrim());
    }

    @Test
    void anIndexBlocksShortSuccessorLastKeyKeepsThePrefix() {
        // An index block's last key is the short successor of the table's last key: "1" after
        // keys that all start "0000000000", sharing nothing with them.
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            byte[] user = String.format("%016d", 1000 + i * 37).getBytes(StandardCharsets.US_ASCII);
            keys.add(InternalKeys.encode(user, InternalKeys.MAX_SEQUENCE, ValueType.FOR_SEEK));
        }
        keys.add(InternalKeys.encode(new byte[] {'1'}, InternalKeys.MAX_SEQUENCE, ValueType.FOR_SEEK));
        Block block = build(keys, 1, INTERNAL);
        SearchWindows w = built(block, INTERNAL.bytewisePrefixTrim());
        assertNotNull(w);
        assertEquals(12, w.prefixLength(), "the keys but the last share 000000000001, 000000000002 or ...: " + w);
        BlockIterator it = new BlockIterator(INTERNAL, block);
        for (int i = 900; i < 5000; i += 7) {
            byte[] target = InternalKeys.encode(String.format("%016d", i).getBytes(StandardCharsets.US_ASCII), 5,
                    ValueType.VALUE);
            it.seek(ByteBuffer.wrap(target));
            byte[] expected = null;
            for (byte[] k : keys) {
                if (INTERNAL.compare(k, target) >= 0) {
                    expected = k;
                    break;
                }
            }
            assertArrayEquals(expected, Bytes.toArray(it.key()), "seek " + i);
        }
        byte[] beyond = InternalKeys.encode(new byte[] {'2'}, 5, ValueType.VALUE);
        it.seek(ByteBuffer.wrap(beyond));
        assertFalse(it.valid());
    }

    private static Block build(List<byte[]> keys, int interval, KeyComparator comparator) {
        BlockBuilder builder = new BlockBuilder(interval, comparator);
        for (byte[] k : keys) {
            builder.add(k, k);
        }
        ByteBuffer built = builder.finish();
        byte[] bytes = new byte[built.remaining()];
        built.get(bytes);
        return new Block(ByteBuffer.wrap(bytes));
    }

    private static byte[] randomUserKey(Random r, String prefix) {
        return (prefix + r.nextInt(r.nextBoolean() ? 1000 : 1_000_000)).getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] internalKey(byte[] user, Random r) {
        long sequence = r.nextInt(4) == 0 ? InternalKeys.MAX_SEQUENCE : r.nextInt(1000);
        return InternalKeys.encode(user, sequence, r.nextBoolean() ? ValueType.VALUE : ValueType.DELETION);
    }

    /** Random bytes, mostly zeros and small values, so that zero padding is often ambiguous. */
    private static byte[] zeroHeavy(Random r, int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            int x = r.nextInt(10);
            b[i] = (byte) (x < 5 ? 0 : x < 8 ? 1 : r.nextInt(256));
        }
        return b;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * Windows are built only after a block has been searched numRestarts / 8 times without
     * them, so that a table opened for a few reads does not pay for them; then they are kept.
     */
    @Test
    void windowsWaitUntilTheBlockIsSearchedOftenEnough() {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            keys.add(String.format("user/%010d", i * 7).getBytes(StandardCharsets.US_ASCII));
        }
        Block block = build(keys, 1, BytewiseComparator.INSTANCE);
        int wait = 400 / Block.SEARCHES_PER_RESTART_TO_BUILD;
        for (int i = 0; i < wait; i++) {
            assertNull(block.searchWindows(0), "search " + i);
        }
        SearchWindows w = block.searchWindows(0);
        assertNotNull(w);
        assertSame(w, block.searchWindows(0), "kept");
    }

    /** The windows of a block once built: searched until the block builds them (at most numRestarts / 8 + 1 times). */
    private static SearchWindows built(Block block, int trim) {
        SearchWindows w = null;
        for (int i = 0; i <= 1000 && w == null; i++) {
            w = block.searchWindows(trim);
        }
        return w;
    }
}
