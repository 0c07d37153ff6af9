package org.leveldbj.iterator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.table.Block;
import org.leveldbj.table.BlockBuilder;

/** Inner iterators that are empty are skipped both ways; identical index values are not reopened. */
class TwoLevelIteratorTest {
    private static final BytewiseComparator CMP = BytewiseComparator.INSTANCE;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(ByteBuffer buf) {
        byte[] out = new byte[buf.remaining()];
        buf.get(buf.position(), out);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static Block block(String... keys) {
        BlockBuilder builder = new BlockBuilder(2, CMP);
        for (String k : keys) {
            builder.add(b(k), b("v" + k));
        }
        ByteBuffer done = builder.finish();
        byte[] copy = new byte[done.remaining()];
        done.get(copy);
        return new Block(ByteBuffer.wrap(copy));
    }

    @Test
    void skipsEmptyInnerIteratorsBothWays() {
        // Index: "b" -> block 0 {a, b}; "c" -> empty; "d" -> empty; "f" -> block 3 {e, f}; "g" -> empty
        List<Block> inner = List.of(block("a", "b"), block(), block(), block("e", "f"), block());
        BlockBuilder index = new BlockBuilder(1, CMP);
        String[] indexKeys = {"b", "c", "d", "f", "g"};
        for (int i = 0; i < indexKeys.length; i++) {
            index.add(b(indexKeys[i]), new byte[] {(byte) i});
        }
        ByteBuffer done = index.finish();
        byte[] copy = new byte[done.remaining()];
        done.get(copy);
        Block indexBlock = new Block(ByteBuffer.wrap(copy));
        int[] opened = new int[1];
        TwoLevelIterator it = new TwoLevelIterator(indexBlock.iterator(CMP), (value, reuse) -> {
            opened[0]++;
            return inner.get(value.get(value.position())).iterator(CMP);
        });
        List<String> seen = new ArrayList<>();
        for (it.seekToFirst(); it.valid(); it.next()) {
            seen.add(s(it.key()) + "=" + s(it.value()));
        }
        assertEquals(List.of("a=va", "b=vb", "e=ve", "f=vf"), seen);
        seen.clear();
        for (it.seekToLast(); it.valid(); it.prev()) {
            seen.add(s(it.key()));
        }
        assertEquals(List.of("f", "e", "b", "a"), seen);
        it.seek(ByteBuffer.wrap(b("c")));
        assertTrue(it.valid());
        assertEquals("e", s(it.key()));
        it.prev();
        assertEquals("b", s(it.key()));
        it.seek(ByteBuffer.wrap(b("fa")));
        assertFalse(it.valid());
        int before = opened[0];
        it.seek(ByteBuffer.wrap(b("a")));
        it.seek(ByteBuffer.wrap(b("b")));
        assertEquals(before + 1, opened[0], "the same index entry must not reopen its block");
        it.close();
    }
}
