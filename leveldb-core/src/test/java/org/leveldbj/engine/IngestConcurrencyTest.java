package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.leveldbj.db.LevelDbFactory.asString;
import static org.leveldbj.db.LevelDbFactory.bytes;
import static org.leveldbj.db.LevelDbFactory.factory;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.ReadOptions;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.TableWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ingestions racing with snapshots, writers and compactions: a snapshot reads the same thing
 * every time (an ingestion that keeps sequence 0 never becomes visible to a snapshot taken
 * before it, whatever the interleaving), every file whose ingestion returned is complete, and
 * writes made after an ingestion returned win over it.
 */
class IngestConcurrencyTest {
    @TempDir
    Path tmp;

    private static byte[] key(int file, int i) {
        return bytes(String.format("f%05d-%03d", file, i));
    }

    @Test
    void snapshotsStayRepeatableAndIngestionsWholeUnderRacingWork() throws Exception {
        Options options = new Options().writeBufferSize(32 << 10).maxFileSize(16 << 10);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger ingested = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (ExtendedDB db = factory.open(tmp.resolve("db").toFile(), options)) {
            List<Thread> threads = new ArrayList<>();
            threads.add(new Thread(run(failure, () -> {
                for (int f = 0; f < 150 && failure.get() == null; f++) {
                    File file = tmp.resolve("in" + f + ".sst").toFile();
                    try (TableWriter w = db.newTableWriter(file)) {
                        for (int i = 0; i < 20; i++) {
                            w.put(key(f, i), bytes("ingested"));
                        }
                        w.finish();
                    }
                    db.ingest(file);
                    ingested.set(f + 1);
                    db.put(key(f, 0), bytes("after")); // written after the ingestion returned
                }
            })));
            threads.add(new Thread(run(failure, () -> {
                while (!stop.get()) {
                    int known = ingested.get();
                    try (Snapshot snapshot = db.getSnapshot()) {
                        ReadOptions ro = new ReadOptions().snapshot(snapshot);
                        int probe = known; // not ingested when the snapshot was taken, maybe by now
                        byte[] first = db.get(key(probe, 5), ro);
                        for (int f = 0; f < known; f++) {
                            assertEquals("ingested", asString(db.get(key(f, 19), ro)), "file " + f);
                        }
                        Thread.yield();
                        byte[] second = db.get(key(probe, 5), ro);
                        assertEquals(first == null ? null : asString(first), second == null ? null : asString(second),
                                "a snapshot read two different things");
                    }
                }
            })));
            threads.add(new Thread(run(failure, () -> {
                for (int i = 0; !stop.get(); i++) {
                    db.put(bytes(String.format("w%07d", i % 5000)), bytes("w" + i));
                }
            })));
            threads.add(new Thread(run(failure, () -> {
                while (!stop.get()) {
                    db.compactRange(null, null);
                    Thread.sleep(20);
                }
            })));
            threads.forEach(Thread::start);
            threads.get(0).join();
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(150, ingested.get());
            for (int f = 0; f < 150; f++) {
                assertEquals("after", asString(db.get(key(f, 0))));
                assertEquals("ingested", asString(db.get(key(f, 7))));
            }
            assertNull(db.get(key(150, 0)));
        }
    }

    private interface Body {
        void run() throws Exception;
    }

    private static Runnable run(AtomicReference<Throwable> failure, Body body) {
        return () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        };
    }
}
