package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionsTest {
    @Test
    void conflictsAreReportedAndRetriedAndTheTotalHolds(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "batch reads alice 900, bob 1000, carol null",
                "database still has alice 1000",
                "second commit: transaction conflict: key 'alice' was written at sequence N, after the"
                        + " transaction began at sequence N",
                "after 1000 transfers: alice 750, bob 750, carol 1500"),
                ExampleOutput.of(Transactions::main, dir.toString()));
    }
}
