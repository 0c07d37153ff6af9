package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The window and session store benchmark works end to end on a few records (it measures nothing here). */
class WindowStoreBenchmarkTest {
    @Test
    void aSmallRunPrintsTheComparisonTable() throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            WindowStoreBenchmark.main(new String[] {"--records=3000", "--rounds=2", "--keys=50", "--step-ms=1000"});
        } finally {
            System.setOut(original);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        for (String row : new String[] {"| window put |", "| window fetch |", "| window fetchAll |", "| session merge |"}) {
            assertTrue(printed.contains(row), row + " in:\n" + printed);
        }
    }
}
