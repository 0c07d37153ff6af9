package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.leveldbj.db.LevelDbFactory.bytes;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.nio.file.Path;
import java.util.List;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReverseIterationTest {
    @Test
    void scansRangesBackwards(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "fruit: [fruit:cherry, fruit:banana, fruit:apple]",
                "veg: [veg:leek, veg:kale]",
                "[fruit:b, veg:l): [veg:kale, fruit:cherry, fruit:banana]",
                "[a, b): []"),
                ExampleOutput.of(ReverseIteration::main, dir.toString()));
    }

    /** The idiom at the edges: an empty database, one key, bounds on keys and between them. */
    @Test
    void theIdiomVisitsExactlyTheRangeAtTheEdges(@TempDir Path dir) throws Exception {
        try (DB db = factory.open(dir.toFile(), new Options())) {
            assertEquals(List.of(), ReverseIteration.reverse(db, bytes(""), bytes("z")));
            db.put(bytes("m"), bytes("1"));
            assertEquals(List.of("m"), ReverseIteration.reverse(db, bytes(""), bytes("z")));
            assertEquals(List.of("m"), ReverseIteration.reverse(db, bytes("m"), bytes("n")));
            assertEquals(List.of(), ReverseIteration.reverse(db, bytes("a"), bytes("m")));
            assertEquals(List.of(), ReverseIteration.reverse(db, bytes("n"), bytes("z")));
            db.put(bytes("a"), bytes("1"));
            db.put(bytes("z"), bytes("1"));
            assertEquals(List.of("z", "m", "a"), ReverseIteration.reverse(db, bytes("a"), bytes("zz")));
            assertEquals(List.of("m", "a"), ReverseIteration.reverse(db, bytes("a"), bytes("z")));
            assertEquals(List.of("z", "m"), ReverseIteration.reverse(db, bytes("b"), bytes("zz")));
            assertEquals(List.of("m"), ReverseIteration.reverse(db, bytes("b"), bytes("y")));
            assertEquals(List.of(), ReverseIteration.reverse(db, bytes("b"), bytes("c")));
        }
    }
}
