package org.leveldbj.benchmark;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.leveldbj.db.LevelDbFactory;

/**
 * The space experiment of value separation: writes {@code keys} keys with values of
 * {@code value-size} bytes, overwrites every key twice, lets the database reclaim its garbage,
 * and prints the live data, the value files and the whole directory, in bytes and as ratios.
 *
 * <pre>bin/value-space [keys] [value-size] [value-threshold] [garbage-ratio]</pre>
 * (defaults 2000, 100000, 65536, 0.25). Exit code 0, or 2 for bad arguments.
 */
public final class ValueSpace {
    private ValueSpace() {
    }

    /**
     * Runs the experiment.
     *
     * @param args keys, value size, value threshold, garbage ratio (all optional)
     * @throws Exception if the database fails
     */
    public static void main(String[] args) throws Exception {
        int keys;
        int valueSize;
        int threshold;
        double ratio;
        try {
            keys = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
            valueSize = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
            threshold = args.length > 2 ? Integer.parseInt(args[2]) : 65536;
            ratio = args.length > 3 ? Double.parseDouble(args[3]) : 0.25;
            if (args.length > 4 || keys < 1 || valueSize < 1 || valueSize > ValueGenerator.DATA_SIZE || threshold < 0
                    || !(ratio > 0 && ratio <= 1)) {
                throw new NumberFormatException("out of range");
            }
        } catch (NumberFormatException e) {
            System.err.println("usage: bin/value-space [KEYS >= 1] [VALUE_SIZE 1-" + ValueGenerator.DATA_SIZE
                    + "] [THRESHOLD >= 0] [GARBAGE_RATIO in (0, 1]] (" + e.getMessage() + ")");
            System.exit(2);
            return;
        }
        Path dir = Files.createTempDirectory("value-space");
        Options options = new Options().valueThreshold(threshold).valueGarbageRatio(ratio);
        ValueGenerator.Cursor values = new ValueGenerator(0.5).cursor();
        long live = 0;
        long start = System.nanoTime();
        try (DB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
            for (int round = 0; round < 3; round++) {
                live = 0;
                for (int i = 0; i < keys; i++) {
                    byte[] key = Keys.DEFAULT.key(i);
                    byte[] value = values.next(valueSize);
                    db.put(key, value);
                    live += key.length + value.length;
                }
                report(round == 0 ? "written once" : "overwritten " + (round == 1 ? "once" : "twice"), dir, live);
            }
            // Reclamation runs in the background; give it time to settle.
            long previous = -1;
            for (int second = 0; second < 120; second++) {
                Thread.sleep(1000);
                long now = directoryBytes(dir);
                if (now == previous && now <= 1.5 * live) {
                    break;
                }
                previous = now;
            }
            report("after reclamation (" + (System.nanoTime() - start) / 1_000_000_000 + " s in all)", dir, live);
            System.out.println(db.getProperty("leveldbj.value-files"));
        } finally {
            LevelDbFactory.factory.destroy(new File(dir.toString()), new Options());
        }
    }

    private static void report(String when, Path dir, long live) throws IOException {
        long all = directoryBytes(dir);
        long values = valueFileBytes(dir);
        System.out.printf(Locale.ROOT, "%-40s live %,d bytes; value files %,d (%.2f x live); directory %,d (%.2f x live)%n",
                when, live, values, (double) values / live, all, (double) all / live);
    }

    private static long directoryBytes(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(ValueSpace::size).sum();
        }
    }

    private static long valueFileBytes(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".vlog")).mapToLong(ValueSpace::size).sum();
        }
    }

    private static long size(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0; // deleted meanwhile
        }
    }
}
