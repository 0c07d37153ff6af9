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
                byte[] key = Keys.key(sequential ? i : thread.random.uniform(context.keySpace));
                int size = valueSize(context, thread);
                context.db.put(key, values.next(size), context.writeOptions);
                bytes += size + key.length;
                thread.stats.finishedSingleOp();
                continue;
            }
            try (WriteBatch batch = context.db.createWriteBatch()) {
                for (int j = 0; j < context.entriesPerBatch; j++) {
                    int k = sequential ? i + j : thread.random.uniform(context.keySpace);
                    byte[] key = Keys.key(k);
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

    static void readSequential(WorkloadContext context, ThreadState thread) {
        long bytes = 0;
        try (DBIterator it = context.db.iterator()) {
            it.seekToFirst();
            for (int i = 0; i < context.reads && it.hasNext(); i++) {
                Map.Entry<byte[], byte[]> entry = it.next();
                bytes += entry.getKey().length + entry.getValue().length;
                thread.stats.finishedSingleOp();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread.stats.addBytes(bytes);
    }

    /** A backward scan as the API documents it: the last entry, then prev() while hasPrev(). */
    static void readReverse(WorkloadContext context, ThreadState thread) {
        long bytes = 0;
        try (DBIterator it = context.db.iterator()) {
            it.seekToLast();
            if (context.reads > 0 && it.hasNext()) {
                Map.Entry<byte[], byte[]> entry = it.peekNext();
                bytes += entry.getKey().length + entry.getValue().length;
                thread.stats.finishedSingleOp();
                for (int i = 1; i < context.reads && it.hasPrev(); i++) {
                    entry = it.prev();
                    bytes += entry.getKey().length + entry.getValue().length;
                    thread.stats.finishedSingleOp();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        thread.stats.addBytes(bytes);
    }

    static void readRandom(WorkloadContext context, ThreadState thread) {
        int found = 0;
        for (int i = 0; i < context.reads; i++) {
            byte[] key = Keys.key(thread.random.uniform(context.keySpace));
            if (context.db.get(key) != null) {
                found++;
            }
            thread.stats.finishedSingleOp();
        }
        thread.stats.addMessage(foundMessage(found, context.num));
    }

    static void readMissing(WorkloadContext context, ThreadState thread) {
        for (int i = 0; i < context.reads; i++) {
            context.db.get(Keys.missingKey(thread.random.uniform(context.keySpace)));
            thread.stats.finishedSingleOp();
        }
    }

    /** Random reads from the first 1% of the key space. */
    static void readHot(WorkloadContext context, ThreadState thread) {
        int range = (int) ((context.keySpace + 99L) / 100);
        for (int i = 0; i < context.reads; i++) {
            context.db.get(Keys.key(thread.random.uniform(range)));
            thread.stats.finishedSingleOp();
        }
    }

    /** A new iterator per operation, seeking a random key. */
    static void seekRandom(WorkloadContext context, ThreadState thread) {
        int found = 0;
        for (int i = 0; i < context.reads; i++) {
            byte[] key = Keys.key(thread.random.uniform(context.keySpace));
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
                byte[] key = Keys.key(k);
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
            context.db.delete(Keys.key(k), context.writeOptions);
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
