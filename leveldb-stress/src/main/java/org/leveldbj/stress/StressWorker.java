package org.leveldbj.stress;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.Transaction;
import org.iq80.leveldb.TransactionConflictException;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;

/**
 * One stress thread: writes its own keys (puts, deletes, batches of several keys, optimistic
 * transactions that read some keys and write several, some of them made to conflict; some
 * synced, some without the log), logging each write to its {@link OpLog} before and after, and checks
 * reads as it goes: point lookups, snapshot reads against the state when the snapshot was taken,
 * forward and backward scans of its key range and of prefixes (through the prefix filters when the round has an extractor) against its model, short scans across all
 * threads' keys for order. Now and then it ingests a small table of its keys made with the table
 * writer, compacts a random key range, suspends compactions for a moment, or makes a checkpoint and checks it holds exactly its keys' model
 * ({@link Checkpoints}); thread 0 also backs the database up and checks each backup restores to
 * its model ({@link Backups}).
 *
 * <p>Because no other thread writes its keys, its model (the operation whose value each key
 * holds) is exact at every moment, so every read check is exact. A failed check throws
 * {@link IllegalStateException} describing it.
 *
 * <p>Each step done counts as one completed operation for the {@link Watchdog}; anything thrown
 * (a failed check, an exception of the engine, an error such as a lock-order checker's) prints
 * what was thrown and halts the process with {@link StressMain#FAILED_STATUS}.
 *
 * <p>Thread safety: confined to its thread. Lifetime: runs until the process ends.
 */
final class StressWorker implements Runnable {
    private static final int SCAN_LIMIT = 200;

    private final int thread;
    private final DB db;
    private final Config config;
    private final SplittableRandom random;
    private final long[] model;
    private final OpLog log;
    private final Watchdog watchdog;
    /** Thread 0's backups, {@code null} in the other threads. */
    private final Backups backups;
    private final long firstOp;
    private long nextOp;

    private Snapshot snapshot;
    private long[] snapshotModel;
    private int snapshotSteps;
    private int checkpoints;

    StressWorker(int thread, DB db, Config config, long seed, long[] model, long nextOp, OpLog log,
                 Watchdog watchdog, Backups backups) {
        this.thread = thread;
        this.db = db;
        this.config = config;
        this.random = new SplittableRandom(seed);
        this.model = model;
        this.nextOp = nextOp;
        this.firstOp = nextOp;
        this.log = log;
        this.watchdog = watchdog;
        this.backups = backups;
    }

    @Override
    public void run() {
        try {
            while (true) {
                step();
                watchdog.completed();
            }
        } catch (Throwable e) {
            System.err.println("crashtest: stress thread " + thread + " FAILED: " + e);
            e.printStackTrace();
            System.err.flush();
            Runtime.getRuntime().halt(StressMain.FAILED_STATUS);
        }
    }

    private void step() throws IOException, InterruptedException {
        if (config.inject == Config.Injection.ERROR && thread == 0 && nextOp - firstOp >= 50) {
            throw new InjectedError("lock order violation (injected): an error thrown by a stress thread");
        }
        int r = random.nextInt(10_000);
        if (r < 5_000) {
            write(Op.Kind.PUT, 1);
        } else if (r < 6_000) {
            write(Op.Kind.DELETE, 1);
        } else if (r < 7_600) {
            write(Op.Kind.BATCH, 2 + random.nextInt(7));
        } else if (r < 8_200) {
            transaction();
        } else if (r < 9_400) {
            checkGet(random.nextInt(model.length));
        } else if (r < 9_600) {
            if (snapshot == null) {
                snapshot = db.getSnapshot();
                snapshotModel = model.clone();
                snapshotSteps = 1 + random.nextInt(200);
            }
        } else if (r < 9_800) {
            if (random.nextBoolean()) {
                checkScan(random.nextBoolean());
            } else {
                checkPrefixScan();
            }
        } else if (r < 9_936) {
            scanAcrossThreads();
        } else if (r < 9_986) {
            ingest();
        } else if (r < 9_988) {
            if (backups != null) {
                backups.backUpAndCheck((ExtendedDB) db, model.clone());
            } else {
                scanAcrossThreads();
            }
        } else if (r < 9_990) {
            checkpoint();
        } else if (r < 9_998) {
            compactRandomRange();
        } else {
            pauseCompactions();
        }
        if (snapshot != null && --snapshotSteps <= 0) {
            checkSnapshot();
        }
    }

