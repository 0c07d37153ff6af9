package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.filename.FileNames;
import org.leveldbj.filename.FileType;
import org.leveldbj.testing.ForwardingEnv;
import org.leveldbj.testing.MemEnv;

/**
 * Each JFR event of the engine is recorded, with the right fields, after the operation that
 * causes it: a recording runs around the operation and is read back from its file.
 */
class JfrEventsTest {
    private static final Path DIR = Path.of("/jfr-db");
    private static final String[] EVENTS = {"MemTableFlush", "Compaction", "WriteStall", "TableOpen",
        "TableEviction", "Recovery", "ValueFileCollection", "BackgroundError"};

    private final MemEnv mem = new MemEnv();

    @TempDir
    Path tmp;

    /** An operation that may throw. */
    @FunctionalInterface
    interface Operation {
        void run() throws Exception;
    }

    /** Runs the operation inside a recording of the engine's events and returns those of this test's databases. */
    private List<RecordedEvent> record(Operation operation) throws Exception {
        Path file = tmp.resolve("recording.jfr");
        try (Recording recording = new Recording()) {
            for (String name : EVENTS) {
                recording.enable("org.leveldbj." + name);
            }
            recording.start();
            operation.run();
            recording.stop();
            recording.dump(file);
        }
        return RecordingFile.readAllEvents(file).stream()
                .filter(e -> e.getString("directory").startsWith(DIR.toString()))
                .collect(Collectors.toList());
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String name) {
        return events.stream().filter(e -> e.getEventType().getName().equals("org.leveldbj." + name))
                .collect(Collectors.toList());
    }

    /** The tables in the directory: number to size. */
    private Map<Long, Long> tables() throws IOException {
        Map<Long, Long> tables = new TreeMap<>();
        for (String name : mem.getChildren(DIR)) {
            FileNames.Parsed p = FileNames.parse(name);
            if (p != null && p.type() == FileType.TABLE) {
                tables.put(p.number(), mem.getFileSize(DIR.resolve(name)));
            }
        }
        return tables;
    }

    private ExtendedDB open(Options options) throws IOException {
        return LevelDbFactory.factory.open(DIR.toFile(), options);
    }

    private static void fill(ExtendedDB db, String prefix, int n) {
        for (int i = 0; i < n; i++) {
            db.put(bytes(String.format("%s%04d", prefix, i)), bytes("value" + i));
        }
    }

    @Test
    void aFlushAndACompactionAreRecordedWithTheirTablesAndBytes() throws Exception {
        try (ExtendedDB db = open(new Options().env(mem))) {
            List<RecordedEvent> flushes = named(record(() -> {
                fill(db, "key", 1000);
                db.flushMemTable();
            }), "MemTableFlush");
            Map<Long, Long> first = tables();
            assertEquals(1, flushes.size());
            RecordedEvent flush = flushes.get(0);
            long table = first.keySet().iterator().next();
            assertEquals(table, flush.getLong("tableNumber"));
            assertEquals(first.get(table), flush.getLong("bytes"));
            assertEquals(2, flush.getInt("level"), "nothing overlaps: pushed down to level 2");
            assertEquals(DIR.toString(), flush.getString("directory"));

            fill(db, "key", 1000);
            db.flushMemTable(); // overlaps: level 1
            Map<Long, Long> inputs = tables();
            List<RecordedEvent> compactions = named(record(() -> db.compactRange(null, null)), "Compaction");
            assertEquals(1, compactions.size());
            RecordedEvent c = compactions.get(0);
            assertEquals("manual", c.getString("reason"));
            assertEquals(1, c.getInt("level"));
            assertEquals(2, c.getInt("outputLevel"));
            assertEquals(1, c.getInt("inputFiles"));
            assertEquals(1, c.getInt("nextLevelInputFiles"));
            List<Long> numbers = List.of(c.getString("inputFileNumbers").split(" ")).stream().map(Long::valueOf)
                    .sorted().collect(Collectors.toList());
            assertEquals(List.copyOf(inputs.keySet()), numbers);
            assertEquals(inputs.values().stream().mapToLong(Long::longValue).sum(), c.getLong("bytesRead"));
            Map<Long, Long> outputs = tables();
            assertEquals(1, c.getInt("outputFiles"));
            assertEquals(outputs.values().iterator().next(), c.getLong("bytesWritten"));
        }
    }

