package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaWordCountTest {
    @Test
    void countsWordsInALeveldbjStore(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "brown 1",
                "dog 1",
                "end 1",
                "fox 1",
                "jumps 1",
                "lazy 1",
                "over 1",
                "quick 1",
                "the 3",
                "store: " + Path.of("word-count", "0_0", "leveldb", "counts")),
                ExampleOutput.of(KafkaWordCount::main, dir.toString()));
    }
}