    private void write(Op.Kind kind, int count) throws IOException {
        write(kind, random.ints(0, model.length).distinct().limit(Math.min(count, model.length)).toArray());
    }

    private void write(Op.Kind kind, int[] keys) throws IOException {
        long number = nextOp++;
        boolean sync = random.nextDouble() * 100 < config.syncPercent;
        // A write may not both sync and skip the log.
        boolean unlogged = random.nextDouble() * 100 < config.disableWalPercent && !sync;
        boolean[] deletes = new boolean[keys.length];
        for (int i = 0; i < keys.length; i++) {
            deletes[i] = kind == Op.Kind.DELETE || kind == Op.Kind.BATCH && random.nextInt(4) == 0;
        }
        Op op = new Op(number, kind, sync, unlogged, keys, deletes, System.nanoTime(), -1);
        WriteOptions options = new WriteOptions().sync(sync).disableWal(unlogged);
        log.intent(op);
        if (kind == Op.Kind.PUT) {
            db.put(Keys.key(thread, keys[0]), value(keys[0], number), options);
        } else if (kind == Op.Kind.DELETE) {
            db.delete(Keys.key(thread, keys[0]), options);
        } else {
            try (WriteBatch batch = db.createWriteBatch()) {
                for (int i = 0; i < keys.length; i++) {
                    if (deletes[i]) {
                        batch.delete(Keys.key(thread, keys[i]));
                    } else {
                        batch.put(Keys.key(thread, keys[i]), value(keys[i], number));
                    }
                }
                db.write(batch, options);
            }
        }
        log.ack(number, System.nanoTime());
        for (int i = 0; i < keys.length; i++) {
            model[keys[i]] = deletes[i] ? ExpectedState.ABSENT : Values.visible(number);
        }
    }

    /**
     * An optimistic transaction on the thread's keys: reads a few (checked against the model),
     * writes a few (puts and deletes), reads one of its writes back, and commits; the commit is
     * logged as one operation, all or nothing like a batch. One time in eight the thread first
     * writes a key the transaction read or wrote (a put of its own, logged as such), and the
     * commit must then fail with a conflict naming that key and write nothing.
     */
    private void transaction() throws IOException {
        int[] reads = random.ints(0, model.length).distinct().limit(Math.min(1 + random.nextInt(3), model.length)).toArray();
        int[] keys = random.ints(0, model.length).distinct().limit(Math.min(2 + random.nextInt(5), model.length)).toArray();
        boolean[] deletes = new boolean[keys.length];
        for (int i = 0; i < keys.length; i++) {
            deletes[i] = random.nextInt(4) == 0;
        }
        boolean interfere = random.nextInt(8) == 0;
        boolean sync = random.nextDouble() * 100 < config.syncPercent;
        boolean unlogged = random.nextDouble() * 100 < config.disableWalPercent && !sync;
        WriteOptions options = new WriteOptions().sync(sync).disableWal(unlogged);
        try (Transaction txn = ((ExtendedDB) db).beginTransaction()) {
            for (int k : reads) {
                expect(k, txn.get(Keys.key(thread, k)), model[k], "transaction get");
            }
            long number = interfere ? -1 : nextOp++;
            for (int i = 0; i < keys.length; i++) {
                if (deletes[i]) {
                    txn.delete(Keys.key(thread, keys[i]));
                } else {
                    txn.put(Keys.key(thread, keys[i]), value(keys[i], interfere ? 0 : number));
                }
            }
            byte[] own = txn.get(Keys.key(thread, keys[0]));
            if ((own == null) != deletes[0]) {
                throw new IllegalStateException("transaction get of its own write to " + Keys.show(Keys.key(thread, keys[0]))
                        + " returned " + (own == null ? "absent" : "a value") + " after a " + (deletes[0] ? "delete" : "put"));
            }
            if (interfere) {
                int changed = random.nextBoolean() ? reads[0] : keys[0];
                write(Op.Kind.PUT, new int[] {changed});
                try {
                    txn.commit(options);
                } catch (TransactionConflictException e) {
                    if (!Arrays.equals(e.key(), Keys.key(thread, changed))) {
                        throw new IllegalStateException("conflict names " + Keys.show(e.key()) + ", not the key changed, "
                                + Keys.show(Keys.key(thread, changed)), e);
                    }
                    return;
                }
                throw new IllegalStateException("a transaction committed though " + Keys.show(Keys.key(thread, changed))
                        + ", which it read or wrote, was changed after it began");
            }
            Op op = new Op(number, Op.Kind.TRANSACTION, sync, unlogged, keys, deletes, System.nanoTime(), -1);
            log.intent(op);
            txn.commit(options);
            log.ack(number, System.nanoTime());
            for (int i = 0; i < keys.length; i++) {
                model[keys[i]] = deletes[i] ? ExpectedState.ABSENT : Values.visible(number);
            }
        }
    }

