package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class CorruptionExceptionTest {

    @Test
    void messageFollowsLevelDbsWording() {
        assertEquals("Corruption: block checksum mismatch: 000005.ldb at offset 4096",
                new CorruptionException("block checksum mismatch", "000005.ldb", 4096)
                        .getMessage());
        assertEquals("Corruption: bad varint32", new CorruptionException("bad varint32")
                .getMessage());
        assertEquals("Corruption: truncated: at offset 7",
                new CorruptionException("truncated", null, 7).getMessage());
    }

    @Test
    void partsAreAvailableSeparately() {
        IOException cause = new IOException("inflate");
        CorruptionException e = new CorruptionException("bad block", "x.ldb", 12, cause);
        assertEquals("bad block", e.reason());
        assertEquals("x.ldb", e.file());
        assertEquals(12, e.offset());
        assertSame(cause, e.getCause());
        DBException asDbException = e;
        assertEquals(e.getMessage(), asDbException.getMessage());
    }

    @Test
    void atPlacesAnUnlocatedReportInAFile() {
        CorruptionException inBlock = new CorruptionException("bad entry", null, 10);
        CorruptionException located = inBlock.at("000007.ldb", 4096);
        assertEquals("000007.ldb", located.file());
        assertEquals(4106, located.offset());
        assertEquals("Corruption: bad entry: 000007.ldb at offset 4106", located.getMessage());
        assertArrayEquals(inBlock.getStackTrace(), located.getStackTrace());

        CorruptionException noOffset = new CorruptionException("bad varint32").at("a.log", 32);
        assertEquals(32, noOffset.offset());
    }

    @Test
    void atKeepsAReportThatAlreadyNamesAFile() {
        CorruptionException e = new CorruptionException("bad", "a.ldb", 1);
        assertSame(e, e.at("b.ldb", 100));
        assertNull(new CorruptionException("bad").file());
    }
}
