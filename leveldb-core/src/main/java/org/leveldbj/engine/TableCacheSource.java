package org.leveldbj.engine;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.cache.TableCache;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.table.EntrySample;
import org.leveldbj.table.KeyBatch;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.version.TableSource;

/**
 * Lets versions read tables through the database's {@link TableCache}.
 *
 * <p>Thread safety: as safe as the table cache, which is safe for concurrent use.
 */
final class TableCacheSource implements TableSource {
    private final TableCache cache;

    TableCacheSource(TableCache cache) {
        this.cache = cache;
    }

    @Override
    public SortedIterator iterator(long fileNumber, long fileSize, TableReadOptions readOptions) {
        return cache.iterator(fileNumber, fileSize, readOptions);
    }

    @Override
    public boolean get(long fileNumber, long fileSize, ByteBuffer internalKey, TableReadOptions readOptions,
                       Table.EntryHandler handler) {
        return cache.get(fileNumber, fileSize, internalKey, readOptions, handler);
    }

    @Override
    public void getAll(long fileNumber, long fileSize, int[] which, int count, TableReadOptions readOptions,
                       KeyBatch batch) {
        cache.getAll(fileNumber, fileSize, which, count, readOptions, batch);
    }

    @Override
    public long approximateOffsetOf(long fileNumber, long fileSize, ByteBuffer internalKey) {
        return cache.approximateOffsetOf(fileNumber, fileSize, internalKey);
    }

    @Override
    public EntryCounts entryCounts(long fileNumber, long fileSize, Consumer<CorruptionException> damage) {
        return cache.entryCounts(fileNumber, fileSize, damage);
    }

    @Override
    public EntrySample sampleEntries(long fileNumber, long fileSize) {
        return cache.sampleEntries(fileNumber, fileSize);
    }

    @Override
    public void evict(long fileNumber) {
        cache.evict(fileNumber);
    }
}
