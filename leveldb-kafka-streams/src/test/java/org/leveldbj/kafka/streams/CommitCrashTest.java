package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.errors.TaskCorruptedException;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.testing.FaultInjectionEnv;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.testing.SeedExtension;

/**
 * Commits that flush nothing, checked against crashes at random points: the store processes a
 * changelog (record {@code i} writes or deletes one of a few keys) and commits its offset now
 * and then; small memtables reach tables often. A crash freezes the files as they are (every
 * operation of the environment fails from then on, so nothing the abandoned database does
 * later reaches them); the store is then reopened and restored as Kafka Streams would.
 * <ul>
 *   <li>At-least-once: the committed offset the database holds is one that was committed, and
 *       restoring the changelog after it gives exactly the state at the crash.</li>
 *   <li>Exactly-once: a database that reached a table after it opened is reported corrupt
 *       (and is then rebuilt from the changelog); otherwise it holds exactly the state at its
 *       committed offset.</li>
 * </ul>
 */
@ExtendWith(SeedExtension.class)
class CommitCrashTest {
    private static final TopicPartition CHANGELOG = new TopicPartition("app-store-changelog", 0);
    private static final int KEYS = 300;

    @TempDir
    Path stateDir;

    /** Stores on one in-memory, fault-injecting file system, with small memtables. */
    private static final class Env implements LeveldbConfigSetter {
        final FaultInjectionEnv files = new FaultInjectionEnv(new MemEnv());

        @Override
        public void setConfig(String storeName, org.iq80.leveldb.Options options, Map<String, Object> configs) {
            options.env(files).writeBufferSize(16 << 10);
        }

        void freeze() {
            for (FaultInjectionEnv.Op op : FaultInjectionEnv.Op.values()) {
                files.failAlways(op);
            }
        }
    }

    private static byte[] key(int i) {
        return ("key" + i % KEYS).getBytes(StandardCharsets.UTF_8);
    }

    /** Record {@code i}'s value: a tombstone one time in seven. */
    private static byte[] value(Random random, int i) {
        return random.nextInt(7) == 0 ? null : ("value-" + i + "-" + "x".repeat(random.nextInt(60)))
                .getBytes(StandardCharsets.UTF_8);
    }

