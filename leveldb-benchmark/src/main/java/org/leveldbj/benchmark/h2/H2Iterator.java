package org.leveldbj.benchmark.h2;

import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Map;
import java.util.NoSuchElementException;
import org.h2.mvstore.Cursor;
import org.h2.mvstore.MVMap;
import org.iq80.leveldb.DBIterator;

/**
 * leveldbjni's cursor over an {@link MVMap}: the cursor stands on an entry ({@link #peekNext}),
 * {@link #next} returns it and moves forward, {@link #prev} moves back and returns the entry
 * there. An MVStore cursor runs one way, so changing direction opens a new one at the current
 * key; reading on in one direction costs one cursor step per entry.
 */
final class H2Iterator implements DBIterator {
    private final MVMap<byte[], byte[]> map;
    private Cursor<byte[], byte[]> cursor;
    private boolean reverse;
    private byte[] key;
    private byte[] value;

    H2Iterator(MVMap<byte[], byte[]> map) {
        this.map = map;
        from(null, false, false);
    }

    /** Opens a cursor at {@code start} (the first or last key when null) and stands on its first entry. */
    private void from(byte[] start, boolean backward, boolean skipStart) {
        cursor = map.cursor(start, null, backward);
        reverse = backward;
        step();
        if (skipStart && key != null && Arrays.equals(key, start)) {
            step();
        }
    }

    private void step() {
        if (cursor.hasNext()) {
            key = cursor.next();
            value = cursor.getValue();
        } else {
            key = null;
            value = null;
        }
    }

    @Override
    public void seek(byte[] target) {
        from(target, false, false);
    }

    @Override
    public void seekToFirst() {
        from(null, false, false);
    }

    @Override
    public void seekToLast() {
        from(null, true, false);
    }

    @Override
    public boolean hasNext() {
        return key != null;
    }

    @Override
    public Map.Entry<byte[], byte[]> peekNext() {
        if (key == null) {
            throw new NoSuchElementException();
        }
        return new AbstractMap.SimpleImmutableEntry<>(key, value);
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        Map.Entry<byte[], byte[]> entry = peekNext();
        if (reverse) {
            from(key, false, true);
        } else {
            step();
        }
        return entry;
    }

    @Override
    public boolean hasPrev() {
        if (key == null) {
            return false; // past the end: leveldbjni has no previous entry there
        }
        if (!reverse) {
            from(key, true, false); // same entry, now with a cursor running backwards
        }
        return cursor.hasNext();
    }

    @Override
    public Map.Entry<byte[], byte[]> prev() {
        if (!hasPrev()) {
            throw new NoSuchElementException();
        }
        step();
        return peekNext();
    }

    @Override
    public Map.Entry<byte[], byte[]> peekPrev() {
        if (key == null) {
            throw new NoSuchElementException();
        }
        byte[] before = map.lowerKey(key);
        if (before == null) {
            throw new NoSuchElementException();
        }
        return new AbstractMap.SimpleImmutableEntry<>(before, map.get(before));
    }

    @Override
    public void close() {
        cursor = null;
        key = null;
        value = null;
    }
}
