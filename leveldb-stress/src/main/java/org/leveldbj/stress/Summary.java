package org.leveldbj.stress;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The totals of a crash-test run and its first failure, if any. Not thread-safe; the driver
 * fills it.
 */
final class Summary {
    int rounds;
    final Map<KillPoint, Integer> kills = new EnumMap<>(KillPoint.class);
    double seconds;
    long acknowledged;
    long acknowledgedSynced;
    long acknowledgedUnlogged;
    long lost;
    long orderViolations;
    long tornBatches;
    long badValues;
    /** The first failure, described with everything needed to look into it; null when none. */
    String failure;

    Summary() {
        for (KillPoint p : KillPoint.values()) {
            kills.put(p, 0);
        }
    }

    boolean ok() {
        return failure == null;
    }

    void add(Verification v) {
        acknowledged += v.acknowledged;
        acknowledgedSynced += v.acknowledgedSynced;
        acknowledgedUnlogged += v.acknowledgedUnlogged;
        lost += v.lost;
        orderViolations += v.orderViolations;
        tornBatches += v.tornBatches;
        badValues += v.badValues;
    }

    /** The summary line. */
    String line() {
        StringBuilder killed = new StringBuilder();
        for (KillPoint p : KillPoint.values()) {
            killed.append(killed.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%,d ", kills.get(p)))
                    .append(p == KillPoint.RANDOM ? "random kills" : p.name().toLowerCase(Locale.ROOT));
        }
        return String.format(Locale.ROOT,
                "crashtest: %,d rounds (%s) in %.0f s;"
                        + " %,d ops acknowledged (%,d synced, %,d without the log), %,d lost, %,d order violations,"
                        + " %,d torn batches, %,d bad values: %s",
                rounds, killed, seconds, acknowledged,
                acknowledgedSynced, acknowledgedUnlogged, lost, orderViolations, tornBatches, badValues,
                ok() ? "OK" : "FAILED");
    }
}
