package org.leveldbj.engine;

import org.iq80.leveldb.DBException;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.PointLookup;
import org.leveldbj.memtable.MemTable;
import org.leveldbj.memtable.NovelShare;
import org.leveldbj.table.KeyCounts;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.table.EntrySample;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.TableSource;
import org.leveldbj.version.Version;
import org.leveldbj.version.VersionSet;

/**
 * How many entries the database holds, approximately: the figure of the property
 * {@code leveldb.approximate-num-entries} and of {@code ExtendedDB.approximateNumEntries()}.
 *
 * <p><b>Formula.</b> Over the memtable, the immutable memtable and every table of the current
 * version, each counting its distinct user keys ({@link KeyCounts}): its live keys (newest version
 * a value), its tombstones (oldest version an unsettled deletion) and, of its live keys, those new
 * to the database (not live in the data older than it):
 * <pre>
 *   estimate = max(0, sum(new keys - tombstones))
 * </pre>
 * A key counts once in the memtable or table holding its oldest live copy, whatever the number of
 * versions there, and nothing in the newer ones, which found it live below; a tombstone cancels a
 * value of its key taken to be in older data. A deletion is settled when the compaction that wrote
 * it dropped the older value it hid (a compaction above the last level keeps the deletion for the
 * levels below, but the value is gone): it is no tombstone, or a workload deleting keys would see
 * the estimate fall towards 0 as compactions run ({@link EntryCounts}).
 *
 * <p><b>New keys.</b> A table's are recorded by its writer, which looked a sample of its live keys
 * up in the data older than it (a flush: every table of its version; a compaction into level n:
 * levels n + 1 and below; {@code compaction.TableFileWriter#sampleNovelty}). A memtable's are
 * estimated here: about {@value #MEMTABLE_SAMPLE} of its keys, drawn from one level of its skip
 * list, are looked up in the immutable memtable (for the memtable) and the tables; the share found
 * nowhere live is kept on the memtable ({@link MemTable#noteNovelShare}) and reused until its live
 * keys change by a quarter (at least {@value #MIN_RESAMPLE_GROWTH}), so that most calls look
 * nothing up. A table whose stats block has the first layout (no key counts) adds
 * {@code entries - 2 * deletions + settled} as before: every version counts.
 *
 * <p><b>Bias.</b> Exact for distinct keys written once, with or without deletions of some of
 * them, and after a full compaction with no snapshot open; a rewritten key counts once, within the
 * sampling error of the shares (a share of 0 or 1, keys all rewritten or all new, is exact).
 * Otherwise: a deletion of a key that holds no value cancels nothing real (low); a settled
 * deletion is taken to have removed the last value of its key, so an older version in a deeper
 * level counts until the deletion reaches it (high); tables without key counts count every
 * version (high, as before).
 *
 * <p><b>Where the counts come from.</b> A memtable counts its entries and deletions as they are
 * added ({@link MemTable#entryCounts()}). A table's counts are on its {@link FileMetaData} when
 * this process wrote it (flush, compaction, ingestion rewrite); otherwise they are read from its
 * stats block ({@code leveldbj.stats}, see {@code org.leveldbj.table.StatsBlock}) through the
 * table cache on the first call and kept on the {@link FileMetaData}, so that each table is read
 * for them at most once while the database is open. A table that records no counts (written by
 * C++ LevelDB, goleveldb or an older leveldbj, or whose stats block is damaged: that is written
 * to the info log with the file and offset, once) is estimated from its own data: its data
 * block in the middle of its index is counted once (entries and deletions, deletions told apart
 * by their key type) and the table's size scaled by that block's entries per byte. A table's own
 * block rather than the density of the tables that have counts, because those are often of
 * another kind (a level-0 table of deletions beside old tables of values). If that block cannot
 * be read, the table is scaled by the density of the tables with counts, and counts as empty
 * when there are none. A table that cannot be opened at all counts as empty for this call.
 *
 * <p><b>Cost.</b> Without tables to read for the first time and without a memtable to sample: a
 * loop over the files of the current version, no I/O and no lock. Sampling a memtable costs about
 * {@value #MEMTABLE_SAMPLE} point lookups (bloom filters first), once per quarter of growth. The first call after opening a database reads each table's
 * metaindex and stats block (or one data block), opening the tables through the table cache as
 * reads would.
 *
 * <p>Thread safety: stateless; reads a pinned {@link ReadView} and takes no database lock.
 */
final class EntryCountEstimate {
    /** About how many keys of a memtable an estimate looks up in the older data. */
    static final int MEMTABLE_SAMPLE = 64;
    /** A memtable is sampled again once its live keys grew by a quarter, and at least by this many. */
    static final long MIN_RESAMPLE_GROWTH = 64;
    private static final TableReadOptions SAMPLE_READS = TableReadOptions.of(false, false);

    private EntryCountEstimate() {
    }

