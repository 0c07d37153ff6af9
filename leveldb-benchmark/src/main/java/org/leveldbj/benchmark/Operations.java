package org.leveldbj.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Map;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.WriteBatch;

/** The loops of the timed workloads; each runs in one thread and counts into its stats. */
final class Operations {
    private Operations() {
    }

    static void writeSequential(WorkloadContext context, ThreadState thread) {
        write(context, thread, true);
    }

    static void writeRandom(WorkloadContext context, ThreadState thread) {
        write(context, thread, false);
    }

    private static void write(WorkloadContext context, ThreadState thread, boolean sequential) {
        if (context.num != context.keySpace) {
            thread.stats.addMessage("(" + context.num + " ops)");
        }
        ValueGenerator.Cursor values = context.values.cursor();
        long bytes = 0;
        for (int i = 0; i < context.num; i += context.entriesPerBatch) {
            if (context.entriesPerBatch == 1) {
                byte[] key = context.keys.key(sequential ? i : thread.random.uniform(context.keySpace));
                int size = valueSize(context, thread);
                context.db.put(key, values.next(size), context.writeOptions);
                bytes += size + key.length;
                thread.stats.finishedSingleOp();
                continue;
            }
            try (WriteBatch batch = context.db.createWriteBatch()) {
                for (int j = 0; j < context.entriesPerBatch; j++) {
                    int k = sequential ? i + j : thread.random.uniform(context.keySpace);
                    byte[] key = context.keys.key(k);
                    int size = valueSize(context, thread);
                    batch.put(key, values.next(size));
                    bytes += size + key.length;
                    thread.stats.finishedSingleOp();
                }
                context.db.write(batch, context.writeOptions);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        thread.stats.addBytes(bytes);
    }

    /** The most entries {@link #writeByIngest} puts in one table file. */
    static final int INGEST_FILE_ENTRIES = 1_000_000;

    /**
     * fillseq's entries by bulk loading: sorted entries written with the database's table writer
     * into files of at most {@link #INGEST_FILE_ENTRIES} entries in a directory beside the
     * database, then one ingest moving them all in. Timed from the first put to the ingest's
     * return.
     */
    static void writeByIngest(WorkloadContext context, ThreadState thread) {
        if (!(context.db instanceof org.iq80.leveldb.ExtendedDB db)) {
            throw new IllegalStateException("fillingest needs a database with ExtendedDB.ingest (leveldbj)");
        }
        java.io.File staging = new java.io.File(context.dir.getAbsoluteFile().getParentFile(),
                context.dir.getName() + ".ingest-" + thread.index);
        if (!staging.isDirectory() && !staging.mkdirs()) {
            throw new UncheckedIOException(new IOException("cannot create " + staging));
        }
        ValueGenerator.Cursor values = context.values.cursor();
        java.util.List<java.io.File> files = new java.util.ArrayList<>();
        long bytes = 0;
        try {
            for (int start = 0; start < context.num; start += INGEST_FILE_ENTRIES) {
                java.io.File file = new java.io.File(staging, files.size() + ".sst");
                try (org.iq80.leveldb.TableWriter writer = db.newTableWriter(file)) {
                    int end = Math.min(context.num, start + INGEST_FILE_ENTRIES);
                    for (int i = start; i < end; i++) {
                        byte[] key = context.keys.key(i);
                        int size = valueSize(context, thread);
                        writer.put(key, values.next(size));
                        bytes += size + key.length;
                        thread.stats.finishedSingleOp();
                    }
                    writer.finish();
                }
                files.add(file);
            }
            db.ingest(new org.iq80.leveldb.IngestOptions().moveFiles(true), files.toArray(new java.io.File[0]));
        } finally {
            for (java.io.File file : files) {
                file.delete();
            }
            staging.delete();
        }
        thread.stats.addBytes(bytes);
    }

    /**
     * The size of the next value: {@code --large_value_size} for {@code --large_value_percent}
     * of the writes (drawn after the key, as the C++ runner draws it), else the workload's.
     */
    private static int valueSize(WorkloadContext context, ThreadState thread) {
        if (context.largeValuePercent > 0 && thread.random.uniform(100) < context.largeValuePercent) {
            return context.largeValueSize;
        }
        return context.valueSize;
    }

    /**
     * The steps a scan takes per call of {@link #forward} or {@link #backward}. A scan is one
     * call with a long loop: the JIT compiles such a loop while it runs (on-stack replacement),
     * but the method holding it in full only after many calls. With the loop in the scan's own
     * method, that compilation began with the measured scan, the fourth call after the warm-up's
     * three, and on a busy machine took the scan's processor (JFR: 122 ms of C2 compiling
     * {@code readSequential} from the first millisecond of the measured readseq). The steps are
     * taken by a method called once per chunk, hundreds of times in every warm-up scan, which
     * the warm-up therefore compiles.
     */
    static final int SCAN_CHUNK = 64;

    static void readSequential(WorkloadContext context, ThreadState thread) {
        try (DBIterator it = context.db.iterator()) {
            ScanBuffers buffers = ScanBuffers.of(context, it);
            it.seekToFirst();
            for (int done = 0; done < context.reads; done += SCAN_CHUNK) {
                int steps = Math.min(SCAN_CHUNK, context.reads - done);
                if (!(buffers == null ? forward(it, steps, thread) : buffers.forward(steps, thread))) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Takes up to {@code steps} entries forward; tells whether the scan may go on. */
    private static boolean forward(DBIterator it, int steps, ThreadState thread) {
        long bytes = 0;
        boolean more = true;
        for (int i = 0; i < steps; i++) {
            if (!it.hasNext()) {
                more = false;
                break;
            }
            Map.Entry<byte[], byte[]> entry = it.next();
            bytes += entry.getKey().length + entry.getValue().length;
            thread.stats.finishedSingleOp();
        }
        thread.stats.addBytes(bytes);
        return more;
    }

    /** A backward scan as the API documents it: the last entry, then prev() while hasPrev(). */
    static void readReverse(WorkloadContext context, ThreadState thread) {
        try (DBIterator it = context.db.iterator()) {
            ScanBuffers buffers = ScanBuffers.of(context, it);
            it.seekToLast();
            if (context.reads > 0 && it.hasNext()) {
                if (buffers == null) {
                    Map.Entry<byte[], byte[]> entry = it.peekNext();
                    thread.stats.addBytes(entry.getKey().length + entry.getValue().length);
                } else {
                    thread.stats.addBytes(buffers.read());
                }
                thread.stats.finishedSingleOp();
                for (int done = 1; done < context.reads; done += SCAN_CHUNK) {
                    int steps = Math.min(SCAN_CHUNK, context.reads - done);
                    if (!(buffers == null ? backward(it, steps, thread) : buffers.backward(steps, thread))) {
                        break;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Takes up to {@code steps} entries backward; tells whether the scan may go on. */
    private static boolean backward(DBIterator it, int steps, ThreadState thread) {
        long bytes = 0;
        boolean more = true;
        for (int i = 0; i < steps; i++) {
            if (!it.hasPrev()) {
                more = false;
                break;
            }
            Map.Entry<byte[], byte[]> entry = it.prev();
            bytes += entry.getKey().length + entry.getValue().length;
            thread.stats.finishedSingleOp();
        }
        thread.stats.addBytes(bytes);
        return more;
    }

    static void readRandom(WorkloadContext context, ThreadState thread) {
        int found = 0;
        for (int i = 0; i < context.reads; i++) {
            byte[] key = context.keys.key(thread.random.uniform(context.keySpace));
            if (context.db.get(key) != null) {
                found++;
            }
            thread.stats.finishedSingleOp();
        }
        thread.stats.addMessage(foundMessage(found, context.num));
    }

    /** How many operations a workload cut short by {@code --duration} makes between two looks at the clock. */
    static final int DURATION_CHECK_STEP = 64;

    /** Whether a thread that made {@code done} operations of a workload with a duration is to stop. */
    private static boolean pastDuration(WorkloadContext context, ThreadState thread, int done) {
        return done % DURATION_CHECK_STEP == 0 && thread.stats.pastDuration(context.durationNanos);
    }

    /**
     * readwhilewriting's readers: readrandom's draws, each read recorded as a read, cut short by
     * {@code --duration}.
     */
    static void readWhileWriting(WorkloadContext context, ThreadState thread) {
        int found = 0;
        for (int i = 0; i < context.reads && !pastDuration(context, thread, i); i++) {
            byte[] key = context.keys.key(thread.random.uniform(context.keySpace));
            if (context.db.get(key) != null) {
                found++;
            }
            thread.stats.finishedSingleOp(Stats.Kind.READ);
        }
        thread.stats.addMessage(foundMessage(found, context.num));
    }

    /**
     * readwhilewriting's writer: random keys and values, as fillrandom draws them, until the
     * readers are done. Its operations count in its own stats, which the report leaves out but
     * for the number of writes and their latencies.
     */
    static void writeUntilForegroundDone(WorkloadContext context, ThreadState thread) {
        ValueGenerator.Cursor values = context.values.cursor();
        long bytes = 0;
        while (!context.foregroundDone.get()) {
            byte[] key = context.keys.key(thread.random.uniform(context.keySpace));
            int size = valueSize(context, thread);
            context.db.put(key, values.next(size), context.writeOptions);
            bytes += size + key.length;
            thread.stats.finishedSingleOp(Stats.Kind.WRITE);
        }
        thread.stats.addBytes(bytes);
    }

    /**
     * A read with probability {@code --readwritepercent}, else a write, {@code --reads} times (or
     * until {@code --duration}): per operation the draw of its kind, then its key, then (for a
     * write) its value's size as fillrandom draws it. The message counts reads, writes and reads
     * that found their key.
     */
    static void readRandomWriteRandom(WorkloadContext context, ThreadState thread) {
        ValueGenerator.Cursor values = context.values.cursor();
        long reads = 0;
        long writes = 0;
        long found = 0;
        long bytes = 0;
        for (int i = 0; i < context.reads && !pastDuration(context, thread, i); i++) {
            boolean read = thread.random.uniform(100) < context.readWritePercent;
            byte[] key = context.keys.key(thread.random.uniform(context.keySpace));
            if (read) {
                reads++;
                if (context.db.get(key) != null) {
                    found++;
                }
                thread.stats.finishedSingleOp(Stats.Kind.READ);
            } else {
                writes++;
                int size = valueSize(context, thread);
                context.db.put(key, values.next(size), context.writeOptions);
                bytes += size + key.length;
                thread.stats.finishedSingleOp(Stats.Kind.WRITE);
            }
        }
        thread.stats.addBytes(bytes);
        thread.stats.addCounts(reads, writes, found);
    }

    static void readMissing(WorkloadContext context, ThreadState thread) {
        for (int i = 0; i < context.reads; i++) {
            context.db.get(context.keys.missingKey(thread.random.uniform(context.keySpace)));
            thread.stats.finishedSingleOp();
        }
    }

    /** Random reads from the first 1% of the key space. */
    static void readHot(WorkloadContext context, ThreadState thread) {
        int range = (int) ((context.keySpace + 99L) / 100);
        for (int i = 0; i < context.reads; i++) {
            context.db.get(context.keys.key(thread.random.uniform(range)));
            thread.stats.finishedSingleOp();
        }
    }

    /** A new iterator per operation, seeking a random key. */
    static void seekRandom(WorkloadContext context, ThreadState thread) {
        int found = 0;
        for (int i = 0; i < context.reads; i++) {
            byte[] key = context.keys.key(thread.random.uniform(context.keySpace));
            try (DBIterator it = context.db.iterator()) {
                it.seek(key);
                if (it.hasNext() && Arrays.equals(it.peekNext().getKey(), key)) {
                    found++;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            thread.stats.finishedSingleOp();
        }
        thread.stats.addMessage(foundMessage(found, context.num));
    }

    /** One iterator seeking keys in increasing order, a random stride of under 100 apart. */
    static void seekOrdered(WorkloadContext context, ThreadState thread) {
        int found = 0;
        int k = 0;
        try (DBIterator it = context.db.iterator()) {
            for (int i = 0; i < context.reads; i++) {
                k = (k + thread.random.uniform(100)) % context.keySpace;
                byte[] key = context.keys.key(k);
                it.seek(key);
                if (it.hasNext() && Arrays.equals(it.peekNext().getKey(), key)) {
                    found++;
                }
                thread.stats.finishedSingleOp();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread.stats.addMessage(foundMessage(found, context.num));
    }

    static void deleteSequential(WorkloadContext context, ThreadState thread) {
        delete(context, thread, true);
    }

    static void deleteRandom(WorkloadContext context, ThreadState thread) {
        delete(context, thread, false);
    }

    private static void delete(WorkloadContext context, ThreadState thread, boolean sequential) {
        for (int i = 0; i < context.num; i++) {
            int k = sequential ? i : thread.random.uniform(context.keySpace);
            context.db.delete(context.keys.key(k), context.writeOptions);
            thread.stats.finishedSingleOp();
        }
    }

    static void compact(WorkloadContext context, ThreadState thread) {
        context.db.compactRange(null, null);
    }

    static String foundMessage(int found, int num) {
        return "(" + found + " of " + num + " found)";
    }
}
