package org.leveldbj.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockHandle;
import org.leveldbj.table.BlockIterator;
import org.leveldbj.table.BloomFilterPolicy;
import org.leveldbj.table.FilterBlockReader;
import org.leveldbj.table.FilterKeyExtractor;
import org.leveldbj.table.Footer;

/**
 * Fuzzes the pieces of a table on their own, where the fuzzer need not get past checksums: a
 * block and its iterator, a filter block, and the footer.
 *
 * <p>Inputs: the bytes of the block, filter block or footer, with no header.
 */
@ExtendWith(FuzzEnvironment.class)
class BlockFuzzTest {
    /** Entries kept from a scan to compare and seek to. */
    private static final int KEPT = 256;

    /**
     * A block documents {@link CorruptionException} for a malformed restart array (at
     * construction, or from the iterator's step that relies on a point) and for a malformed
     * entry (from its iterator), and nothing else. Complete
     * forward and backward scans visit the same entries in opposite orders; seeking to a key a
     * scan saw lands on an entry.
     */
    @FuzzTest(maxDuration = "30s")
    void iterate(byte[] input) {
        Block block;
        try {
            block = new Block(ByteBuffer.wrap(input));
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, null);
            return;
        }
        assertEquals(input.length, block.size());
        List<byte[]> forward = new ArrayList<>();
        List<byte[]> backward = new ArrayList<>();
        boolean forwardDone = scan(block, true, forward);
        boolean backwardDone = scan(block, false, backward);
        if (forwardDone && backwardDone && forward.size() < KEPT) {
            assertEquals(forward.size(), backward.size(), "forward and backward scans differ in length");
            for (int i = 0; i < forward.size(); i++) {
                assertArrayEquals(forward.get(i), backward.get(forward.size() - 1 - i), "scans differ at " + i);
            }
        }
        BlockIterator it = block.iterator(BytewiseComparator.INSTANCE);
        List<byte[]> targets = new ArrayList<>(forward);
        targets.add(new byte[0]);
        targets.add(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff});
        for (byte[] target : targets) {
            try {
                it.seek(ByteBuffer.wrap(target));
                if (it.valid()) {
                    it.key();
                    it.value();
                    it.prev();
                }
            } catch (CorruptionException e) {
                FuzzFiles.checkReport(e, null);
            }
        }
    }

    private static boolean scan(Block block, boolean forward, List<byte[]> keys) {
        BlockIterator it = block.iterator(BytewiseComparator.INSTANCE);
        try {
            if (forward) {
                it.seekToFirst();
            } else {
                it.seekToLast();
            }
            while (it.valid()) {
                if (keys.size() < KEPT) {
                    keys.add(FuzzFiles.copy(it.key()));
                }
                ByteBuffer value = it.value();
                assertTrue(value.remaining() <= block.size());
                if (forward) {
                    it.next();
                } else {
                    it.prev();
                }
            }
            return true;
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, null);
            assertTrue(!it.valid(), "an iterator that reported corruption stays positioned");
            return false;
        }
    }

    /**
     * A filter block documents that malformed bytes never fail: the answer is then "may
     * match". So every query must return, for any block offset and key.
     */
    @FuzzTest(maxDuration = "30s")
    void filter(byte[] input) {
        FilterBlockReader plain = new FilterBlockReader(new BloomFilterPolicy(10), FilterKeyExtractor.WHOLE_KEY,
                ByteBuffer.wrap(input));
        FilterBlockReader internal = new FilterBlockReader(new BloomFilterPolicy(10),
                FilterKeyExtractor.dropSuffix(8), ByteBuffer.wrap(input));
        byte[][] keys = {new byte[0], {'a'}, "key000001".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
            new byte[40]};
        long[] offsets = {0, 1, 2047, 2048, 4096, 1L << 20, Long.MAX_VALUE};
        for (long offset : offsets) {
            for (byte[] key : keys) {
                plain.keyMayMatch(offset, ByteBuffer.wrap(key));
                internal.keyMayMatch(offset, ByteBuffer.wrap(key));
            }
        }
    }

    /**
     * The footer decoder documents {@link CorruptionException} ("footer too short", "bad magic
     * number", "bad block handle") and nothing else; a decoded footer re-encodes to 48 bytes
     * that decode to the same handles, and so do the handles on their own.
     */
    @FuzzTest(maxDuration = "30s")
    void footer(byte[] input) {
        Footer footer;
        try {
            footer = Footer.decode(ByteBuffer.wrap(input), 0, input.length);
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, null);
            return;
        }
        assertTrue(footer.index().offset() >= 0 && footer.index().size() >= 0);
        byte[] again = footer.encode();
        assertEquals(Footer.ENCODED_LENGTH, again.length);
        assertEquals(footer, Footer.decode(ByteBuffer.wrap(again), 0, again.length));
        try {
            BlockHandle handle = BlockHandle.decode(ByteBuffer.wrap(input));
            assertEquals(handle, BlockHandle.decode(ByteBuffer.wrap(handle.encode())));
        } catch (CorruptionException e) {
            FuzzFiles.checkReport(e, null);
        }
    }
}
