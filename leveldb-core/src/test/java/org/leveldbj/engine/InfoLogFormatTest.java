package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The info log's own formatting gives what {@link String#format} gives for the engine's messages. */
class InfoLogFormatTest {
    @Test
    void percentSAndPercentDAsStringFormatAndAnythingElseThroughIt() {
        Object[][] cases = {
            {"Level-0 table #%d: %d bytes, placed at level %d", 12L, 4096L, 0},
            {"Delete type=%s #%d", "table", 7L},
            {"Reclaiming value files %s", List.of(3L, 5L)},
            {"100%% done: %s", "yes"},
            {"null %s", null},
            {"hex %x", 255},
            {"%5d|%-3s|", 42, "a"},
        };
        for (Object[] c : cases) {
            String format = (String) c[0];
            Object[] args = java.util.Arrays.copyOfRange(c, 1, c.length);
            assertEquals(String.format(java.util.Locale.ROOT, format, args), InfoLog.format(format, args), format);
        }
    }
}
