package org.leveldbj.version;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.iq80.leveldb.CorruptionException;
import org.junit.jupiter.api.Test;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;

class VersionEditTest {
    private static byte[] ikey(String user, long seq, ValueType type) {
        return InternalKeys.encode(user.getBytes(StandardCharsets.US_ASCII), seq, type);
    }

    private static VersionEdit fullEdit() {
        VersionEdit edit = new VersionEdit()
                .setComparatorName("leveldb.BytewiseComparator")
                .setLogNumber(100)
                .setPrevLogNumber(99)
                .setNextFileNumber(1L << 40)
                .setLastSequence(InternalKeys.MAX_SEQUENCE);
        for (int i = 0; i < 4; i++) {
            edit.addFile(i, new FileMetaData(3000 + i, 1L << (20 + i), ikey("foo" + i, 5 + i, ValueType.VALUE),
                    ikey("zoo" + i, 6 + i, ValueType.DELETION)));
            edit.deleteFile(VersionEdit.NUM_LEVELS - 1 - i, 4000 + i);
            edit.setCompactPointer(i, ikey("x" + i, 900 + i, ValueType.VALUE));
        }
        return edit;
    }

    @Test
    void everyTagRoundTrips() {
        VersionEdit edit = fullEdit();
        byte[] encoded = edit.encode();
        VersionEdit decoded = VersionEdit.decode(encoded);
        assertArrayEquals(encoded, decoded.encode());
        assertEquals("leveldb.BytewiseComparator", decoded.comparatorName());
        assertEquals(100L, decoded.logNumber());
        assertEquals(99L, decoded.prevLogNumber());
        assertEquals(1L << 40, decoded.nextFileNumber());
        assertEquals(InternalKeys.MAX_SEQUENCE, decoded.lastSequence());
        assertEquals(4, decoded.newFiles().size());
        assertEquals(edit.newFiles(), decoded.newFiles());
        assertEquals(edit.compactPointers(), decoded.compactPointers());
        // Deleted files come out ordered by (level, number) whatever the insertion order.
        assertEquals(List.of(new VersionEdit.DeletedFile(3, 4003), new VersionEdit.DeletedFile(4, 4002),
                new VersionEdit.DeletedFile(5, 4001), new VersionEdit.DeletedFile(6, 4000)), decoded.deletedFiles());
    }

    @Test
    void knownBytes() {
        VersionEdit edit = new VersionEdit()
                .setComparatorName("cmp")
                .setLogNumber(5)
                .setPrevLogNumber(0)
                .setNextFileNumber(300)
                .setLastSequence(7)
                .deleteFile(1, 2)
                .addFile(2, new FileMetaData(9, 1000, ikey("a", 1, ValueType.VALUE), ikey("b", 2, ValueType.DELETION)));
        byte[] expected = {
            1, 3, 'c', 'm', 'p',            // comparator
            2, 5,                           // log number
            9, 0,                           // prev log number
            3, (byte) 0xac, 0x02,           // next file number 300
            4, 7,                           // last sequence
            6, 1, 2,                        // deleted file level 1 #2
            7, 2, 9, (byte) 0xe8, 0x07,     // new file level 2 #9 size 1000
            9, 'a', 1, 1, 0, 0, 0, 0, 0, 0, // smallest 'a' @ 1 : value
            9, 'b', 0, 2, 0, 0, 0, 0, 0, 0, // largest 'b' @ 2 : deletion
        };
        assertArrayEquals(expected, edit.encode());
    }

    @Test
    void everyTruncationIsReportedAsCorruption() {
        byte[] encoded = fullEdit().encode();
        for (int cut = 1; cut < encoded.length; cut++) {
            byte[] truncated = Arrays.copyOf(encoded, cut);
            try {
                VersionEdit.decode(truncated);
                // A cut that falls exactly between fields decodes to a shorter edit: fine.
            } catch (CorruptionException e) {
                assertTrue(e.reason().startsWith("VersionEdit: bad "), e.getMessage());
                assertTrue(e.offset() >= 0 && e.offset() < cut, e.getMessage());
            }
        }
    }

    @Test
    void unknownTagsAndLevelsAreRejected() {
        CorruptionException tag8 = assertThrows(CorruptionException.class, () -> VersionEdit.decode(new byte[] {8, 1}));
        assertEquals("VersionEdit: bad tag field (unknown tag 8)", tag8.reason());
        assertEquals(0, tag8.offset());
        byte[] badLevel = {2, 1, 6, 7, 1};
        CorruptionException level = assertThrows(CorruptionException.class, () -> VersionEdit.decode(badLevel));
        assertEquals("VersionEdit: bad deleted file field (level 7 out of range [0, 7))", level.reason());
        assertEquals(2, level.offset());
        byte[] shortKey = {5, 0, 3, 'a', 'b', 'c'};
        assertEquals("VersionEdit: bad compaction pointer field (internal key too short (3 bytes))",
                assertThrows(CorruptionException.class, () -> VersionEdit.decode(shortKey)).reason());
        assertThrows(IllegalArgumentException.class, () -> new VersionEdit().deleteFile(7, 1));
    }
}