    @Test
    void aWriteWaitingForAFlushIsAMemtableStall() throws Exception {
        GatedEnv gated = new GatedEnv(mem);
        CountDownLatch stalled = new CountDownLatch(1);
        try (ExtendedDB db = open(new Options().env(gated).writeBufferSize(4096).logger(message -> {
            if (message.contains("memtable full")) {
                stalled.countDown();
            }
        }))) {
            byte[] big = new byte[5000];
            List<RecordedEvent> stalls = named(record(() -> {
                db.put(bytes("a"), big);
                CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                    db.put(bytes("b"), big);
                    db.put(bytes("c"), big);
                });
                gated.awaitBlocked();
                assertTrue(stalled.await(2, TimeUnit.MINUTES), "the third write never waited");
                gated.open();
                writer.get(2, TimeUnit.MINUTES);
            }), "WriteStall");
            assertEquals(1, stalls.size());
            assertEquals("memtable", stalls.get(0).getString("cause"));
            assertTrue(stalls.get(0).getDuration().toNanos() > 0);
        }
    }

    @Test
    void reopeningReplaysTheLogAsARecovery() throws Exception {
        try (ExtendedDB db = open(new Options().env(mem))) {
            // A flush first: with more than one edit in its MANIFEST, the reopen writes the log
            // to a table (a reopen of a database whose MANIFEST is a snapshot and one edit keeps
            // its small log instead: OpenSyncsTest).
            db.put(bytes("seed"), bytes("0"));
            db.flushMemTable();
            fill(db, "key", 10);
            try (org.iq80.leveldb.WriteBatch batch = db.createWriteBatch()) {
                db.write(batch.put(bytes("x"), bytes("1")).delete(bytes("key0001")));
            }
        }
        List<RecordedEvent> events = record(() -> open(new Options().env(mem)).close());
        List<RecordedEvent> recoveries = named(events, "Recovery");
        assertEquals(1, recoveries.size());
        assertEquals(1, recoveries.get(0).getInt("logs"));
        assertEquals(12, recoveries.get(0).getLong("entries"));
        assertEquals(1, named(events, "MemTableFlush").size(), "the replayed log went to a table");
    }

    @Test
    void tablesEnterAndLeaveTheTableCache() throws Exception {
        // maxOpenFiles 11 leaves room for one table: reading a second evicts the first.
        Options options = new Options().env(mem).maxOpenFiles(11);
        try (ExtendedDB db = open(options)) {
            fill(db, "a", 100);
            db.flushMemTable();
            fill(db, "b", 100);
            db.flushMemTable();
        }
        Map<Long, Long> tables = tables();
        assertEquals(2, tables.size());
        List<RecordedEvent> events = record(() -> {
            try (ExtendedDB db = open(options)) {
                db.get(bytes("a0001"));
                db.get(bytes("b0001"));
            }
        });
        List<RecordedEvent> opens = named(events, "TableOpen");
        assertEquals(tables.keySet(), opens.stream().map(e -> e.getLong("fileNumber")).collect(Collectors.toSet()));
        for (RecordedEvent e : opens) {
            assertEquals(tables.get(e.getLong("fileNumber")), e.getLong("size"));
        }
        List<RecordedEvent> evictions = named(events, "TableEviction");
        long first = tables.keySet().iterator().next();
        long second = tables.keySet().stream().skip(1).findFirst().orElseThrow();
        assertTrue(evictions.stream().anyMatch(e -> e.getString("reason").equals("capacity")
                && e.getLong("fileNumber") == first && e.getLong("size") == tables.get(first)), evictions.toString());
        assertTrue(evictions.stream().anyMatch(e -> e.getString("reason").equals("close")
                && e.getLong("fileNumber") == second), evictions.toString());
    }

    @Test
    void reclaimingValueFilesIsRecorded() throws Exception {
        Random r = new Random(42);
        Options options = new Options().env(mem).valueThreshold(1024).maxFileSize(4096).writeBufferSize(64 << 10);
        try (ExtendedDB opened = open(options)) {
            DbImpl db = (DbImpl) opened;
            // Recorded from the first write: the collector's own thread may run a pass too. The
            // later rounds overwrite every other key, so the first round's files keep live values
            // beside their garbage: no compaction alone frees them, only a pass that rewrites
            // their live values, whichever thread runs it and whenever their deletion happens.
            List<RecordedEvent> passes = named(record(() -> {
                for (int round = 0; round < 3; round++) {
                    for (int i = 0; i < 150; i += round == 0 ? 1 : 2) {
                        byte[] value = new byte[3000 + r.nextInt(2000)];
                        r.nextBytes(value);
                        db.put(bytes("k" + i), value);
                    }
                }
                db.compactRange(null, null);
                db.collectValueGarbageForTesting();
                db.compactEverything();
                db.collectValueGarbageForTesting();
            }), "ValueFileCollection");
            long freed = passes.stream().mapToLong(e -> e.getInt("files")).sum();
            long freedBytes = passes.stream().mapToLong(e -> e.getLong("bytesReclaimed")).sum();
            assertTrue(freed >= 1, passes.toString());
            assertTrue(freedBytes > 0, passes.toString());
        }
    }

    @Test
    void theFirstBackgroundErrorIsRecorded() throws Exception {
        Env failing = new ForwardingEnv(mem) {
            @Override
            public WritableFile newWritableFile(Path file) throws IOException {
                FileNames.Parsed p = FileNames.parse(file.getFileName().toString());
                if (p != null && p.type() == FileType.TABLE) {
                    throw new IOException("injected: no table may be written");
                }
                return super.newWritableFile(file);
            }
        };
        try (ExtendedDB db = open(new Options().env(failing))) {
            List<RecordedEvent> errors = named(record(() -> {
                db.put(bytes("a"), bytes("1"));
                assertThrows(DBException.class, db::flushMemTable);
            }), "BackgroundError");
            assertEquals(1, errors.size());
            assertTrue(errors.get(0).getString("message").contains("injected: no table may be written"),
                    errors.get(0).getString("message"));
            assertEquals(IOException.class.getName(), errors.get(0).getString("type"));
        } catch (DBException expected) {
            // close reports that the memtable could not be flushed
        }
    }
}
