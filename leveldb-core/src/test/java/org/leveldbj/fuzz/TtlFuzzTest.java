package org.leveldbj.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.extension.ExtendWith;
import org.leveldbj.testing.MemEnv;
import org.leveldbj.ttl.TtlDB;
import org.leveldbj.ttl.TtlValues;

/**
 * Fuzzes the reading of a TTL database's stored values ({@link TtlValues}, through
 * {@link TtlDB}'s {@code get} and its iterator both ways, and a compaction by its filter): any
 * bytes may be stored. A value too short for its suffix is a {@link CorruptionException} with
 * a reason, nothing else escapes; a well-formed value reads as its bytes before the suffix, or
 * {@code null} once expired, and the iterators show exactly the values {@code get} shows.
 *
 * <p>Inputs: the clock's reading (8 bytes, big-endian; missing bytes are zero), then stored
 * values, each a length byte and that many bytes (cut short at the end of the input), stored
 * under keys {@code 000}, {@code 001}, ...
 */
@ExtendWith(FuzzEnvironment.class)
class TtlFuzzTest {
    @FuzzTest(maxDuration = "30s")
    void values(byte[] input) throws IOException {
        long now = 0;
        for (int i = 0; i < 8; i++) {
            now = now << 8 | FuzzFiles.u8(input, i);
        }
        List<byte[]> stored = new ArrayList<>();
        for (int at = 8; at < input.length && stored.size() < 1000; ) {
            int length = Math.min(input[at] & 0xff, input.length - at - 1);
            stored.add(Arrays.copyOfRange(input, at + 1, at + 1 + length));
            at += 1 + length;
        }
        long clock = now;
        try (TtlDB db = TtlDB.open(new File("/db"), new Options().env(new MemEnv()), Duration.ofSeconds(1),
                () -> Instant.ofEpochMilli(clock))) {
            boolean corrupt = false;
            List<String> visible = new ArrayList<>();
            for (int i = 0; i < stored.size(); i++) {
                byte[] key = String.format("%03d", i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                db.raw().put(key, stored.get(i));
                byte[] v = stored.get(i);
                if (v.length < TtlValues.SUFFIX_LENGTH) {
                    corrupt = true;
                    try {
                        db.get(key);
                        throw new AssertionError("a " + v.length + "-byte value read without a corruption");
                    } catch (CorruptionException e) {
                        FuzzFiles.checkReport(e, null);
                    }
                } else if (TtlValues.expired(v, clock)) {
                    assertNull(db.get(key));
                } else {
                    assertArrayEquals(Arrays.copyOf(v, v.length - TtlValues.SUFFIX_LENGTH), db.get(key));
                    visible.add(new String(key, java.nio.charset.StandardCharsets.US_ASCII));
                }
            }
            try (DBIterator it = db.iterator()) {
                List<String> forward = new ArrayList<>();
                for (it.seekToFirst(); it.hasNext(); ) {
                    Map.Entry<byte[], byte[]> e = it.next();
                    forward.add(new String(e.getKey(), java.nio.charset.StandardCharsets.US_ASCII));
                }
                List<String> backward = new ArrayList<>();
                it.seekToLast();
                if (it.hasNext()) {
                    backward.add(0, new String(it.peekNext().getKey(), java.nio.charset.StandardCharsets.US_ASCII));
                    while (it.hasPrev()) {
                        backward.add(0, new String(it.prev().getKey(), java.nio.charset.StandardCharsets.US_ASCII));
                    }
                }
                assertEquals(visible, forward);
                assertEquals(visible, backward);
            } catch (CorruptionException e) {
                FuzzFiles.checkReport(e, null);
                assertEquals(true, corrupt, "a corruption without a short value: " + e.getMessage());
            }
            db.compactRange(null, null);
            for (String key : visible) {
                assertEquals(true, db.get(key.getBytes(java.nio.charset.StandardCharsets.US_ASCII)) != null,
                        "the compaction removed " + key + ", which is not expired");
            }
        }
    }
}
