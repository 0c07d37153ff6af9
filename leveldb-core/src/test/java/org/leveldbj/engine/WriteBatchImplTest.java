package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;
import org.leveldbj.util.Bytes;

class WriteBatchImplTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Renders a batch's records the way leveldb's write_batch_test prints them. */
    private static String dump(WriteBatchImpl batch) {
        List<String> out = new ArrayList<>();
        batch.forEach(new WriteBatchImpl.Handler() {
            @Override
            public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
                out.add("Put(" + new String(data, keyOffset, keyLength, StandardCharsets.US_ASCII) + ", "
                        + new String(data, valueOffset, valueLength, StandardCharsets.US_ASCII) + ")");
            }

            @Override
            public void delete(byte[] data, int keyOffset, int keyLength) {
                out.add("Delete(" + new String(data, keyOffset, keyLength, StandardCharsets.US_ASCII) + ")");
            }
        });
        return String.join("", out);
    }

    @Test
    void emptyBatchIsJustTheHeader() {
        WriteBatchImpl batch = new WriteBatchImpl();
        assertEquals(0, batch.size());
        assertEquals(12, batch.approximateSize());
        assertEquals("", dump(batch));
    }

    @Test
    void knownEncoding() {
        WriteBatchImpl batch = new WriteBatchImpl().put(b("foo"), b("bar")).delete(b("box"));
        batch.setSequence(100);
        byte[] expected = {
            100, 0, 0, 0, 0, 0, 0, 0, // sequence
            2, 0, 0, 0,               // count
            1, 3, 'f', 'o', 'o', 3, 'b', 'a', 'r',
            0, 3, 'b', 'o', 'x',
        };
        assertArrayEquals(expected, Bytes.toArray(batch.contents()));
        assertEquals(expected.length, batch.approximateSize());
        assertEquals(2, batch.size());
        assertEquals(100, batch.sequence());
        assertEquals("Put(foo, bar)Delete(box)", dump(batch));
    }

    @Test
    void appendConcatenatesRecords() {
        WriteBatchImpl first = new WriteBatchImpl().put(b("a"), b("va"));
        WriteBatchImpl second = new WriteBatchImpl().delete(b("b")).put(b("c"), b(""));
        first.append(second);
        assertEquals(3, first.size());
        assertEquals("Put(a, va)Delete(b)Put(c, )", dump(first));
        first.clear();
        assertEquals(0, first.size());
        assertEquals(12, first.approximateSize());
    }

    @Test
    void contentsRoundTripThroughSetContents() {
        WriteBatchImpl batch = new WriteBatchImpl().put(b("k"), b("v")).delete(b("k"));
        batch.setSequence(7);
        WriteBatchImpl copy = new WriteBatchImpl();
        copy.setContents(batch.contents());
        assertEquals(7, copy.sequence());
        assertEquals(2, copy.size());
        assertEquals("Put(k, v)Delete(k)", dump(copy));
    }

    @Test
    void malformedBatchesAreCorruption() {
        WriteBatchImpl tooSmall = new WriteBatchImpl();
        assertEquals("malformed WriteBatch (too small)", assertThrows(CorruptionException.class,
                () -> tooSmall.setContents(ByteBuffer.wrap(new byte[11]))).reason());

        byte[] good = Bytes.toArray(new WriteBatchImpl().put(b("key"), b("value")).contents());
        for (int cut = 13; cut < good.length; cut++) {
            WriteBatchImpl truncated = new WriteBatchImpl();
            truncated.setContents(ByteBuffer.wrap(Arrays.copyOf(good, cut)));
            assertEquals("bad WriteBatch Put",
                    assertThrows(CorruptionException.class, () -> dump(truncated)).reason(), "cut at " + cut);
        }

        byte[] wrongCount = good.clone();
        wrongCount[8] = 2;
        WriteBatchImpl counted = new WriteBatchImpl();
        counted.setContents(ByteBuffer.wrap(wrongCount));
        assertEquals("WriteBatch has wrong count (header says 2, found 1)",
                assertThrows(CorruptionException.class, () -> dump(counted)).reason());

        byte[] badTag = good.clone();
        badTag[12] = 9;
        WriteBatchImpl tagged = new WriteBatchImpl();
        tagged.setContents(ByteBuffer.wrap(badTag));
        CorruptionException e = assertThrows(CorruptionException.class, () -> dump(tagged));
        assertEquals("unknown WriteBatch tag 9", e.reason());
        assertEquals(12, e.offset());
    }

    @Test
    void nullsAndUseAfterCloseAreRejected() {
        WriteBatchImpl batch = new WriteBatchImpl();
        assertThrows(IllegalArgumentException.class, () -> batch.put(null, b("v")));
        assertThrows(IllegalArgumentException.class, () -> batch.put(b("k"), null));
        assertThrows(IllegalArgumentException.class, () -> batch.delete(null));
        batch.close();
        assertThrows(org.iq80.leveldb.DBException.class, () -> batch.put(b("k"), b("v")));
    }

    /** The array that holds exactly a batch's encoding (ByteSink's smallest is 16 bytes). */
    private static int exactArray(WriteBatchImpl batch) {
        return Math.max(16, batch.contents().remaining());
    }

    @Test
    void aBatchSizedForOneRecordEncodesItInOneExactArray() {
        int[] lengths = {0, 1, 127, 128, 16_383, 16_384, 2_097_152};
        for (int keyLength : lengths) {
            for (int valueLength : lengths) {
                byte[] key = new byte[keyLength];
                byte[] value = new byte[valueLength];
                Arrays.fill(key, (byte) 'k');
                Arrays.fill(value, (byte) 'v');
                WriteBatchImpl expected = new WriteBatchImpl().put(key, value);
                WriteBatchImpl sized = new WriteBatchImpl(WriteBatchImpl.recordSize(keyLength, valueLength)).put(key, value);
                String what = "key " + keyLength + ", value " + valueLength;
                assertEquals(expected.contents(), sized.contents(), what);
                assertEquals(exactArray(expected), sized.contents().capacity(), what + ": array length");
            }
            byte[] key = new byte[keyLength];
            WriteBatchImpl expected = new WriteBatchImpl().delete(key);
            WriteBatchImpl sized = new WriteBatchImpl(WriteBatchImpl.recordSize(keyLength, -1)).delete(key);
            assertEquals(expected.contents(), sized.contents(), "delete, key " + keyLength);
            assertEquals(exactArray(expected), sized.contents().capacity(), "delete, key " + keyLength);
        }
    }

    @Test
    void aRecordTooLargeForAnyBatchGetsTheDefaultRoomAndGrowsAsBefore() {
        WriteBatchImpl batch = new WriteBatchImpl(WriteBatchImpl.recordSize(16, Integer.MAX_VALUE - 4));
        assertEquals(256, batch.contents().capacity());
        assertEquals(0, batch.size());
        batch.put(b("k"), b("v"));
        assertEquals("Put(k, v)", dump(batch));
    }
}
