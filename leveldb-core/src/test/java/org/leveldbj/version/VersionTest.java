package org.leveldbj.version;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.version.VersionSetTest.ICMP;
import static org.leveldbj.version.VersionSetTest.file;
import static org.leveldbj.version.VersionSetTest.ikey;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.MemEnv;

class VersionTest {
    private final ReentrantLock mutex = new ReentrantLock();
    private final VersionSet vs = new VersionSet(new MemEnv(), Path.of("/db"), ICMP, VersionSetTest.NO_TABLES,
            2 << 20, mutex);

    private static byte[] u(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.US_ASCII);
    }

    private Version version(List<List<FileMetaData>> levels) {
        Version v = new Version(vs, levels);
        v.finish();
        return v;
    }

    private static List<List<FileMetaData>> levels() {
        List<List<FileMetaData>> levels = new ArrayList<>();
        for (int i = 0; i < VersionSet.NUM_LEVELS; i++) {
            levels.add(new ArrayList<>());
        }
        return levels;
    }

    @Test
    void findFileBinarySearchesLargestKeys() {
        List<FileMetaData> files = List.of(file(1, "150", "200"), file(2, "200", "250"), file(3, "300", "350"));
        assertEquals(0, Version.findFile(ICMP, files, ikey("100", 100)));
        assertEquals(0, Version.findFile(ICMP, files, ikey("200", 100)));
        assertEquals(1, Version.findFile(ICMP, files, ikey("201", 100)));
        assertEquals(2, Version.findFile(ICMP, files, ikey("251", 100)));
        assertEquals(3, Version.findFile(ICMP, files, ikey("351", 100)));
        assertEquals(0, Version.findFile(ICMP, List.of(), ikey("a", 1)));
    }

    @Test
    void someFileOverlapsRangeDisjointAndNot() {
        List<FileMetaData> files = List.of(file(1, "150", "200"), file(2, "300", "350"));
        for (boolean disjoint : new boolean[] {true, false}) {
            assertFalse(Version.someFileOverlapsRange(ICMP, disjoint, files, u("100"), u("149")));
            assertFalse(Version.someFileOverlapsRange(ICMP, disjoint, files, u("201"), u("299")));
            assertFalse(Version.someFileOverlapsRange(ICMP, disjoint, files, u("351"), null));
            assertTrue(Version.someFileOverlapsRange(ICMP, disjoint, files, u("100"), u("150")));
            assertTrue(Version.someFileOverlapsRange(ICMP, disjoint, files, u("200"), u("200")));
            assertTrue(Version.someFileOverlapsRange(ICMP, disjoint, files, null, u("150")));
            assertTrue(Version.someFileOverlapsRange(ICMP, disjoint, files, u("340"), null));
            assertTrue(Version.someFileOverlapsRange(ICMP, disjoint, files, null, null));
        }
    }

    @Test
    void levelZeroOverlapExpandsTransitively() {
        List<List<FileMetaData>> levels = levels();
        levels.get(0).add(file(1, "a", "c"));
        levels.get(0).add(file(2, "b", "f"));
        levels.get(0).add(file(3, "e", "h"));
        levels.get(0).add(file(4, "x", "z"));
        Version v = version(levels);
        List<FileMetaData> in = v.getOverlappingInputs(0, ikey("a", 100), ikey("a", 100));
        assertEquals(List.of(1L, 2L, 3L), in.stream().map(FileMetaData::number).toList());
        assertEquals(4, v.getOverlappingInputs(0, null, null).size());
    }

    @Test
    void memTableOutputIsPushedDownWhenNothingOverlaps() {
        List<List<FileMetaData>> levels = levels();
        levels.get(1).add(file(1, "m", "p"));
        Version v = version(levels);
        assertEquals(2, v.pickLevelForMemTableOutput(u("a"), u("c")));
        assertEquals(0, v.pickLevelForMemTableOutput(u("n"), u("o")));
        List<List<FileMetaData>> withL0 = levels();
        withL0.get(0).add(file(1, "a", "z"));
        assertEquals(0, version(withL0).pickLevelForMemTableOutput(u("b"), u("c")));
        List<List<FileMetaData>> withL2 = levels();
        withL2.get(2).add(file(1, "a", "z"));
        assertEquals(1, version(withL2).pickLevelForMemTableOutput(u("b"), u("c")));
        List<List<FileMetaData>> bigGrandparents = levels();
        bigGrandparents.get(2).add(new FileMetaData(9, 30L << 20, ikey("a", 1), ikey("z", 1)));
        assertEquals(0, version(bigGrandparents).pickLevelForMemTableOutput(u("b"), u("c")));
    }

    @Test
    void approximateOffsetSumsEarlierFiles() {
        List<List<FileMetaData>> levels = levels();
        levels.get(1).add(file(1, "a", "c"));
        levels.get(1).add(file(2, "e", "g"));
        Version v = version(levels);
        assertEquals(0, v.approximateOffsetOf(ikey("0", 1)));
        assertEquals(1000, v.approximateOffsetOf(ikey("d", 1)));
        assertEquals(1500, v.approximateOffsetOf(ikey("f", 1)));
        assertEquals(2000, v.approximateOffsetOf(ikey("z", 1)));
    }

    @Test
    void seekBudgetNamesCompactionCandidate() {
        List<List<FileMetaData>> levels = levels();
        levels.get(1).add(file(1, "a", "c"));
        Version v = version(levels);
        Version.GetStats stats = new Version.GetStats();
        stats.seekFile = v.files(1).get(0);
        stats.seekFileLevel = 1;
        for (int i = 0; i < FileMetaData.MIN_SEEKS - 1; i++) {
            assertFalse(v.updateStats(stats));
        }
        assertTrue(v.updateStats(stats));
        assertEquals(1, v.fileToCompact().number());
        assertEquals(1, v.fileToCompactLevel());
    }

    @Test
    void seekBudgetScalesWithTheFileAndIsSpentOnce() {
        FileMetaData big = new FileMetaData(7, 300 * FileMetaData.BYTES_PER_SEEK, ikey("a", 1), ikey("b", 1));
        FileMetaData small = new FileMetaData(8, 10, ikey("a", 1), ikey("b", 1));
        assertEquals(300, big.seeksLeft());
        assertEquals(FileMetaData.MIN_SEEKS, small.seeksLeft());
        for (int i = 0; i < FileMetaData.MIN_SEEKS - 1; i++) {
            assertFalse(small.chargeSeek());
        }
        assertTrue(small.chargeSeek());
        assertTrue(small.chargeSeek(), "a spent budget stays spent, as C++'s allowed_seeks <= 0");
    }
}