    private LeveldbKeyValueStore open(Env env, boolean exactlyOnce) {
        Properties config = new Properties();
        config.put(LeveldbConfigSetter.CONFIG, env);
        if (exactlyOnce) {
            config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        }
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), config);
        return StoreFixture.init(new LeveldbKeyValueStore("store"), context);
    }

    private static Map<Bytes, byte[]> contents(LeveldbKeyValueStore store) {
        Map<Bytes, byte[]> out = new TreeMap<>();
        try (var it = store.all()) {
            it.forEachRemaining(kv -> out.put(kv.key, kv.value));
        }
        return out;
    }

    /** The state after the changelog's records up to {@code last}, inclusive. */
    private static Map<Bytes, byte[]> model(List<byte[]> changelog, long last) {
        Map<Bytes, byte[]> state = new TreeMap<>();
        for (int i = 0; i <= last; i++) {
            Bytes k = Bytes.wrap(key(i));
            if (changelog.get(i) == null) {
                state.remove(k);
            } else {
                state.put(k, changelog.get(i));
            }
        }
        return state;
    }

    private static void assertSameContents(Map<Bytes, byte[]> expected, Map<Bytes, byte[]> actual, String what) {
        assertEquals(expected.keySet(), actual.keySet(), what);
        for (Map.Entry<Bytes, byte[]> e : expected.entrySet()) {
            assertEquals(new String(e.getValue(), StandardCharsets.UTF_8),
                    new String(actual.get(e.getKey()), StandardCharsets.UTF_8), what + ": key " + e.getKey());
        }
    }

    private static void restore(LeveldbKeyValueStore store, List<byte[]> changelog, long from, long to) {
        List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            batch.add(new ConsumerRecord<>(CHANGELOG.topic(), CHANGELOG.partition(), i, key((int) i),
                    changelog.get((int) i)));
        }
        store.restoreBatch(batch);
    }

    /** Crashes the store: freezes its files, abandons its memtable, and lets the files work again. */
    private static void crash(Env env, LeveldbKeyValueStore store) {
        env.freeze();
        try {
            store.close();
        } catch (ProcessorStateException expected) {
            // the memtable could not reach a table: lost, as in a crash
        }
        env.files.clearFaults();
    }

    @Test
    void atLeastOnceRestoresExactlyTheStateAtTheCrash(Random random) {
        Env env = new Env();
        List<byte[]> changelog = new ArrayList<>();
        List<Long> committed = new ArrayList<>();
        LeveldbKeyValueStore store = open(env, false);
        for (int crash = 0; crash < 8; crash++) {
            int records = 200 + random.nextInt(3_000);
            for (int r = 0; r < records; r++) {
                int i = changelog.size();
                byte[] value = value(random, i);
                changelog.add(value);
                store.put(Bytes.wrap(key(i)), value);
                if (random.nextInt(100) == 0) {
                    store.commit(Map.of(CHANGELOG, (long) i));
                    committed.add((long) i);
                }
            }
            crash(env, store);
            long last = changelog.size() - 1;

            store = open(env, false);
            Long offset = store.committedOffset(CHANGELOG);
            assertTrue(offset == null || committed.contains(offset), "offset " + offset + " was never committed");
            restore(store, changelog, offset == null ? 0 : offset + 1, last);
            assertSameContents(model(changelog, last), contents(store), "after crash " + crash + " and restoring from "
                    + offset);
        }
        store.close();
    }

    @Test
    void exactlyOnceReportsAnUncleanDatabaseOrHoldsTheCommittedState(Random random) {
        Env env = new Env();
        List<byte[]> changelog = new ArrayList<>();
        LeveldbKeyValueStore store = open(env, true);
        long lastCommit = -1;
        for (int crash = 0; crash < 8; crash++) {
            // Small runs leave everything in the memtable, long ones reach tables.
            int records = random.nextBoolean() ? 1 + random.nextInt(20) : 500 + random.nextInt(2_000);
            for (int r = 0; r < records; r++) {
                int i = changelog.size();
                byte[] value = value(random, i);
                changelog.add(value);
                store.put(Bytes.wrap(key(i)), value);
            }
            if (random.nextBoolean()) {
                // A clean commit and close, then a reopening: the state of that commit.
                lastCommit = changelog.size() - 1;
                store.commit(Map.of(CHANGELOG, lastCommit));
                store.close();
                store = open(env, true);
                assertEquals(lastCommit, store.committedOffset(CHANGELOG));
                assertSameContents(model(changelog, lastCommit), contents(store), "after a clean close");
                continue;
            }
            crash(env, store);
            // What the uncommitted records wrote never happened: the changelog ends at the commit.
            changelog.subList((int) lastCommit + 1, changelog.size()).clear();
            try {
                store = open(env, true);
            } catch (TaskCorruptedException e) {
                wipe(env);
                store = open(env, true);
                assertNull(store.committedOffset(CHANGELOG));
                if (lastCommit >= 0) {
                    restore(store, changelog, 0, lastCommit);
                }
            }
            Long offset = store.committedOffset(CHANGELOG);
            if (offset != null) {
                assertEquals(lastCommit, offset.longValue());
            }
            assertSameContents(model(changelog, lastCommit), contents(store), "after crash " + crash);
        }
        store.close();
    }

    /** Deletes the store's database, as Kafka Streams wipes a corrupt task's state. */
    private void wipe(Env env) {
        Path dir = stateDir.resolve(StoreDatabase.PARENT_DIR).resolve("store");
        try {
            for (String name : env.files.getChildren(dir)) {
                env.files.deleteFile(dir.resolve(name));
            }
            env.files.deleteDir(dir);
        } catch (java.io.IOException e) {
            throw new AssertionError("wiping " + dir, e);
        }
    }

    @Test
    void aDatabaseWithoutTheLayoutIsCorruptSoThatItIsRestored() throws Exception {
        Env env = new Env();
        Path dir = stateDir.resolve(StoreDatabase.PARENT_DIR).resolve("store");
        env.files.createDir(dir);
        try (var db = org.leveldbj.db.LevelDbFactory.factory.open(dir.toFile(),
                new org.iq80.leveldb.Options().env(env.files).createIfMissing(true))) {
            db.put("old".getBytes(StandardCharsets.UTF_8), "layout".getBytes(StandardCharsets.UTF_8));
        }
        TaskCorruptedException e = assertThrows(TaskCorruptedException.class, () -> open(env, false));
        assertTrue(e.getCause().getMessage().contains("not written by this store's layout"), e.getCause().getMessage());
    }
}
