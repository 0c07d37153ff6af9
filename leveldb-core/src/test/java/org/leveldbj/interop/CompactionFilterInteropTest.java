package org.leveldbj.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import org.iq80.leveldb.CompactionFilter;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.PeerExtension;
import org.leveldbj.ttl.TtlDB;
import org.leveldbj.ttl.TtlValues;

/**
 * Databases whose compactions ran a filter, and a TTL database, read the same in C++ LevelDB
 * and goleveldb as in our engine: removed keys stay removed (the deletion markers a filter
 * writes above deeper levels hide the older values there for the peers too), replaced values
 * are the replacements, and a TTL database's values are the application's bytes followed by
 * the 8-byte big-endian expiry. The peers verify a copy against a recipe of exactly the
 * expected entries, with their strictest checks.
 */
@ExtendWith(PeerExtension.class)
class CompactionFilterInteropTest {
    private static final int KEYS = 20_000;

    private static byte[] key(int i) {
        return String.format(Locale.ROOT, "key%07d", i).getBytes(StandardCharsets.US_ASCII);
    }

    private static String s(byte[] b) {
        return new String(b, StandardCharsets.US_ASCII);
    }

    /** Removes "obsolete:" values, replaces "v1:" with "v2:", keeps the rest. */
    private static final class Cleanup implements CompactionFilter {
        @Override
        public String name() {
            return "interop.Cleanup";
        }

        @Override
        public Decision filter(int level, byte[] key, byte[] value) {
            String v = s(value);
            if (v.startsWith("obsolete:")) {
                return Decision.REMOVE;
            }
            return v.startsWith("v1:") ? Decision.replace(("v2:" + v.substring(3)).getBytes(StandardCharsets.US_ASCII))
                    : Decision.KEEP;
        }
    }

    @Test
    void aFilteredDatabaseReadsTheSameInThePeers(@TempDir Path tmp) throws Exception {
        Peers peers = Peers.get();
        Path dir = tmp.resolve("filtered");
        // Small memtables and tables: automatic compactions filter at every level, so that the
        // files hold deletion markers above the older values of deeper levels.
        Options options = new Options().writeBufferSize(64 << 10).maxFileSize(64 << 10).compactionFilter(new Cleanup());
        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
            for (int i = 0; i < KEYS; i++) {
                db.put(key(i), ("old:" + i + " " + "x".repeat(i % 40)).getBytes(StandardCharsets.US_ASCII));
            }
            for (int i = 0; i < KEYS; i++) {
                String v = (i % 3 == 0 ? "obsolete:" : i % 3 == 1 ? "v1:" : "kept:") + i;
                db.put(key(i), v.getBytes(StandardCharsets.US_ASCII));
            }
            db.flushMemTable();
        }
        // What our engine reads: each key holds its newest value, filtered or not yet; never an old one.
        TreeMap<String, byte[]> ours = read(dir, "auto");
        int removed = 0;
        for (int i = 0; i < KEYS; i++) {
            byte[] v = ours.get(s(key(i)));
            String expectedFiltered = i % 3 == 0 ? null : i % 3 == 1 ? "v2:" + i : "kept:" + i;
            String unfiltered = (i % 3 == 0 ? "obsolete:" : i % 3 == 1 ? "v1:" : "kept:") + i;
            String found = v == null ? null : s(v);
            assertTrue(java.util.Objects.equals(found, expectedFiltered) || unfiltered.equals(found),
                    s(key(i)) + ": " + found);
            removed += v == null ? 1 : 0;
        }
        assertTrue(removed > 0, "automatic compactions removed something");
        verifyInPeers(peers, dir, "auto", ours, tmp, "filtered, automatic compactions (" + removed + " removed)");

        try (ExtendedDB db = LevelDbFactory.factory.open(dir.toFile(), options)) {
            db.compactRange(null, null);
        }
        ours = read(dir, "compacted");
        assertEquals(KEYS - (KEYS + 2) / 3, ours.size());
        verifyInPeers(peers, dir, "compacted", ours, tmp, "filtered, compacted");
    }

    @Test
    void aTtlDatabaseReadsInThePeersAsValuesWithTheirSuffix(@TempDir Path tmp) throws Exception {
        Peers peers = Peers.get();
        Path dir = tmp.resolve("ttl");
        AtomicLong now = new AtomicLong(1_000_000);
        TreeMap<String, byte[]> expected = new TreeMap<>();
        try (TtlDB db = TtlDB.open(dir.toFile(), new Options().writeBufferSize(64 << 10), Duration.ofSeconds(10),
                () -> Instant.ofEpochMilli(now.get()))) {
            for (int i = 0; i < 3000; i++) {
                byte[] value = ("value " + i).getBytes(StandardCharsets.US_ASCII);
                if (i % 2 == 0) {
                    db.put(key(i), value, Duration.ofMillis(100));       // expires at 1,000,100
                } else {
                    db.putUntil(key(i), value, Instant.MAX, new WriteOptions());
                    expected.put(s(key(i)), TtlValues.encode(value, TtlValues.NEVER));
                }
            }
            now.addAndGet(1_000);
            db.compactRange(null, null);
        }
        TreeMap<String, byte[]> ours = read(dir, "ttl");
        assertEquals(expected.keySet(), ours.keySet(), "the expired values are gone from the files");
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            assertArrayEquals(e.getValue(), ours.get(e.getKey()));
        }
        byte[] sample = ours.get(s(key(1)));
        assertArrayEquals(new byte[] {0x7f, -1, -1, -1, -1, -1, -1, -1},
                Arrays.copyOfRange(sample, sample.length - 8, sample.length), "the suffix, as a peer reads it");
        verifyInPeers(peers, dir, "ttl", expected, tmp, "TTL");
    }

    private static TreeMap<String, byte[]> read(Path dir, String tag) throws IOException {
        TreeMap<String, byte[]> out = new TreeMap<>();
        try (DB db = LevelDbFactory.factory.open(InteropTest.copy(dir, tag + ".ours").toFile(),
                new Options().createIfMissing(false));
             DBIterator it = db.iterator()) {
            for (it.seekToFirst(); it.hasNext(); ) {
                var e = it.next();
                out.put(s(e.getKey()), e.getValue());
            }
        }
        return out;
    }

    private static void verifyInPeers(Peers peers, Path dir, String tag, TreeMap<String, byte[]> expected, Path tmp,
            String what) throws IOException {
        StringBuilder recipe = new StringBuilder("option write_buffer_size=65536\n");
        HexFormat hex = HexFormat.of();
        for (Map.Entry<String, byte[]> e : expected.entrySet()) {
            recipe.append("put ").append(hex.formatHex(e.getKey().getBytes(StandardCharsets.US_ASCII))).append(' ')
                    .append(e.getValue().length == 0 ? "-" : hex.formatHex(e.getValue())).append('\n');
        }
        Path recipeFile = tmp.resolve(dir.getFileName() + "-" + tag + ".recipe");
        Files.writeString(recipeFile, recipe, StandardCharsets.ISO_8859_1);
        System.out.println("interop: " + what + ": C++ " + peers.cpp("verify", InteropTest.copy(dir, tag + ".cpp").toString(),
                recipeFile.toString()).expectOk().stdout().trim());
        System.out.println("interop: " + what + ": Go " + peers.go("verify", "--strict-all",
                InteropTest.copy(dir, tag + ".go").toString(), recipeFile.toString()).expectOk().output().trim());
    }
}
