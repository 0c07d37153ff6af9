package org.leveldbj.version;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.iq80.leveldb.CorruptionException;
import org.iq80.leveldb.DBException;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.LookupResult;
import org.leveldbj.key.PointLookup;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.Table;
import org.leveldbj.table.TableReadOptions;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * One state of the database's file set: the table files of each level. Level 0 files may
 * overlap one another and are read newest first; the files of every deeper level are sorted by
 * key and disjoint. A version never changes after it is built; edits produce new versions
 * ({@link VersionBuilder}).
 *
 * <p>Thread safety: the file lists are immutable and may be read by any thread. The seek-driven
 * compaction candidate ({@link #fileToCompact()}) is written by readers through
 * {@link #updateStats} and read by the compaction picker; it is volatile.
 *
 * <p>Lifetime: reference counted. The version set holds a reference to its current version;
 * readers, iterators and compactions take their own with {@link #ref()} and drop it with
 * {@link #unref()}. The files of every version with references are live and never deleted.
 */
public final class Version {
    /** This object's lock (doc/impl.md, Locks). */
    private final OrderedLock lock = new OrderedLock(LockRank.VERSION);
    private final VersionSet vset;
    private final List<List<FileMetaData>> files;
    /** The level-0 files by number, newest first: the order lookups read them in. */
    private final FileMetaData[] level0NewestFirst;
    private static final FileMetaData[] NO_FILES = new FileMetaData[0];
    private final AtomicInteger refs = new AtomicInteger();

    /** Set by {@link #finish()}: the level most in need of compaction and its score. */
    private double compactionScore = -1;
    private int compactionLevel = -1;

    /** A file whose seek budget ran out, and its level; guarded by {@code this}. */
    private FileMetaData fileToCompact;
    private int fileToCompactLevel = -1;

    /**
     * A lookup's passage through the files: which file it reads, and what it learned, the first
     * file read that did not hold the answer, which is charged a seek. Reusable from one lookup to
     * the next (each {@link #get} starts it afresh), so that a lookup allocates nothing here.
     * Confined to the reading thread.
     */
    public static final class GetStats {
        FileMetaData seekFile;
        int seekFileLevel = -1;
        private FileMetaData lastFileRead;
        private int lastFileReadLevel;
        private KeyComparator ucmp;
        private PointLookup lookup;
        private final Table.EntryHandler handler = this::accept;

        /** @return whether the lookup read more than one file, and so charged a seek */
        public boolean chargedASeek() {
            return seekFile != null;
        }

        void start(KeyComparator userComparator, PointLookup pointLookup) {
            seekFile = null;
            seekFileLevel = -1;
            lastFileRead = null;
            ucmp = userComparator;
            lookup = pointLookup;
        }

        /** Forgets the lookup and the files, so that an idle object holds on to nothing. */
        void finish() {
            lastFileRead = null;
            lookup = null;
        }

        /** Notes that a file is about to be read; the first of two or more is charged. */
        void reading(FileMetaData f, int level) {
            if (seekFile == null && lastFileRead != null) {
                seekFile = lastFileRead;
                seekFileLevel = lastFileReadLevel;
            }
            lastFileRead = f;
            lastFileReadLevel = level;
        }

        /** Receives the first entry at or after the seek key in the block that may hold it. */
        private void accept(ByteBuffer key, ByteBuffer value) {
            MultiLookup.settle(lookup, ucmp, key, value);
        }
    }

    /** See {@link #id()}. */
    private final long id;

    Version(VersionSet vset, List<List<FileMetaData>> files) {
        assert files.size() == VersionSet.NUM_LEVELS;
        this.vset = vset;
        this.id = vset.nextVersionId();
        List<List<FileMetaData>> copy = new ArrayList<>(files.size());
        for (List<FileMetaData> level : files) {
            copy.add(Collections.unmodifiableList(new ArrayList<>(level)));
        }
        this.files = Collections.unmodifiableList(copy);
        FileMetaData[] newestFirst = copy.get(0).toArray(new FileMetaData[0]);
        Arrays.sort(newestFirst, (a, b) -> Long.compare(b.number(), a.number()));
        this.level0NewestFirst = newestFirst;
    }

    /**
     * The files of a level: level 0 ordered by smallest key (then number), deeper levels sorted
     * and disjoint.
     *
     * @param level the level
     * @return an unmodifiable list
     */
    public List<FileMetaData> files(int level) {
        return files.get(level);
    }

    /**
     * The number of files in a level.
     *
     * @param level the level
     * @return the count
     */
    public int numFiles(int level) {
        return files.get(level).size();
    }

    /**
     * The total size of a level's files.
     *
     * @param level the level
     * @return bytes
     */
    public long levelBytes(int level) {
        return totalFileSize(files.get(level));
    }

    /**
     * Sums file sizes.
     *
     * @param list files
     * @return bytes
     */
    public static long totalFileSize(List<FileMetaData> list) {
        long sum = 0;
        for (FileMetaData f : list) {
            sum += f.fileSize();
        }
        return sum;
    }

    /**
     * The version's place in the order versions were made: later versions have larger ids.
     *
     * @return the id
     */
    long id() {
        return id;
    }

    /** Adds a reference. */
    public void ref() {
        if (refs.getAndIncrement() == 0) {
            vset.versionLive(this);
        }
    }

    /** Drops a reference; the last one makes the version's files collectable. */
    public void unref() {
        int r = refs.decrementAndGet();
        if (r < 0) {
            throw new IllegalStateException("version released too often");
        }
        if (r == 0) {
            vset.versionReleased(this);
        }
    }

    /** Computes the compaction score (C++ Finalize). Called once by the builder. */
    void finish() {
        double bestScore = -1;
        int bestLevel = -1;
        for (int level = 0; level < VersionSet.NUM_LEVELS - 1; level++) {
            double score;
            if (level == 0) {
                // Count files rather than bytes: level-0 files are all read by every lookup,
                // and small write buffers would otherwise trigger too many compactions.
                score = numFiles(0) / (double) VersionSet.L0_COMPACTION_TRIGGER;
            } else {
                score = levelBytes(level) / VersionSet.maxBytesForLevel(level);
            }
            if (score > bestScore) {
                bestScore = score;
                bestLevel = level;
            }
        }
        compactionScore = bestScore;
        compactionLevel = bestLevel;
    }

    /** @return the highest compaction score; at least 1 means a size compaction is due */
    public double compactionScore() {
        return compactionScore;
    }

    /** @return the level {@link #compactionScore()} belongs to */
    public int compactionLevel() {
        return compactionLevel;
    }

    /** @return the file whose seek budget ran out, or {@code null} */
    public FileMetaData fileToCompact() {
        lock.lock();
        try {
            return fileToCompact;
        } finally {
            lock.unlock();
        }
    }

    /** @return the level of {@link #fileToCompact()}, or -1 */
    public int fileToCompactLevel() {
        lock.lock();
        try {
            return fileToCompactLevel;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Looks a user key up in the tables as of a snapshot: level 0 newest first, then at most
     * one file per deeper level.
     *
     * @param userKey the user key
     * @param sequence the snapshot sequence number
     * @param readOptions checksum and cache settings
     * @param stats receives the file to charge a seek to
     * @return FOUND with the value, DELETED, or NOT_FOUND
     * @throws CorruptionException if an entry read is malformed
     */
    public LookupResult get(byte[] userKey, long sequence, TableReadOptions readOptions, GetStats stats) {
        PointLookup lookup = new PointLookup();
        lookup.start(userKey, sequence);
        get(lookup, readOptions, stats);
        return switch (lookup.state()) {
            case PointLookup.FOUND -> LookupResult.found(lookup.value());
            case PointLookup.DELETED -> LookupResult.DELETED;
            default -> LookupResult.NOT_FOUND;
        };
    }

    /**
     * Looks a started lookup up in the tables, as {@link #get(byte[], long, TableReadOptions,
     * GetStats)} does, allocating nothing but the value's copy.
     *
     * @param lookup the lookup; settled here when a table holds the key
     * @param readOptions checksum and cache settings
     * @param stats reused; receives the file to charge a seek to
     * @throws CorruptionException if an entry read is malformed
     */
    public void get(PointLookup lookup, TableReadOptions readOptions, GetStats stats) {
        get(lookup, readOptions, stats, 0);
    }

    /**
     * Looks a started lookup up in the tables of a level and the levels below it only, as
     * {@link #get(PointLookup, TableReadOptions, GetStats)} does in all of them: whether data
     * older than a table written to {@code fromLevel - 1} holds a key.
     *
     * @param lookup the lookup; settled here when a table holds the key
     * @param readOptions checksum and cache settings
     * @param stats reused; receives the file to charge a seek to
     * @param fromLevel the first level to look in, 0 to {@link VersionSet#NUM_LEVELS}
     * @throws CorruptionException if an entry read is malformed
     */
    public void get(PointLookup lookup, TableReadOptions readOptions, GetStats stats, int fromLevel) {
        KeyComparator ucmp = vset.icmp().userComparator();
        byte[] userKey = lookup.userKey();
        stats.start(ucmp, lookup);
        try {
            for (FileMetaData f : fromLevel == 0 ? level0NewestFirst : NO_FILES) {
                if (compareUser(ucmp, userKey, f.smallest()) >= 0 && compareUser(ucmp, userKey, f.largest()) <= 0
                        && search(f, 0, lookup, readOptions, stats)) {
                    return;
                }
            }
            for (int level = Math.max(1, fromLevel); level < VersionSet.NUM_LEVELS; level++) {
                List<FileMetaData> list = files.get(level);
                if (list.isEmpty()) {
                    continue;
                }
                int index = findFile(vset.icmp(), list, lookup.seekKeyArray(), lookup.seekKeyLength());
                if (index < list.size()) {
                    FileMetaData f = list.get(index);
                    if (compareUser(ucmp, userKey, f.smallest()) >= 0 && search(f, level, lookup, readOptions, stats)) {
                        return;
                    }
                }
            }
        } finally {
            stats.finish();
        }
    }

    /**
     * Looks many started lookups up in the tables at once: each ends as
     * {@link #get(PointLookup, TableReadOptions, GetStats)} would leave it, but every level is
     * walked once for all of them and a table is read once for all the keys it may hold (see
     * {@link MultiLookup}). Lookups already settled (in a memtable) are passed over. Charges no
     * seeks.
     *
     * <p>Requires: the lookups are started at one sequence number and sorted by user key, with
     * no key twice.
     *
     * @param lookups the lookups; those a table holds are settled here
     * @param count how many of {@code lookups} to use
     * @param readOptions checksum and cache settings
     * @throws CorruptionException if an entry read is malformed
     */
    public void getAll(PointLookup[] lookups, int count, TableReadOptions readOptions) {
        MultiLookup batch = new MultiLookup(lookups, count, vset.icmp(), vset.tables(), readOptions);
        batch.level0(level0NewestFirst);
        for (int level = 1; level < VersionSet.NUM_LEVELS; level++) {
            List<FileMetaData> list = files.get(level);
            if (!list.isEmpty()) {
                batch.level(list);
            }
        }
    }

    /** Reads one file; returns whether it settled the lookup. */
    private boolean search(FileMetaData f, int level, PointLookup lookup, TableReadOptions readOptions,
                           GetStats stats) {
        stats.reading(f, level);
        vset.tables().get(f.number(), f.fileSize(), lookup.seekKey(), readOptions, stats.handler);
        return lookup.settled();
    }

    /**
     * Charges a seek to the file a lookup named, and makes it the compaction candidate when its
     * budget runs out.
     *
     * @param stats the lookup's statistics
     * @return {@code true} when a compaction should be scheduled
     */
    public boolean updateStats(GetStats stats) {
        FileMetaData f = stats.seekFile;
        if (f == null) {
            return false;
        }
        if (f.chargeSeek()) {
            lock.lock();
            try {
                if (fileToCompact == null) {
                    fileToCompact = f;
                    fileToCompactLevel = stats.seekFileLevel;
                    return true;
                }
            } finally {
                lock.unlock();
            }
        }
        return false;
    }

    /**
     * Records that an iterator read a key: if two or more files overlap it, the first is charged
     * a seek (C++ RecordReadSample).
     *
     * @param internalKey the internal key read
     * @return {@code true} when a compaction should be scheduled
     */
    public boolean recordReadSample(byte[] internalKey) {
        if (internalKey.length < InternalKeys.TRAILER_SIZE) {
            return false;
        }
        KeyComparator ucmp = vset.icmp().userComparator();
        byte[] userKey = InternalKeys.userKey(internalKey);
        GetStats stats = new GetStats();
        int matches = 0;
        List<FileMetaData> level0 = new ArrayList<>();
        for (FileMetaData f : files.get(0)) {
            if (compareUser(ucmp, userKey, f.smallest()) >= 0 && compareUser(ucmp, userKey, f.largest()) <= 0) {
                level0.add(f);
            }
        }
        level0.sort((a, b) -> Long.compare(b.number(), a.number()));
        for (FileMetaData f : level0) {
            if (++matches == 1) {
                stats.seekFile = f;
                stats.seekFileLevel = 0;
            }
        }
        for (int level = 1; level < VersionSet.NUM_LEVELS && matches < 2; level++) {
            List<FileMetaData> list = files.get(level);
            int index = findFile(vset.icmp(), list, internalKey);
            if (index < list.size() && compareUser(ucmp, userKey, list.get(index).smallest()) >= 0) {
                if (++matches == 1) {
                    stats.seekFile = list.get(index);
                    stats.seekFileLevel = level;
                }
            }
        }
        return matches >= 2 && updateStats(stats);
    }

    /**
     * Tells whether any file of a level overlaps a user-key range.
     *
     * @param level the level
     * @param smallestUserKey the range start, or {@code null} for unbounded
     * @param largestUserKey the range end (inclusive), or {@code null} for unbounded
     * @return {@code true} on overlap
     */
    public boolean overlapInLevel(int level, byte[] smallestUserKey, byte[] largestUserKey) {
        return someFileOverlapsRange(vset.icmp(), level > 0, files.get(level), smallestUserKey, largestUserKey);
    }

    /**
     * Chooses the level for a table flushed from a memtable: level 0 if it overlaps level 0,
     * otherwise pushed down while the next level has no overlap and the level after it not too
     * much, at most to {@link VersionSet#MAX_MEM_COMPACT_LEVEL}.
     *
     * @param smallestUserKey the table's smallest user key
     * @param largestUserKey the table's largest user key
     * @return the level
     */
    public int pickLevelForMemTableOutput(byte[] smallestUserKey, byte[] largestUserKey) {
        int level = 0;
        if (!overlapInLevel(0, smallestUserKey, largestUserKey)) {
            byte[] start = InternalKeys.encode(smallestUserKey, InternalKeys.MAX_SEQUENCE, ValueType.FOR_SEEK);
            byte[] limit = InternalKeys.encode(largestUserKey, 0, ValueType.DELETION);
            while (level < VersionSet.MAX_MEM_COMPACT_LEVEL) {
                if (overlapInLevel(level + 1, smallestUserKey, largestUserKey)) {
                    break;
                }
                if (level + 2 < VersionSet.NUM_LEVELS) {
                    long overlap = totalFileSize(getOverlappingInputs(level + 2, start, limit));
                    if (overlap > vset.maxGrandParentOverlapBytes()) {
                        break;
                    }
                }
                level++;
            }
        }
        return level;
    }

    /**
     * Returns the files of a level that overlap a range of internal keys, compared by user key.
     * In level 0, a file that widens the range restarts the search with the wider range, so the
     * result holds every level-0 file transitively overlapping it.
     *
     * @param level the level
     * @param begin the range start (internal key), or {@code null} for unbounded
     * @param end the range end (internal key, inclusive), or {@code null} for unbounded
     * @return the files, in level order
     */
    public List<FileMetaData> getOverlappingInputs(int level, byte[] begin, byte[] end) {
        KeyComparator ucmp = vset.icmp().userComparator();
        byte[] userBegin = begin == null ? null : InternalKeys.userKey(begin);
        byte[] userEnd = end == null ? null : InternalKeys.userKey(end);
        List<FileMetaData> inputs = new ArrayList<>();
        List<FileMetaData> list = files.get(level);
        for (int i = 0; i < list.size(); ) {
            FileMetaData f = list.get(i++);
            byte[] fileStart = InternalKeys.userKey(f.smallest());
            byte[] fileLimit = InternalKeys.userKey(f.largest());
            if (userBegin != null && ucmp.compare(fileLimit, userBegin) < 0) {
                continue;
            }
            if (userEnd != null && ucmp.compare(fileStart, userEnd) > 0) {
                continue;
            }
            inputs.add(f);
            if (level == 0) {
                if (userBegin != null && ucmp.compare(fileStart, userBegin) < 0) {
                    userBegin = fileStart;
                    inputs.clear();
                    i = 0;
                } else if (userEnd != null && ucmp.compare(fileLimit, userEnd) > 0) {
                    userEnd = fileLimit;
                    inputs.clear();
                    i = 0;
                }
            }
        }
        return inputs;
    }

    /**
     * Opens the iterators that together cover this version: one per level-0 file and one
     * concatenating iterator per non-empty deeper level. The caller merges and closes them.
     *
     * <p>A level-0 file gets a {@link #levelIterator} of that one file rather than its table's
     * own iterator, so that a merge's children are of two classes at most (these and the
     * memtables'). The JIT inlines a merge's calls on its children only while their call sites
     * have met at most two classes; with a third, each step of a scan made four calls through
     * the interface instead (a forward scan took about 10% longer,
     * {@code IterationBenchmark -p layout=shuffled}).
     *
     * @param readOptions checksum and cache settings
     * @param out receives the iterators
     */
    public void addIterators(TableReadOptions readOptions, List<SortedIterator> out) {
        for (FileMetaData f : files.get(0)) {
            out.add(levelIterator(List.of(f), readOptions));
        }
        for (int level = 1; level < VersionSet.NUM_LEVELS; level++) {
            if (!files.get(level).isEmpty()) {
                out.add(levelIterator(files.get(level), readOptions));
            }
        }
    }

    /**
     * Adds iterators over the files that may hold user keys in {@code [lower, upper)}: a table
     * whose key range lies entirely outside is left out (never opened nor read), level 0's
     * tables one by one, each deeper level's by the run of files overlapping the range.
     *
     * @param readOptions checksum and cache settings
     * @param lower the smallest user key wanted, or {@code null} for none
     * @param upper the first user key not wanted, or {@code null} for none
     * @param out receives the iterators, to be closed by the caller
     */
    public void addIterators(TableReadOptions readOptions, byte[] lower, byte[] upper, List<SortedIterator> out) {
        if (lower == null && upper == null) {
            addIterators(readOptions, out);
            return;
        }
        KeyComparator ucmp = vset.icmp().userComparator();
        for (FileMetaData f : files.get(0)) {
            if (mayOverlap(ucmp, f, lower, upper)) {
                out.add(levelIterator(List.of(f), readOptions));
            }
        }
        for (int level = 1; level < VersionSet.NUM_LEVELS; level++) {
            List<FileMetaData> list = files.get(level);
            int from = 0;
            while (from < list.size() && !mayOverlap(ucmp, list.get(from), lower, upper)) {
                from++;
            }
            int to = from;
            while (to < list.size() && mayOverlap(ucmp, list.get(to), lower, upper)) {
                to++;
            }
            if (from < to) {
                out.add(levelIterator(list.subList(from, to), readOptions));
            }
        }
    }

    /** Whether a file's user-key range meets {@code [lower, upper)}. */
    private static boolean mayOverlap(KeyComparator ucmp, FileMetaData f, byte[] lower, byte[] upper) {
        if (lower != null && compareUser(ucmp, lower, f.largest()) > 0) {
            return false;
        }
        return upper == null || compareUser(ucmp, upper, f.smallest()) > 0;
    }

    /**
     * An iterator over the concatenated tables of a sorted, disjoint list of files, each table
     * opened only when the iteration reaches it.
     *
     * @param list the files
     * @param readOptions checksum and cache settings
     * @return an unpositioned iterator, to be closed by the caller
     */
    public SortedIterator levelIterator(List<FileMetaData> list, TableReadOptions readOptions) {
        return new LevelIterator(vset.icmp(), list, vset.tables(), readOptions);
    }

    /**
     * Estimates the file bytes before an internal key in this version.
     *
     * @param internalKey the key
     * @return an offset in the concatenation of all table files
     */
    public long approximateOffsetOf(byte[] internalKey) {
        InternalKeyComparator icmp = vset.icmp();
        long result = 0;
        for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
            for (FileMetaData f : files.get(level)) {
                if (icmp.compare(f.largest(), internalKey) <= 0) {
                    result += f.fileSize();
                } else if (icmp.compare(f.smallest(), internalKey) > 0) {
                    if (level > 0) {
                        break;
                    }
                } else {
                    try {
                        result += vset.tables().approximateOffsetOf(f.number(), f.fileSize(),
                                ByteBuffer.wrap(internalKey));
                    } catch (DBException unreadable) {
                        // An estimate: as in C++, a table that cannot be opened counts as empty
                        // here; reads report the problem.
                    }
                }
            }
        }
        return result;
    }

    /**
     * Returns the index of the first file whose largest key is at or after {@code internalKey},
     * or {@code list.size()} when there is none.
     *
     * @param icmp the internal-key order
     * @param list sorted, disjoint files
     * @param internalKey the key
     * @return the index
     */
    public static int findFile(InternalKeyComparator icmp, List<FileMetaData> list, byte[] internalKey) {
        return findFile(icmp, list, internalKey, internalKey.length);
    }

    /**
     * Finds the first file of a sorted, disjoint list whose largest key is at or after a key
     * held in the first {@code length} bytes of an array.
     *
     * @param icmp the internal-key order
     * @param list the files
     * @param internalKey the key's array
     * @param length the key's length
     * @return the index, or {@code list.size()} when every file ends before the key
     */
    public static int findFile(InternalKeyComparator icmp, List<FileMetaData> list, byte[] internalKey, int length) {
        int left = 0;
        int right = list.size();
        while (left < right) {
            int mid = (left + right) >>> 1;
            byte[] largest = list.get(mid).largest();
            if (icmp.compare(largest, 0, largest.length, internalKey, 0, length) < 0) {
                left = mid + 1;
            } else {
                right = mid;
            }
        }
        return right;
    }

    /**
     * Tells whether any file of a list overlaps a user-key range.
     *
     * @param icmp the internal-key order
     * @param disjoint whether the files are sorted and disjoint (levels above 0)
     * @param list the files
     * @param smallestUserKey the range start, or {@code null} for unbounded
     * @param largestUserKey the range end (inclusive), or {@code null} for unbounded
     * @return {@code true} on overlap
     */
    public static boolean someFileOverlapsRange(InternalKeyComparator icmp, boolean disjoint, List<FileMetaData> list,
                                                byte[] smallestUserKey, byte[] largestUserKey) {
        KeyComparator ucmp = icmp.userComparator();
        if (!disjoint) {
            for (FileMetaData f : list) {
                if (afterFile(ucmp, smallestUserKey, f) || beforeFile(ucmp, largestUserKey, f)) {
                    continue;
                }
                return true;
            }
            return false;
        }
        int index = 0;
        if (smallestUserKey != null) {
            index = findFile(icmp, list, InternalKeys.encode(smallestUserKey, InternalKeys.MAX_SEQUENCE,
                    ValueType.FOR_SEEK));
        }
        if (index >= list.size()) {
            return false;
        }
        return !beforeFile(ucmp, largestUserKey, list.get(index));
    }

    private static boolean afterFile(KeyComparator ucmp, byte[] userKey, FileMetaData f) {
        return userKey != null && compareUser(ucmp, userKey, f.largest()) > 0;
    }

    private static boolean beforeFile(KeyComparator ucmp, byte[] userKey, FileMetaData f) {
        return userKey != null && compareUser(ucmp, userKey, f.smallest()) < 0;
    }

    /**
     * Compares a user key with the user-key part of an internal key.
     *
     * @param ucmp the user-key order
     * @param userKey a user key
     * @param internalKey an internal key
     * @return the comparison
     */
    static int compareUser(KeyComparator ucmp, byte[] userKey, byte[] internalKey) {
        return ucmp.compare(userKey, 0, userKey.length, internalKey, 0, internalKey.length - InternalKeys.TRAILER_SIZE);
    }

    /**
     * Describes the files per level, as the {@code leveldb.sstables} property shows them.
     *
     * @return one section per level
     */
    public String debugString() {
        StringBuilder sb = new StringBuilder();
        for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
            sb.append("--- level ").append(level).append(" ---\n");
            for (FileMetaData f : files.get(level)) {
                sb.append(' ').append(f.number()).append(':').append(f.fileSize()).append('[')
                        .append(InternalKeys.toString(f.smallest())).append(" .. ")
                        .append(InternalKeys.toString(f.largest())).append("]\n");
            }
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Version[");
        for (int level = 0; level < VersionSet.NUM_LEVELS; level++) {
            sb.append(level == 0 ? "" : " ").append(numFiles(level));
        }
        return sb.append(']').toString();
    }
}
