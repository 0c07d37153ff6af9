package org.leveldbj.stress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;

/**
 * Checks a reopened database against the expected state: the verified state at the start of
 * the round plus each thread's log of operations since.
 *
 * <p>All writes go through one log in commit order, so what a crash leaves is a prefix of the
 * global commit order, hence for each thread a prefix of its own operations. For thread
 * {@code t} with operations {@code o1..on} this checks that the thread's keys hold exactly the
 * state after {@code o1..op} for some {@code p} with {@code minP <= p <= n}, where {@code minP}
 * is the last acknowledged operation ({@code --require-unsynced=true}, a process crash) or the
 * last acknowledged synced one (a power failure). A failure is classified as:
 * <ul>
 *   <li><b>lost</b>: a key holds an older state than {@code minP} allows;</li>
 *   <li><b>torn batch</b>: some keys of a batch hold its values and others do not;</li>
 *   <li><b>order violation</b>: a key holds the value of a later operation while another lacks an
 *       earlier one; or, across threads, an operation is present while an operation of another
 *       thread acknowledged before it started is missing;</li>
 *   <li><b>bad value</b>: a value no operation wrote for its key (damaged bytes, a foreign key),
 *       or a point lookup that disagrees with the scan.</li>
 * </ul>
 *
 * <p>Thread safety: stateless; {@link #verify} reads the database with one iterator and point
 * lookups, so nothing else should write it meanwhile.
 */
final class Verifier {
    private Verifier() {
    }

    /**
     * Verifies a database.
     *
     * @param db the reopened database
     * @param base the verified state at the start of the round
     * @param logs each thread's operations since, from its {@link OpLog}
     * @param requireUnsynced whether acknowledged writes without sync must survive too
     * @return the defects and the recovered state
     */
    static Verification verify(DB db, ExpectedState base, List<List<Op>> logs, boolean requireUnsynced) {
        Verification v = new Verification();
        int threads = base.threads();
        int keys = base.keysPerThread();
        for (List<Op> ops : logs) {
            for (Op op : ops) {
                v.acknowledged += op.acked() ? 1 : 0;
                v.acknowledgedSynced += op.acked() && op.sync() ? 1 : 0;
            }
        }
        ExpectedState found = new ExpectedState(threads, keys);
        boolean[] readable = scan(db, found, v);
        lookups(db, found, readable, v);

        int[][] window = new int[threads][];
        for (int t = 0; t < threads; t++) {
            List<Op> ops = t < logs.size() ? logs.get(t) : List.of();
            long last = ops.isEmpty() ? 0 : ops.get(ops.size() - 1).number();
            found.setNextOp(t, Math.max(base.nextOp(t), last + 1));
            if (readable[t]) {
                window[t] = checkThread(t, base.row(t), found.row(t), ops, requireUnsynced, v);
            }
        }
        checkAcrossThreads(logs, window, v);
        v.setRecovered(found);
        return v;
    }

