package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.iq80.leveldb.*;

/**
 * Scanning a key range backwards: seek to the range's end, step back to the last key inside it,
 * then {@code prev()} while the keys are still in the range. The cursor sits on an entry, and
 * {@code seek} past the last key leaves it past the end, where {@code hasPrev()} is false: that
 * case starts from {@code seekToLast()} (see {@link DBIterator}).
 *
 * <p>Run: {@code ReverseIteration [directory]}; without a directory it works in a temporary one.
 */
public final class ReverseIteration {
    private ReverseIteration() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, ReverseIteration::run);
    }

    static void run(File dir) throws IOException {
        try (DB db = factory.open(new File(dir, "reverse-db"), new Options())) {
            for (String key : List.of("fruit:apple", "fruit:banana", "fruit:cherry", "veg:kale", "veg:leek")) {
                db.put(bytes(key), bytes("1"));
            }
            // Every key with a prefix: from "fruit:" up to "fruit;" (':' + 1), excluded.
            System.out.println("fruit: " + reverse(db, bytes("fruit:"), bytes("fruit;")));
            // The last prefix in the database: the seek goes past the end.
            System.out.println("veg: " + reverse(db, bytes("veg:"), bytes("veg;")));
            // Any range, across prefixes.
            System.out.println("[fruit:b, veg:l): " + reverse(db, bytes("fruit:b"), bytes("veg:l")));
            // Before the first key.
            System.out.println("[a, b): " + reverse(db, bytes("a"), bytes("b")));
        }
    }

    /**
     * Returns the keys in {@code [from, to)}, last first.
     *
     * @param db the database, ordered by the default (bytewise) comparator
     * @param from the smallest key of the range
     * @param to the key just past the range
     * @return the keys, decoded as UTF-8, in reverse order
     */
    static List<String> reverse(DB db, byte[] from, byte[] to) throws IOException {
        List<String> keys = new ArrayList<>();
        try (DBIterator it = db.iterator()) {
            Map.Entry<byte[], byte[]> entry;
            it.seek(to);                  // on the first key >= to, or past the end
            if (it.hasNext()) {           // that key is past the range: the one before it is the last in it
                entry = it.hasPrev() ? it.prev() : null;
            } else {                      // past the end: every key is < to, so start from the last
                it.seekToLast();
                entry = it.hasNext() ? it.peekNext() : null;
            }
            while (entry != null && Arrays.compareUnsigned(entry.getKey(), from) >= 0) {
                keys.add(asString(entry.getKey()));
                entry = it.hasPrev() ? it.prev() : null;
            }
        }
        return keys;
    }
}
