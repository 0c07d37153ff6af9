package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The text the runner prints, compared character for character with db_bench's layout. */
class FormatTest {
    @Test
    void lineWithRate() {
        assertEquals("fillseq      :       2.090 micros/op;   52.9 MB/s",
                ReportLine.format("fillseq", 2.09, 52.94, ""));
    }

    @Test
    void lineWithMessage() {
        assertEquals("readrandom   :       6.800 micros/op; (1000000 of 1000000 found)",
                ReportLine.format("readrandom", 6.8, -1, "(1000000 of 1000000 found)"));
    }

    @Test
    void lineWithRateAndMessage() {
        assertEquals("fillsync     :     196.125 micros/op;    0.6 MB/s (1000 ops)",
                ReportLine.format("fillsync", 196.125, 0.56, "(1000 ops)"));
    }

    @Test
    void lineWithNothingElse() {
        assertEquals("compact      :  240058.327 micros/op;",
                ReportLine.format("compact", 240058.3271, -1, ""));
    }

    @Test
    void longNameAndBigNumbers() {
        assertEquals("readrandomsmall : 123456789.000 micros/op; 1234.5 MB/s",
                ReportLine.format("readrandomsmall", 123456789, 1234.5, ""));
    }

    @Test
    void skippedLine() {
        assertEquals("fillseq      : skipped (--use_existing_db is true)",
                ReportLine.skipped("fillseq", "--use_existing_db is true"));
    }

    @Test
    void headerSizes() throws FlagException {
        String n = System.lineSeparator();
        assertEquals("Keys:       16 bytes each" + n
                + "Values:     100 bytes each (50 bytes after compression)" + n
                + "Entries:    1000000" + n
                + "RawSize:    110.6 MB (estimated)" + n
                + "FileSize:   62.9 MB (estimated)" + n, Header.sizes(Flags.parse()));
        assertEquals("Values:     333 bytes each (83 bytes after compression)",
                Header.sizes(Flags.parse("--value_size=333", "--compression_ratio=0.25"))
                        .split(n)[1]);
    }

    @Test
    void histogram() {
        Histogram h = new Histogram();
        h.add(500);
        h.add(1500);
        h.add(1500);
        h.add(150_000);
        assertEquals("Count: 4  Average: 38.3750  StdDev: 64.45\n"
                + "Min: 0.5000  Median: 1.5000  Max: 150.0000\n"
                + "------------------------------------------------------\n"
                + "[       0,       1 )       1  25.000%  25.000% #####\n"
                + "[       1,       2 )       2  50.000%  75.000% ##########\n"
                + "[     140,     160 )       1  25.000% 100.000% #####\n"
                + "Percentiles: P50: 1.50 P99: 150.00 P99.9: 150.00 P99.99: 150.00 Max: 150.00\n",
                h.toString());
    }

    /**
     * Percentiles against a sorted model: the value at rank ceil(p * count), which the
     * histogram may exceed by less than one step of its precision (1/1024 above 2,048 ns) and
     * never by more than the maximum.
     */
    @Test
    void percentilesMatchASortedModelWithinThePrecision() {
        java.util.Random random = new java.util.Random(7);
        long[] values = new long[20_000];
        Histogram a = new Histogram();
        Histogram b = new Histogram();
        for (int i = 0; i < values.length; i++) {
            // mostly microseconds, with a tail up to 50 ms
            values[i] = random.nextInt(100) == 0 ? random.nextInt(50_000_000) : 500 + random.nextInt(20_000);
            (i % 2 == 0 ? a : b).add(values[i]);
        }
        a.merge(b);
        java.util.Arrays.sort(values);
        for (double p : new double[] {1, 50, 90, 99, 99.9, 99.99, 100}) {
            long exact = values[(int) Math.ceil(p / 100 * values.length) - 1];
            double got = a.percentile(p) * 1000;
            assertTrue(got >= exact && got <= exact * (1 + 1.0 / 1024) + 1,
                    "p" + p + ": " + got + " ns against " + exact);
        }
        assertEquals(values[values.length - 1] / 1000.0, a.max());
        assertEquals(values.length, a.count());
    }

    @Test
    void histogramBuckets() {
        assertEquals(154, Histogram.LIMITS.length);
        assertEquals(12, Histogram.LIMITS[10]);
        assertEquals(9e9, Histogram.LIMITS[152]);
        assertEquals(1e200, Histogram.LIMITS[153]);
    }

    @Test
    void keys() {
        assertArrayEquals("0000000000000042".getBytes(StandardCharsets.US_ASCII), Keys.DEFAULT.key(42));
        assertArrayEquals("0000002147483647".getBytes(StandardCharsets.US_ASCII),
                Keys.DEFAULT.key(Integer.MAX_VALUE));
        assertArrayEquals("0000000000000042.".getBytes(StandardCharsets.US_ASCII),
                Keys.DEFAULT.missingKey(42));
    }

    @Test
    void shorterKeys() {
        Keys ten = new Keys(10);
        assertArrayEquals("0000000042".getBytes(StandardCharsets.US_ASCII), ten.key(42));
        assertArrayEquals("2147483647".getBytes(StandardCharsets.US_ASCII), ten.key(Integer.MAX_VALUE));
        assertArrayEquals("0000000042.".getBytes(StandardCharsets.US_ASCII), ten.missingKey(42));
        Keys three = new Keys(3);
        assertTrue(three.holds(1000));
        assertFalse(three.holds(1001));
        assertThrows(IllegalArgumentException.class, () -> three.key(1000));
        assertThrows(IllegalArgumentException.class, () -> new Keys(0));
        assertThrows(IllegalArgumentException.class, () -> new Keys(Keys.MAX_SIZE + 1));
    }

    @Test
    void randomIsTheMinimalStandardGenerator() {
        BenchRandom random = new BenchRandom(1);
        assertEquals(16807, random.next());
        assertEquals(282475249, random.next());
        assertEquals(1622650073, random.next());
        assertEquals(984943658, random.next());
        BenchRandom zero = new BenchRandom(0);
        assertEquals(16807, zero.next());
        assertEquals(7, new BenchRandom(1).uniform(10));
    }

    @Test
    void progressThresholds() {
        long t = 100;
        StringBuilder seen = new StringBuilder();
        for (int i = 0; i < 14; i++) {
            seen.append(t).append(' ');
            t = Progress.nextThreshold(t);
        }
        assertEquals("100 200 300 400 500 600 700 800 900 1000 1500 2000 2500 3000 ",
                seen.toString());
        assertEquals(600000, Progress.nextThreshold(500000));
    }
}
