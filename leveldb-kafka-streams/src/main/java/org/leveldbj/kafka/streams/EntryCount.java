package org.leveldbj.kafka.streams;

import java.io.IOException;
import java.util.Map;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.ExtendedDB;
import org.iq80.leveldb.Range;
import org.iq80.leveldb.ReadOptions;

/**
 * The entry count behind {@code approximateNumEntries()}: exact, by counting, while a store holds
 * at most {@value #EXACT_LIMIT} entries (a millisecond or two); beyond that the engine's estimate
 * ({@code leveldb.approximate-num-entries}: the distinct keys its memtables and tables hold
 * minus the deletions, a key rewritten many times counting once in each memtable or table and
 * only as far as a sample found it new to the older data; within 2x of the true count from 10 to
 * 10,000,000 keys, rewritten or not: doc/entry-count.md). The metadata keys a store keeps beside its data (a handful) are within the
 * estimate's error and not subtracted.
 *
 * <p>Thread safety: stateless.
 */
final class EntryCount {
    /** Up to how many entries the count is exact. */
    static final int EXACT_LIMIT = 10_000;
    private static final String PROPERTY = "leveldb.approximate-num-entries";

    private EntryCount() {
    }

    /**
     * @param database the store's database, for failures
     * @param db its engine
     * @param data the key range of the store's data
     * @return the estimate, never negative
     */
    static long estimate(StoreDatabase database, ExtendedDB db, Range data) {
        long counted = 0;
        long countedBytes = 0;
        byte[] lastCounted = null;
        try (DBIterator it = db.iterator(new ReadOptions().iterateLowerBound(data.start()).iterateUpperBound(data.limit()))) {
            it.seekToFirst();
            while (it.hasNext() && counted <= EXACT_LIMIT) {
                Map.Entry<byte[], byte[]> e = it.next();
                counted++;
                countedBytes += e.getKey().length + e.getValue().length;
                lastCounted = e.getKey();
            }
        } catch (IOException | DBException e) {
            throw database.failure("counting entries", e);
        }
        if (counted <= EXACT_LIMIT) {
            return counted;
        }
        try {
            String engine = db.getProperty(PROPERTY);
            if (engine != null) {
                return Math.max(counted, Long.parseLong(engine));
            }
            // An engine without the property: the tables' bytes at the density of the entries
            // counted (their key range's bytes in the tables), plus the memtable's bytes at their
            // raw size.
            long tableBytes = db.getApproximateSizes(data)[0];
            long sampleBytes = db.getApproximateSizes(new Range(data.start(), lastCounted))[0];
            double rawPerEntry = Math.max(1.0, (double) countedBytes / counted);
            double tableEntries = sampleBytes > 0 ? (double) tableBytes * counted / sampleBytes : tableBytes / rawPerEntry;
            double memoryEntries = database.longProperty("leveldbj.memtable-bytes") / rawPerEntry;
            return Math.max(counted, (long) (tableEntries + memoryEntries));
        } catch (DBException e) {
            throw database.failure("estimating the number of entries", e);
        }
    }
}