    /**
     * Estimates the entries the database holds now (see the class description).
     *
     * @param s the database
     * @return the estimate, never negative
     * @throws DBException if the database is closed
     */
    static long of(DbState s) {
        ReadView view = s.pinReadView();
        try {
            return of(view, s.tables, s.infoLog);
        } finally {
            view.unpin();
        }
    }

    /**
     * Estimates the entries a view holds (see the class description).
     *
     * @param view the pinned view
     * @param tables how to read the tables
     * @param log where damaged stats blocks are reported
     * @return the estimate, never negative
     */
    static long of(ReadView view, TableSource tables, InfoLog log) {
        Version v = view.version;
        double sum = memNet(view.mem, view.imm, v);
        if (view.imm != null) {
            sum += memNet(view.imm, null, v);
        }
        long knownNet = 0;
        long knownBytes = 0;
        double unknownBytes = 0;
        for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
            for (FileMetaData f : v.files(level)) {
                EntryCounts counts = counts(f, tables, log);
                if (counts != null) {
                    knownNet += counts.liveNet();
                    knownBytes += f.fileSize();
                    continue;
                }
                EntrySample sample = sample(f, tables);
                if (sample != null) {
                    sum += f.fileSize() * ((double) sample.counts().net() / sample.bytes());
                } else {
                    unknownBytes += f.fileSize();
                }
            }
        }
        sum += knownNet;
        if (unknownBytes > 0 && knownBytes > 0) {
            sum += unknownBytes * ((double) knownNet / knownBytes);
        }
        return sum <= 0 ? 0 : Math.round(sum);
    }

    /**
     * What a memtable adds: its live keys new to the database (the share found by looking a
     * sample of them up in the older data, kept on the memtable until its live keys change by a quarter)
     * minus its tombstones.
     */
    static double memNet(MemTable mem, MemTable olderMem, Version version) {
        KeyCounts keys = mem.entryCounts().keys();
        return novelShare(mem, keys.liveKeys(), olderMem, version) * keys.liveKeys() - keys.tombstoneKeys();
    }

    /** The share of a memtable's live keys not live in older data: kept, or sampled anew. */
    private static double novelShare(MemTable mem, long liveKeys, MemTable olderMem, Version version) {
        if (liveKeys == 0) {
            return 1;
        }
        NovelShare noted = mem.novelShare();
        if (noted != null
                && Math.abs(liveKeys - noted.atLiveKeys()) < Math.max(MIN_RESAMPLE_GROWTH, noted.atLiveKeys() / 4)) {
            return noted.share();
        }
        int live = 0;
        int novel = 0;
        Version.GetStats stats = new Version.GetStats();
        PointLookup lookup = new PointLookup();
        for (byte[] key : mem.sampleUserKeys(MEMTABLE_SAMPLE)) {
            lookup.start(key, InternalKeys.MAX_SEQUENCE);
            if (!mem.get(lookup) || lookup.state() != PointLookup.FOUND) {
                continue; // deleted here: not one of the live keys
            }
            live++;
            lookup.start(key, InternalKeys.MAX_SEQUENCE);
            boolean inOlderMem = olderMem != null && olderMem.get(lookup);
            if (!inOlderMem) {
                try {
                    version.get(lookup, SAMPLE_READS, stats);
                } catch (DBException unreadable) {
                    lookup.clear(); // counted as new: reads report the damage
                }
            }
            if (lookup.state() != PointLookup.FOUND) {
                novel++;
            }
        }
        double share = live == 0 ? 1 : (double) novel / live;
        mem.noteNovelShare(new NovelShare(liveKeys, share));
        return share;
    }

    /** The table's counts: kept, or read from its stats block once; {@code null} if it has none. */
    private static EntryCounts counts(FileMetaData f, TableSource tables, InfoLog log) {
        EntryCounts counts = f.entryCounts();
        if (counts != null || f.entryCountsUnavailable()) {
            return counts;
        }
        try {
            counts = tables.entryCounts(f.number(), f.fileSize(), damage -> log.log(
                    "table #%d: stats block unreadable, its entries are estimated: %s", f.number(), damage));
        } catch (DBException unreadable) {
            return null; // not kept: the next call tries again; reads report the problem
        }
        if (counts != null) {
            f.setEntryCounts(counts);
        } else {
            f.markEntryCountsUnavailable();
        }
        return counts;
    }

    /** One data block of a table without counts: kept, or counted once; {@code null} if unreadable. */
    private static EntrySample sample(FileMetaData f, TableSource tables) {
        EntrySample sample = f.entrySample();
        if (sample != null) {
            return sample;
        }
        try {
            sample = tables.sampleEntries(f.number(), f.fileSize());
        } catch (DBException unreadable) {
            return null; // damaged or unreadable: the next call tries again
        }
        if (sample != null) {
            f.setEntrySample(sample);
        }
        return sample;
    }
}
