package org.leveldbj.stress;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
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
 * last acknowledged synced one (a power failure).
 *
 * <p>Writes made with {@code WriteOptions.disableWal} are not in the log: one survives a crash
 * only if its memtable was flushed to a table first, and then so did everything before it. So
 * the rule becomes: the thread's keys hold the state after its first {@code f} operations (the
 * last flush) followed by those of operations {@code f+1..p} that went through the log, for some
 * {@code f <= p} with {@code p >= minP}; such writes are never required ({@code minP} counts only
 * logged writes), and they are not acknowledged-durable even after they return.
 *
 * <p>A failure is classified as:
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
                v.acknowledgedUnlogged += op.acked() && op.unlogged() ? 1 : 0;
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
     * Checks one thread. Returns {@code {pMin, pMax}}, the least and the greatest {@code p} of the
     * explanations {@code (f, p)} the database matches (both at least the required one), or
     * {@code null} after a defect.
     *
     * <p>An explanation {@code (f, p)}, {@code f <= p}: the first {@code f} operations survived in
     * tables (a flush took them, logged or not), and of the operations {@code f+1..p} those written
     * with the log (replayed from it). Without writes that skip the log, {@code f} makes no
     * difference and the explanations are the prefixes. Only the flush points just after a write
     * without the log give new explanations, so only those are tried.
     */
    private static int[] checkThread(int t, long[] base, long[] found, List<Op> ops, boolean requireUnsynced,
                                     Verification v) {
        int n = ops.size();
        int minP = 0;
        for (int i = 0; i < n; i++) {
            Op op = ops.get(i);
            if (op.acked() && !op.unlogged() && (requireUnsynced || op.sync())) {
                minP = i + 1;
            }
        }
        // cur = the state after the first f operations; mismatches = keys where it differs from found.
        long[] cur = base.clone();
        int[] mismatches = new int[1];
        for (int k = 0; k < cur.length; k++) {
            mismatches[0] += cur[k] != found[k] ? 1 : 0;
        }
        int[] window = {Integer.MAX_VALUE, -1};
        int[] undoKeys = new int[16];
        long[] undoStates = new long[16];
        int f = 0;
        while (true) {
            // The explanations (f, p) for p = f..n: apply the logged operations after f, then undo them.
            int undone = 0;
            for (int p = f; p <= n; p++) {
                Op op = p > f ? ops.get(p - 1) : null;
                if (op != null && !op.unlogged()) {
                    for (int j = 0; j < op.keys().length; j++) {
                        if (undone == undoKeys.length) {
                            undoKeys = Arrays.copyOf(undoKeys, 2 * undone);
                            undoStates = Arrays.copyOf(undoStates, 2 * undone);
                        }
                        int k = op.keys()[j];
                        undoKeys[undone] = k;
                        undoStates[undone++] = cur[k];
                        set(cur, found, mismatches, k, op.deletes()[j] ? ExpectedState.ABSENT : op.number());
                    }
                }
                if (p >= minP && mismatches[0] == 0) {
                    window[0] = Math.min(window[0], p);
                    window[1] = Math.max(window[1], p);
                }
            }
            while (undone > 0) {
                undone--;
                set(cur, found, mismatches, undoKeys[undone], undoStates[undone]);
            }
            // The next flush point that changes anything: just after the next write without the log.
            int next = f;
            while (next < n && !ops.get(next).unlogged()) {
                next++;
            }
            if (next == n) {
                break;
            }
            for (int i = f; i <= next; i++) {
                Op op = ops.get(i);
                for (int j = 0; j < op.keys().length; j++) {
                    set(cur, found, mismatches, op.keys()[j], op.deletes()[j] ? ExpectedState.ABSENT : op.number());
                }
            }
            f = next + 1;
        }
        if (window[1] >= 0) {
            return window;
        }
        classify(t, base, found, ops, minP, v);
        return null;
    }

    /** Sets key {@code k} of {@code cur} to {@code state}, keeping the count of mismatches with {@code found}. */
    private static void set(long[] cur, long[] found, int[] mismatches, int k, long state) {
        mismatches[0] -= cur[k] != found[k] ? 1 : 0;
        cur[k] = state;
        mismatches[0] += cur[k] != found[k] ? 1 : 0;
    }

    /**
     * Describes why no allowed explanation of the thread's operations matches the database. Key by
     * key first: the state of a write may be found while no later write of the key that went
     * through the log is required (a later write without the log may always be missing); a state
     * that only an overwritten required write allows is a lost write, a state no write left is a
     * bad value. When every key alone is allowed, the keys together are not: a torn batch or an
     * order violation.
     */
    private static void classify(int t, long[] base, long[] found, List<Op> ops, int minP, Verification v) {
        int n = ops.size();
        // Per key, where its state changes: {position, state, 1 if that write skipped the log}.
        Map<Integer, List<long[]>> timelines = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Op op = ops.get(i);
            for (int j = 0; j < op.keys().length; j++) {
                timelines.computeIfAbsent(op.keys()[j], k -> new ArrayList<>(List.of(new long[] {0, base[k], 0})))
                        .add(new long[] {i + 1, op.deletes()[j] ? ExpectedState.ABSENT : op.number(),
                            op.unlogged() ? 1 : 0});
            }
        }
        int[] lo = new int[found.length];
        int[] hi = new int[found.length];
        boolean defect = false;
        for (int k = 0; k < found.length; k++) {
            List<long[]> timeline = timelines.getOrDefault(k, List.of(new long[] {0, base[k], 0}));
            lo[k] = Integer.MAX_VALUE;
            hi[k] = -1;
            boolean consistentBefore = false;
            for (int s = 0; s < timeline.size(); s++) {
                int from = (int) timeline.get(s)[0];
                int to = s + 1 < timeline.size() ? (int) timeline.get(s + 1)[0] - 1 : n;
                int nextLogged = n + 1;
                for (int later = s + 1; later < timeline.size(); later++) {
                    if (timeline.get(later)[2] == 0) {
                        nextLogged = (int) timeline.get(later)[0];
                        break;
                    }
                }
                if (timeline.get(s)[1] != found[k]) {
                    continue;
                }
                if (nextLogged <= minP) {
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
        long unlogged = ops.stream().filter(Op::unlogged).count();
        if (unlogged > 0) {
            v.orderViolation("each key of thread " + t + " holds a state it may hold, but no flush point and prefix of"
                    + " its " + n + " operations of the round (" + unlogged + " without the log; at least " + minP
                    + " required) give them all");
            return;
        }
        for (int i = minP + 1; i <= n; i++) {
            Op op = ops.get(i - 1);
            if (op.kind() != Op.Kind.BATCH && op.kind() != Op.Kind.INGEST) {
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

    /**
     * Across threads: a logged write present implies every logged write acknowledged before it
     * began. The write taken as present is the last logged one of the thread's least explanation
     * (every explanation holds it); a write without the log may be missing whatever came after it.
     */
    private static void checkAcrossThreads(List<List<Op>> logs, int[][] window, Verification v) {
        for (int t = 0; t < window.length; t++) {
            if (window[t] == null) {
                continue;
            }
            int last = window[t][0];
            while (last > 0 && logs.get(t).get(last - 1).unlogged()) {
                last--;
            }
            if (last == 0) {
                continue;
            }
            Op present = logs.get(t).get(last - 1);
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
                while (before > 0 && other.get(before - 1).unlogged()) {
                    before--;
                }
                if (before > window[u][1]) {
                    int missing = window[u][1];
                    while (other.get(missing).unlogged()) {
                        missing++;
                    }
                    v.orderViolation("thread " + t + "'s " + present + " is present but thread " + u + "'s "
                            + other.get(missing) + ", acknowledged before it began, is missing");
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