    /**
     * Writes a few of the thread's keys (puts and deletions) to a table file with the table
     * writer and ingests it, copied or moved. Logged as one operation, like a synced batch: the
     * model changes only once the ingestion returned, and after a crash the verification must
     * find all of it or none of it (and all of it once acknowledged).
     */
    private void ingest() throws IOException {
        long number = nextOp++;
        int count = 1 + random.nextInt(Math.min(20, model.length));
        int[] indexes = random.ints(0, model.length).distinct().limit(count).toArray();
        byte[][] keys = new byte[indexes.length][];
        Integer[] order = new Integer[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            keys[i] = Keys.key(thread, indexes[i]);
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b]));
        int[] sorted = new int[indexes.length];
        boolean[] deletes = new boolean[indexes.length];
        Path staging = config.db.resolve("ingest"); // the working directory, beside db/, removed with it
        java.nio.file.Files.createDirectories(staging);
        Path file = staging.resolve("t" + thread + "-" + number + ".sst");
        java.nio.file.Files.deleteIfExists(file);
        try (org.iq80.leveldb.TableWriter writer = ((ExtendedDB) db).newTableWriter(file.toFile())) {
            for (int i = 0; i < order.length; i++) {
                int index = indexes[order[i]];
                sorted[i] = index;
                deletes[i] = random.nextInt(5) == 0;
                if (deletes[i]) {
                    writer.delete(keys[order[i]]);
                } else {
                    writer.put(keys[order[i]], value(index, number));
                }
            }
            writer.finish();
        }
        Op op = new Op(number, Op.Kind.INGEST, true, false, sorted, deletes, System.nanoTime(), -1);
        log.intent(op);
        ((ExtendedDB) db).ingest(new org.iq80.leveldb.IngestOptions().moveFiles(random.nextBoolean()), file.toFile());
        log.ack(number, System.nanoTime());
        for (int i = 0; i < sorted.length; i++) {
            model[sorted[i]] = deletes[i] ? ExpectedState.ABSENT : Values.visible(number);
        }
        java.nio.file.Files.deleteIfExists(file);
    }

    private byte[] value(int index, long op) {
        int length = random.nextDouble() * 100 < config.largeValuePercent
                ? config.largeValueSize
                : config.valueMin + random.nextInt(config.valueMax - config.valueMin + 1);
        return Values.encode(thread, index, op, length);
    }

    private void checkGet(int index) {
        expect(index, db.get(Keys.key(thread, index)), model[index], "get");
    }

    private void checkSnapshot() throws IOException {
        ReadOptions options = new ReadOptions().snapshot(snapshot);
        for (int i = 0; i < 10; i++) {
            int index = random.nextInt(model.length);
            expect(index, db.get(Keys.key(thread, index), options), snapshotModel[index], "snapshot get");
        }
        try (DBIterator it = db.iterator(options)) {
            it.seek(Keys.prefix(thread));
            compareRange(it, true, snapshotModel, "snapshot scan");
        }
        snapshot.close();
        snapshot = null;
        snapshotModel = null;
    }

    /** Scans the thread's whole key range in one direction and compares it with the model. */
    private void checkScan(boolean forward) throws IOException {
        try (DBIterator it = db.iterator()) {
            if (forward) {
                it.seek(Keys.prefix(thread));
            } else {
                it.seek(Keys.limit(thread));
                if (!it.hasNext()) {
                    it.seekToLast();
                } else if (!it.hasPrev()) {
                    checkEmptyBelow(it);
                    return;
                } else {
                    it.prev();
                }
            }
            compareRange(it, forward, model, forward ? "forward scan" : "backward scan");
        }
    }

    /**
     * Scans one prefix with {@link ExtendedDB#prefixIterator}, forward or backward, now or at the
     * held snapshot: the thread's whole range or ten of its keys, compared with the model. Under
     * a prefix extractor the scan goes through the tables' prefix filters; either prefix length
     * may be the extractor's, longer than it, or shorter.
     */
    private void checkPrefixScan() throws IOException {
        boolean whole = random.nextBoolean();
        int from = whole ? 0 : random.nextInt(model.length) / 10 * 10;
        int to = whole ? model.length : Math.min(from + 10, model.length);
        byte[] prefix = whole ? Keys.prefix(thread) : Keys.shortPrefix(thread, from);
        boolean atSnapshot = snapshot != null && random.nextBoolean();
        long[] expected = atSnapshot ? snapshotModel : model;
        boolean forward = random.nextBoolean();
        String what = (forward ? "forward" : "backward") + " prefix scan of " + Keys.show(prefix)
                + (atSnapshot ? " at a snapshot" : "");
        long[] seen = new long[to - from];
        Arrays.fill(seen, ExpectedState.ABSENT);
        ReadOptions options = atSnapshot ? new ReadOptions().snapshot(snapshot) : new ReadOptions();
        try (DBIterator it = ((ExtendedDB) db).prefixIterator(prefix, options)) {
            if (forward) {
                it.seekToFirst();
            } else {
                it.seekToLast();
            }
            int previous = forward ? -1 : Integer.MAX_VALUE;
            boolean first = true;
            while (forward || first ? it.hasNext() : it.hasPrev()) {
                Map.Entry<byte[], byte[]> e = forward ? it.next() : first ? it.peekNext() : it.prev();
                first = false;
                int[] parsed = Keys.parse(e.getKey());
                if (parsed == null || parsed[0] != thread || parsed[1] < from || parsed[1] >= to) {
                    throw new IllegalStateException(what + ": key outside the prefix " + Keys.show(e.getKey()));
                }
                int index = parsed[1];
                if (forward ? index <= previous : index >= previous) {
                    throw new IllegalStateException(what + ": key index " + index + " after " + previous);
                }
                previous = index;
                seen[index - from] = Values.state(thread, index, e.getValue());
            }
        }
        for (int i = from; i < to; i++) {
            if (seen[i - from] != expected[i]) {
                throw new IllegalStateException(what + ": " + Keys.show(Keys.key(thread, i)) + " expected "
                        + show(expected[i]) + ", found " + show(seen[i - from]));
            }
        }
    }

    private void checkEmptyBelow(DBIterator it) {
        for (long op : model) {
            if (op != ExpectedState.ABSENT) {
                throw new IllegalStateException("backward scan of thread " + thread + ": nothing before "
                        + Keys.show(it.peekNext().getKey()) + " though the model holds keys");
            }
        }
    }

    /**
     * Compares the entries from the cursor on, in the given direction, while they are in the
     * thread's range, with the model.
     */
    private void compareRange(DBIterator it, boolean forward, long[] expected, String what) {
        long[] seen = new long[expected.length];
        Arrays.fill(seen, ExpectedState.ABSENT);
        int previous = forward ? -1 : Integer.MAX_VALUE;
        boolean first = true;
        while (forward ? it.hasNext() : first ? it.hasNext() : it.hasPrev()) {
            Map.Entry<byte[], byte[]> e = forward ? it.next() : first ? it.peekNext() : it.prev();
            first = false;
            int[] parsed = Keys.parse(e.getKey());
            if (parsed == null || parsed[0] != thread) {
                if (forward ? Arrays.compareUnsigned(e.getKey(), Keys.limit(thread)) < 0
                        : Arrays.compareUnsigned(e.getKey(), Keys.prefix(thread)) >= 0) {
                    throw new IllegalStateException(what + ": unexpected key " + Keys.show(e.getKey()));
                }
                break;
            }
            int index = parsed[1];
            if (forward ? index <= previous : index >= previous) {
                throw new IllegalStateException(what + " of thread " + thread + ": key index " + index
                        + " after " + previous);
            }
            previous = index;
            seen[index] = Values.state(thread, index, e.getValue());
        }
        for (int i = 0; i < expected.length; i++) {
            if (seen[i] != expected[i]) {
                throw new IllegalStateException(what + ": " + Keys.show(Keys.key(thread, i)) + " expected "
                        + show(expected[i]) + ", found " + show(seen[i]));
            }
        }
    }

    /** A short scan from a random key of any thread, checking only that keys are strictly ordered. */
    private void scanAcrossThreads() throws IOException {
        boolean forward = random.nextBoolean();
        try (DBIterator it = db.iterator()) {
            it.seek(Keys.key(random.nextInt(config.threads), random.nextInt(model.length)));
            byte[] previous = null;
            for (int n = 0; n < SCAN_LIMIT && (forward ? it.hasNext() : it.hasPrev()); n++) {
                byte[] key = (forward ? it.next() : it.prev()).getKey();
                if (previous != null && Arrays.compareUnsigned(previous, key) * (forward ? 1 : -1) >= 0) {
                    throw new IllegalStateException((forward ? "forward" : "backward") + " scan returned "
                            + Keys.show(key) + " after " + Keys.show(previous));
                }
                previous = key;
            }
        }
    }

    /**
     * Makes a checkpoint (see {@link Checkpoints}): no write of this thread's keys is in flight, so
     * it must hold exactly the model of them. Checked at once, then deleted.
     */
    private void checkpoint() throws IOException {
        String name = "t" + thread + "-" + nextOp + "-" + (checkpoints++);
        long[] expected = model.clone();
        Path target = Checkpoints.expect(config.db, name, thread, expected);
        ((ExtendedDB) db).checkpoint(target.toFile());
        List<String> failures = Checkpoints.check(target, config.options(null), thread, expected);
        if (!failures.isEmpty()) {
            throw new IllegalStateException(String.join("; ", failures));
        }
        Checkpoints.delete(target);
    }

    private void compactRandomRange() {
        int t = random.nextInt(config.threads);
        int a = random.nextInt(model.length);
        int b = Math.min(model.length - 1, a + random.nextInt(Math.max(1, model.length / 4)));
        db.compactRange(Keys.key(t, a), Keys.key(t, b));
    }

    /** Suspends compactions while this thread only reads (a write could stall on level 0). */
    private void pauseCompactions() throws IOException, InterruptedException {
        db.suspendCompactions();
        try {
            for (int i = random.nextInt(20); i >= 0; i--) {
                checkGet(random.nextInt(model.length));
            }
            checkScan(random.nextBoolean());
        } finally {
            db.resumeCompactions();
        }
    }

    private void expect(int index, byte[] value, long expected, String what) {
        long found = Values.state(thread, index, value);
        if (found != expected) {
            throw new IllegalStateException(what + " " + Keys.show(Keys.key(thread, index)) + ": expected "
                    + show(expected) + ", found " + show(found));
        }
    }

    private static String show(long op) {
        return op == ExpectedState.ABSENT ? "absent" : "the value of op " + op;
    }

    /** The error {@link Config.Injection#ERROR} throws, as a lock-order checker would. */
    static final class InjectedError extends Error {
        private static final long serialVersionUID = 1L;

        InjectedError(String message) {
            super(message);
        }
    }
}
