package org.leveldbj.table;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/** Seeded random keys and values for the randomized tests, and the sorted model they go into. */
final class RandomData {
    private static final byte[] ALPHABET = {0x00, 0x01, 'a', 'b', 'c', 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};

    private RandomData() {
    }

    static byte[] key(Random r, List<byte[]> previous) {
        int c = r.nextInt(100);
        if (c < 2) {
            return new byte[0];
        }
        if (c < 4) {
            return fill(r, new byte[1000 + r.nextInt(9000)]);
        }
        if (c < 40 && !previous.isEmpty()) {
            // Share a prefix with an earlier key.
            byte[] base = previous.get(r.nextInt(previous.size()));
            int keep = base.length == 0 ? 0 : r.nextInt(base.length + 1);
            byte[] k = Arrays.copyOf(base, keep + r.nextInt(6));
            fill(r, k, keep);
            return k;
        }
        return fill(r, new byte[1 + r.nextInt(24)]);
    }

    private static byte[] fill(Random r, byte[] k) {
        return fill(r, k, 0);
    }

    private static byte[] fill(Random r, byte[] k, int from) {
        for (int i = from; i < k.length; i++) {
            k[i] = r.nextInt(4) == 0 ? (byte) r.nextInt(256) : ALPHABET[r.nextInt(ALPHABET.length)];
        }
        return k;
    }

    static byte[] value(Random r) {
        int c = r.nextInt(100);
        byte[] v;
        if (c < 10) {
            v = new byte[0];
        } else if (c < 11) {
            v = new byte[10_000 + r.nextInt(90_000)];
        } else {
            v = new byte[r.nextInt(100)];
        }
        r.nextBytes(v);
        return v;
    }

    /** Random entries sorted by unsigned byte order, as a list of {key, value} pairs. */
    static List<byte[][]> entries(Random r, int n) {
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] k = key(r, keys);
            keys.add(k);
            model.put(k, value(r));
        }
        List<byte[][]> out = new ArrayList<>(model.size());
        model.forEach((k, v) -> out.add(new byte[][] {k, v}));
        return out;
    }

    /** A key that is probably not in the model: an existing key changed at its end, or random. */
    static byte[] target(Random r, List<byte[][]> entries) {
        int c = r.nextInt(10);
        if (c == 0 || entries.isEmpty()) {
            return new byte[0];
        }
        if (c == 1) {
            byte[] last = entries.get(entries.size() - 1)[0];
            byte[] after = Arrays.copyOf(last, last.length + 1);
            after[last.length] = (byte) 0xff;
            return after;
        }
        byte[] base = entries.get(r.nextInt(entries.size()))[0];
        if (c < 5) {
            return base;
        }
        if (c < 7) {
            return Arrays.copyOf(base, base.length + 1); // just after base
        }
        if (c < 9 && base.length > 0) {
            byte[] k = base.clone();
            k[k.length - 1]--;
            return k;
        }
        return fill(r, new byte[r.nextInt(10)]);
    }
}
