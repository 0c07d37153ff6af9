package org.leveldbj.benchmark.h2;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Snapshot;
import org.iq80.leveldb.WriteBatch;
import org.iq80.leveldb.WriteOptions;
import org.leveldbj.benchmark.PeerDb;

/**
 * An MVStore map behind the {@link DB} interface. A batch is applied entry by entry, in order:
 * other threads may see part of it, and a crash may keep part of it (MVStore commits whole
 * versions, but the auto-commit may fall in the middle of a batch). A sync write commits and
 * fsyncs the store.
 */
final class H2Adapter extends PeerDb {
    private final MVStore store;
    private final MVMap<byte[], byte[]> map;
    private final Path file;

    H2Adapter(MVStore store, MVMap<byte[], byte[]> map, Path file) {
        super("H2");
        this.store = store;
        this.map = map;
        this.file = file;
    }

    @Override
    public byte[] get(byte[] key) {
        return map.get(key);
    }

    @Override
    public DBIterator iterator() {
        return new H2Iterator(map);
    }

    @Override
    public WriteBatch createWriteBatch() {
        return new H2WriteBatch();
    }

    @Override
    public Snapshot put(byte[] key, byte[] value, WriteOptions options) {
        map.put(key.clone(), value.clone());
        return finish(options);
    }

    @Override
    public Snapshot delete(byte[] key, WriteOptions options) {
        map.remove(key);
        return finish(options);
    }

    @Override
    public Snapshot write(WriteBatch updates, WriteOptions options) {
        if (!(updates instanceof H2WriteBatch)) {
            throw new IllegalArgumentException("not a batch of this database");
        }
        H2WriteBatch batch = (H2WriteBatch) updates;
        List<byte[]> keys = batch.keys();
        List<byte[]> values = batch.values();
        for (int i = 0; i < keys.size(); i++) {
            byte[] value = values.get(i);
            if (value == null) {
                map.remove(keys.get(i));
            } else {
                map.put(keys.get(i), value);
            }
        }
        return finish(options);
    }

    private Snapshot finish(WriteOptions options) {
        refuseSnapshot(options);
        if (options.sync()) {
            store.commit();
            store.sync();
        }
        return null;
    }

    /**
     * {@code leveldb.stats}: the store file's size and the map's entry count; other names are
     * unknown.
     */
    @Override
    public String getProperty(String name) {
        if (!"leveldb.stats".equals(name)) {
            return null;
        }
        long bytes;
        try {
            bytes = Files.size(file);
        } catch (IOException e) {
            bytes = -1;
        }
        return "H2 MVStore " + file + ": " + bytes + " bytes, " + map.sizeAsLong() + " entries, fill rate "
                + store.getFillRate() + "%\n";
    }

    /** Commits, then rewrites the store file's live chunks for up to a minute (compactFile). */
    @Override
    public void compactRange(byte[] begin, byte[] end) {
        store.commit();
        store.compactFile(60_000);
    }

    @Override
    public void close() {
        store.close();
    }

}
