package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.iq80.leveldb.CompactionFilter.Decision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expired versions leave the database as compactions pass, and only once a durable stream time
 * says they expired; reads within history retention are the same before and after.
 */
class VersionExpiryTest {
    private static final long RETENTION = 100;

    @TempDir
    Path stateDir;

    /** The store's raw entries (one-letter keys): key, validTo or latest, kind, validFrom; in database order. */
    private static List<String> rawEntries(LeveldbVersionedKeyValueStore store) throws IOException {
        List<String> out = new ArrayList<>();
        try (DataIterator it = store.database().iterator()) {
            it.seekToFirst();
            while (it.hasNext()) {
                Map.Entry<byte[], byte[]> e = it.next();
                byte[] k = e.getKey();
                out.add((char) k[1] + (VersionLayout.isLatest(k, 0) ? "@latest" : "@" + VersionLayout.validTo(k))
                        + (VersionLayout.isTombstone(e.getValue()) ? "-" : "+") + VersionLayout.validFrom(e.getValue()));
            }
        }
        return out;
    }

    @Test
    void compactionsRemoveExpiredVersionsOnceTheStreamTimeIsDurable() throws IOException {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbVersionedKeyValueStore store = StoreFixture.init(new LeveldbVersionedKeyValueStore("expiry", RETENTION), context);
        Bytes a = Bytes.wrap(new byte[] {'a'});
        Bytes b = Bytes.wrap(new byte[] {'b'});
        Bytes c = Bytes.wrap(new byte[] {'c'});
        store.put(b, new byte[] {1}, 10);
        store.delete(b, 20); // a latest tombstone that will expire
        store.put(c, new byte[] {1}, 5); // a latest value that never expires
        for (long ts = 0; ts <= 300; ts += 50) {
            store.put(a, new byte[] {(byte) ts}, ts);
        }
        store.put(a, new byte[] {0x7f}, 400);
        // Stream time 400: versions valid only before 300 expired.
        List<String> before = rawEntries(store);
        assertEquals(List.of("a@latest+400", "b@latest-20", "c@latest+5", "a@50+0", "a@100+50", "a@150+100", "a@200+150",
                "a@250+200", "a@300+250", "a@400+300", "b@20+10"), before);

        store.database().compact();
        assertEquals(before, rawEntries(store), "the stream time is not durable yet: nothing goes");

        store.commit(Map.of()); // writes stream time 400; the next compaction reads it from a table
        store.database().compact();
        assertEquals(400, store.expiryFilter().durableStreamTime());
        assertEquals(List.of("a@latest+400", "c@latest+5", "a@400+300"), rawEntries(store));
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 1, 44, 44}, store.get(a, 350), "300's version, valid to 400");
        assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 5, 1}, store.get(c, 6), "the latest value outlives retention");
        assertEquals(null, store.get(b));
        assertEquals(-1, store.put(b, new byte[] {2}, 300), "b's history is gone; a new latest");
        store.close();
    }

    @Test
    void theStreamTimeReadAtOpenIsDurable() throws IOException {
        MockProcessorContext<Object, Object> context = StoreFixture.context(stateDir.toFile(), new Properties());
        LeveldbVersionedKeyValueStore store = StoreFixture.init(new LeveldbVersionedKeyValueStore("reopen", RETENTION), context);
        Bytes a = Bytes.wrap(new byte[] {'a'});
        store.put(a, new byte[] {1}, 10);
        store.put(a, new byte[] {2}, 20);
        store.put(a, new byte[] {3}, 200);
        store.close();
        store = StoreFixture.init(new LeveldbVersionedKeyValueStore("reopen", RETENTION), context);
        assertEquals(200, store.expiryFilter().durableStreamTime());
        store.database().compact();
        assertEquals(List.of("a@latest+200", "a@200+20"), rawEntries(store));
        store.close();
    }

    @Test
    void theFilterDecidesFromTheKeyAndKeepsWhatItDoesNotKnow() {
        VersionExpiryFilter f = new VersionExpiryFilter("s", 10);
        byte[] group = VersionLayout.group(new byte[] {'k', 0});
        byte[] history = StoreDatabase.dataKey(VersionLayout.historyKey(group, 50));
        byte[] latest = StoreDatabase.dataKey(VersionLayout.latestKey(group));
        byte[] value = VersionLayout.entry(new byte[] {1}, 40);
        byte[] tombstone = VersionLayout.entry(null, 40);
        assertSame(Decision.KEEP, f.filter(1, history, value), "no durable stream time yet");
        f.durable(60);
        assertSame(Decision.REMOVE, f.filter(1, history, value), "validTo 50 <= 60 - 10");
        assertSame(Decision.KEEP, f.filter(1, latest, value), "a latest value never expires");
        assertSame(Decision.REMOVE, f.filter(1, latest, tombstone), "a latest tombstone from 40 expired");
        f.durable(55); // a maximum: never goes back
        assertEquals(60, f.durableStreamTime());
        byte[] meta = StoreDatabase.storeMetaKey(VersionExpiryFilter.STREAM_TIME);
        byte[] t = new byte[8];
        VersionLayout.putLong(t, 0, 1000);
        assertSame(Decision.KEEP, f.filter(1, meta, t));
        assertEquals(1000, f.durableStreamTime(), "learned from the store's entry in a table");
        assertSame(Decision.KEEP, f.filter(1, StoreDatabase.storeMetaKey("other"), new byte[3]));
        assertSame(Decision.KEEP, f.filter(1, StoreDatabase.dataKey(new byte[] {1, 2}), new byte[0]), "not a version key");
        assertSame(Decision.KEEP, f.filter(1, StoreDatabase.dataKey(new byte[] {7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}), value),
                "no region of the layout");
    }
}
