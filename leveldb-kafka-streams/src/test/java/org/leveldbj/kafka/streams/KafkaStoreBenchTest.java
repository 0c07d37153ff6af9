package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Each suite of bin/kafka-store-bench works end to end on a few records and prints its
 * comparison table (nothing is measured here).
 */
class KafkaStoreBenchTest {
    /** A benchmark's entry point. */
    private interface Main {
        void run(String[] args) throws Exception;
    }

    private static void assertPrintsRows(Main main, String[] args, String... rows) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            main.run(args);
        } finally {
            System.setOut(original);
        }
        String printed = out.toString(StandardCharsets.UTF_8);
        for (String row : rows) {
            assertTrue(printed.contains(row), row + " in:\n" + printed);
        }
    }

    @Test
    void keyValueSuite() throws Exception {
        assertPrintsRows(StoreBenchmark::main, new String[] {"--records=3000", "--rounds=2"},
                "| put |", "| get |", "| range scan |", "| put+commit |", "| restore |", "| restore (random order) |");
    }

    @Test
    void windowSuite() throws Exception {
        assertPrintsRows(WindowStoreBenchmark::main,
                new String[] {"--records=3000", "--rounds=2", "--keys=50", "--step-ms=1000"},
                "| window put |", "| window fetch |", "| window fetchAll |", "| session merge |");
    }

    @Test
    void versionedSuite() throws Exception {
        assertPrintsRows(VersionedStoreBenchmark::main, new String[] {"--records=3000", "--keys=300", "--rounds=2"},
                "| put in order |", "| put out of order |", "| get latest |", "| get as of |");
    }

    @Test
    void entriesSuite() throws Exception {
        assertPrintsRows(EntryCountBenchmark::main,
                new String[] {"--records=20000", "--large-records=2000", "--rewritten-keys=2000", "--rewrites=5"},
                "| 20,000 distinct 4-byte keys |", "| 20,000 distinct 4-byte keys, half deleted |",
                "| 2,000 distinct 1 KiB keys |", "| 2,000 4-byte keys written 5 times (10,000 writes), at checkpoints |");
    }

    @Test
    void topologySuite() throws Exception {
        assertPrintsRows(TopologyBenchmark::main, new String[] {"--records=300", "--rounds=1"},
                "| leveldbj |", "| rocksdb |", "| in-memory |");
    }
}
