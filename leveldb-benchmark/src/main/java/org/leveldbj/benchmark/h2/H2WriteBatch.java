package org.leveldbj.benchmark.h2;

import java.util.ArrayList;
import java.util.List;
import org.iq80.leveldb.WriteBatch;

/** Puts and deletes kept in order until the batch is written (a delete is a null value). */
final class H2WriteBatch implements WriteBatch {
    private final List<byte[]> keys = new ArrayList<>();
    private final List<byte[]> values = new ArrayList<>();

    @Override
    public WriteBatch put(byte[] key, byte[] value) {
        keys.add(key.clone());
        values.add(value.clone());
        return this;
    }

    @Override
    public WriteBatch delete(byte[] key) {
        keys.add(key.clone());
        values.add(null);
        return this;
    }

    @Override
    public int size() {
        return keys.size();
    }

    List<byte[]> keys() {
        return keys;
    }

    List<byte[]> values() {
        return values;
    }

    @Override
    public void close() {
        keys.clear();
        values.clear();
    }
}
