package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** VersionedStoreBenchmark works end to end on a few records (it measures nothing here). */
class VersionedStoreBenchmarkTest {
    @Test
    void aSmallRunPrintsTheComparisonTable() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            VersionedStoreBenchmark.main(new String[] {"--records=3000", "--keys=300", "--rounds=2"});
        } finally {
            System.setOut(original);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        for (String row : new String[] {"| put in order |", "| put out of order |", "| get latest |", "| get as of |"}) {
            assertTrue(printed.contains(row), row + " in:\n" + printed);
        }
    }
}