    /** Reads every entry in order into {@code found}; returns which threads' rows are sound. */
    private static boolean[] scan(DB db, ExpectedState found, Verification v) {
        boolean[] readable = new boolean[found.threads()];
        Arrays.fill(readable, true);
        byte[] previous = null;
        try (DBIterator it = db.iterator()) {
            for (it.seekToFirst(); it.hasNext(); ) {
                Map.Entry<byte[], byte[]> e = it.next();
                byte[] key = e.getKey();
                if (previous != null && Arrays.compareUnsigned(previous, key) >= 0) {
                    v.badValue("the scan returned " + Keys.show(key) + " after " + Keys.show(previous));
                }
                previous = key;
                int[] parsed = Keys.parse(key);
                if (parsed == null || parsed[0] >= found.threads() || parsed[1] >= found.keysPerThread()) {
                    v.badValue("unexpected key " + Keys.show(key));
                    continue;
                }
                try {
                    found.row(parsed[0])[parsed[1]] = Values.decode(parsed[0], parsed[1], e.getValue());
                } catch (IllegalArgumentException ex) {
                    v.badValue("key " + Keys.show(key) + ": " + ex.getMessage());
                    readable[parsed[0]] = false;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return readable;
    }

    /** Every key read with {@code get} must agree with the scan. */
    private static void lookups(DB db, ExpectedState found, boolean[] readable, Verification v) {
        for (int t = 0; t < found.threads(); t++) {
            if (!readable[t]) {
                continue;
            }
            long[] row = found.row(t);
            for (int k = 0; k < row.length; k++) {
                byte[] value = db.get(Keys.key(t, k));
                long op;
                try {
                    op = value == null ? ExpectedState.ABSENT : Values.decode(t, k, value);
                } catch (IllegalArgumentException e) {
                    v.badValue("get " + Keys.show(Keys.key(t, k)) + ": " + e.getMessage());
                    continue;
                }
                if (op != row[k]) {
                    v.badValue("get " + Keys.show(Keys.key(t, k)) + " returned " + show(op) + ", the scan "
                            + show(row[k]));
                }
            }
        }
    }

    /**
     * Checks one thread. Returns {@code {pMin, pMax}}, the prefixes of its operations the
     * database matches (both at least the required one), or {@code null} after a defect.
     */
    private static int[] checkThread(int t, long[] base, long[] found, List<Op> ops, boolean requireUnsynced,
                                     Verification v) {
        int n = ops.size();
        int minP = 0;
        for (int i = 0; i < n; i++) {
            Op op = ops.get(i);
            if (op.acked() && (requireUnsynced || op.sync())) {
                minP = i + 1;
            }
        }
        // cur = the state after the first p operations; mismatches = keys where it differs from found.
        long[] cur = base.clone();
        int mismatches = 0;
        for (int k = 0; k < cur.length; k++) {
            mismatches += cur[k] != found[k] ? 1 : 0;
        }
        BitSet matches = new BitSet(n + 1);
        matches.set(0, mismatches == 0);
        for (int p = 1; p <= n; p++) {
            Op op = ops.get(p - 1);
            for (int j = 0; j < op.keys().length; j++) {
                int k = op.keys()[j];
                mismatches -= cur[k] != found[k] ? 1 : 0;
                cur[k] = op.deletes()[j] ? ExpectedState.ABSENT : op.number();
                mismatches += cur[k] != found[k] ? 1 : 0;
            }
            matches.set(p, mismatches == 0);
        }
        int pMin = matches.nextSetBit(minP);
        if (pMin >= 0) {
            return new int[] {pMin, matches.previousSetBit(n)};
        }
        classify(t, base, found, ops, minP, v);
        return null;
    }

    /** Describes why no allowed prefix of the thread's operations matches the database. */
    private static void classify(int t, long[] base, long[] found, List<Op> ops, int minP, Verification v) {
        int n = ops.size();
        // Per key, the prefixes p in [minP, n] whose state of the key is what was found.
        Map<Integer, List<long[]>> timelines = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Op op = ops.get(i);
            for (int j = 0; j < op.keys().length; j++) {
                timelines.computeIfAbsent(op.keys()[j], k -> new ArrayList<>(List.of(new long[] {0, base[k]})))
                        .add(new long[] {i + 1, op.deletes()[j] ? ExpectedState.ABSENT : op.number()});
            }
        }
        int[] lo = new int[found.length];
        int[] hi = new int[found.length];
        boolean defect = false;
        for (int k = 0; k < found.length; k++) {
            List<long[]> timeline = timelines.getOrDefault(k, List.of(new long[] {0, base[k]}));
            lo[k] = Integer.MAX_VALUE;
            hi[k] = -1;
            boolean consistentBefore = false;
            for (int s = 0; s < timeline.size(); s++) {
                int from = (int) timeline.get(s)[0];
                int to = s + 1 < timeline.size() ? (int) timeline.get(s + 1)[0] - 1 : n;
                if (timeline.get(s)[1] != found[k]) {
                    continue;
                }
                if (to < minP) {
                    consistentBefore = true;
                } else {
                    lo[k] = Math.min(lo[k], Math.max(from, minP));
                    hi[k] = Math.max(hi[k], to);
                }
            }
            if (hi[k] >= 0) {
                continue;
            }
            defect = true;
            String what = Keys.show(Keys.key(t, k)) + ": expected " + describe(stateAt(timeline, minP), ops)
                    + (minP < n ? " or later" : "") + ", found " + describe(found[k], ops);
            if (consistentBefore) {
                v.lost(what);
            } else {
                v.badValue(what + ", which no operation of thread " + t + " left there");
            }
        }
        if (defect) {
            return;
        }
        for (int i = minP + 1; i <= n; i++) {
            Op op = ops.get(i - 1);
            if (op.kind() != Op.Kind.BATCH) {
                continue;
            }
            List<String> applied = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (int k : op.keys()) {
                if (lo[k] >= i) {
                    applied.add(Keys.show(Keys.key(t, k)) + "=" + describe(found[k], ops));
                } else if (hi[k] < i) {
                    missing.add(Keys.show(Keys.key(t, k)) + "=" + describe(found[k], ops));
                }
            }
            if (!applied.isEmpty() && !missing.isEmpty()) {
                v.tornBatch(op + ": present at " + applied + ", missing at " + missing);
                return;
            }
        }
        int later = 0;
        int earlier = 0;
        for (int k = 1; k < found.length; k++) {
            later = lo[k] > lo[later] ? k : later;
            earlier = hi[k] < hi[earlier] ? k : earlier;
        }
        if (lo[later] <= hi[earlier]) {
            v.orderViolation("no prefix of thread " + t + "'s " + n + " operations of the round (at least " + minP
                    + " required) matches its keys");
            return;
        }
        v.orderViolation(Keys.show(Keys.key(t, later)) + " holds " + describe(found[later], ops)
                + " (operation " + lo[later] + " of the round) but " + Keys.show(Keys.key(t, earlier)) + " holds "
                + describe(found[earlier], ops) + ", missing " + ops.get(hi[earlier]));
    }

    /** Across threads: an operation present implies every write acknowledged before it began. */
    private static void checkAcrossThreads(List<List<Op>> logs, int[][] window, Verification v) {
        for (int t = 0; t < window.length; t++) {
            if (window[t] == null || window[t][0] == 0) {
                continue;
            }
            Op present = logs.get(t).get(window[t][0] - 1);
            for (int u = 0; u < window.length; u++) {
                if (u == t || window[u] == null) {
                    continue;
                }
                List<Op> other = logs.get(u);
                int before = 0;
                while (before < other.size() && other.get(before).acked()
                        && other.get(before).ackNanos() < present.intentNanos()) {
                    before++;
                }
                if (before > window[u][1]) {
                    v.orderViolation("thread " + t + "'s " + present + " is present but thread " + u + "'s "
                            + other.get(window[u][1]) + ", acknowledged before it began, is missing");
                }
            }
        }
    }

    private static long stateAt(List<long[]> timeline, int p) {
        long state = timeline.get(0)[1];
        for (long[] step : timeline) {
            if (step[0] <= p) {
                state = step[1];
            }
        }
        return state;
    }

    private static String describe(long op, List<Op> ops) {
        if (op == ExpectedState.ABSENT) {
            return "absent";
        }
        for (Op o : ops) {
            if (o.number() == op) {
                return "value of " + o;
            }
        }
        return "value of op " + op + " (an earlier round)";
    }

    private static String show(long op) {
        return op == ExpectedState.ABSENT ? "absent" : "op " + op;
    }
}
