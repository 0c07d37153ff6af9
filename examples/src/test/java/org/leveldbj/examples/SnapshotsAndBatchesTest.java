package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotsAndBatchesTest {
    @Test
    void snapshotsSeeEveryBatchWholeOrNotAtAll(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "now: alice 700, bob 1300",
                "in the snapshot: alice 1000, bob 1000",
                "200 snapshots during the transfers, totals other than 2000: 0",
                "after 1000 transfers: alice 1700, bob 300"),
                ExampleOutput.of(SnapshotsAndBatches::main, dir.toString()));
    }
}
