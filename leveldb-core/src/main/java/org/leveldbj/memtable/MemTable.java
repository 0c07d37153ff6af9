package org.leveldbj.memtable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.LookupResult;
import org.leveldbj.key.PointLookup;
import org.leveldbj.key.ValueType;
import org.leveldbj.table.EntryCounts;
import org.leveldbj.table.KeyCounts;

/**
 * The in-memory table of recent writes: entries keyed by internal key (user key, sequence
 * number, type) in a {@link SkipList} whose nodes live off-heap in an {@link Arena}. Nothing is
 * ever removed; the whole table is dropped once it has been written to a table file.
 *
 * <p>Thread safety: {@link #add} requires external synchronization of
 * writers (the engine's write queue serializes them). {@link #get}, {@link #iterator()},
 * {@link #isEmpty()}, {@link #approximateMemoryUsage()} and {@link #entryCounts()} may be
 * called by any number of threads, without a lock, concurrently with the writer; see the
 * package documentation for what a concurrent reader sees. {@link #ref()} and {@link #unref()} are thread-safe.
 *
 * <p>Lifetime: reference counted, never left to the garbage collector. A new memtable has one
 * reference, owned by its creator; {@link #ref()} adds one and {@link #unref()} drops one, and
 * the drop to zero frees the arena at once. Every method other than {@code ref}/{@code unref}
 * requires a reference held by the caller for the whole call; an iterator holds its own until
 * it is closed, so the views it returns stay readable even after the engine drops the
 * memtable. Using a released memtable throws {@link IllegalStateException}.
 */
public final class MemTable {
    /** The seed of every memtable's height generator: runs are reproducible. */
    private static final long HEIGHT_SEED = 0xdeadbeefL;

    private static final VarHandle ENTRIES;
    private static final VarHandle DELETIONS;
    private static final VarHandle KEYS;
    private static final VarHandle LIVE_KEYS;
    private static final VarHandle TOMBSTONE_KEYS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ENTRIES = lookup.findVarHandle(MemTable.class, "entries", long.class);
            DELETIONS = lookup.findVarHandle(MemTable.class, "deletions", long.class);
            KEYS = lookup.findVarHandle(MemTable.class, "keys", long.class);
            LIVE_KEYS = lookup.findVarHandle(MemTable.class, "liveKeys", long.class);
            TOMBSTONE_KEYS = lookup.findVarHandle(MemTable.class, "tombstoneKeys", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The entries added, and the deletions among them. Written only by the single writer, which
     * reads them plainly (the write queue orders one writer after the previous one) and stores
     * them with release semantics after the entry is inserted; other threads read them with
     * acquire semantics ({@link #entryCounts()}), so a count never includes an entry that is not
     * in the list yet. No read-modify-write instruction and no contention: a release store is a
     * plain store on x86 ({@code stlr} on ARM).
     */
    private long entries;
    private long deletions;

    /**
     * The distinct user keys added ({@link KeyCounts}): an entry whose successor in the list (the
     * key's previous newest version: entries are added in sequence order) has the same user key
     * adds a version, not a key. {@code liveKeys}: keys whose newest version is a value (a value
     * over a deletion adds one, a deletion over a value takes one off); {@code tombstoneKeys}:
     * keys whose first version added, their oldest here, is a deletion, standing for a value in
     * the tables. Stored, read and ordered like the counts above (see {@link #entryCounts()}).
     */
    private long keys;
    private long liveKeys;
    private long tombstoneKeys;

    /** The last share of new keys an estimate found by sampling (see {@link #novelShare()}), or {@code null}. */
    private volatile NovelShare novelShare;

    /** The oldest and newest value files an entry refers to (written by the writer only). */
    private volatile long oldestValueFile = Long.MAX_VALUE;
    private volatile long newestValueFile = Long.MIN_VALUE;
    private final KeyComparator userComparator;
    private final Arena arena;
    private final SkipList list;
    private final AtomicInteger refs = new AtomicInteger(1);

    /**
     * Creates an empty memtable whose arena uses chunks of {@link Arena#DEFAULT_CHUNK_SIZE}.
     *
     * @param userComparator the order of user keys
     */
    public MemTable(KeyComparator userComparator) {
        this(userComparator, Arena.DEFAULT_CHUNK_SIZE);
    }

    /**
     * Creates an empty memtable.
     *
     * @param userComparator the order of user keys
     * @param arenaChunkSize the size of a regular arena chunk (see {@link Arena#Arena(int)})
     */
    public MemTable(KeyComparator userComparator, int arenaChunkSize) {
        this.userComparator = Objects.requireNonNull(userComparator, "userComparator");
        this.arena = new Arena(arenaChunkSize);
        this.list = new SkipList(arena, userComparator, HEIGHT_SEED);
    }

    /**
     * The order of user keys.
     *
     * @return the comparator given at construction
     */
    public KeyComparator userComparator() {
        return userComparator;
    }

    /**
     * Notes that an entry of this memtable refers to a value file: the file must outlive the
     * memtable. Called by the memtable's single writer.
     *
     * @param fileNumber the value file's number
     */
    public void noteValueFile(long fileNumber) {
        if (fileNumber < oldestValueFile) {
            oldestValueFile = fileNumber;
        }
        if (fileNumber > newestValueFile) {
            newestValueFile = fileNumber;
        }
    }

    /**
     * Whether an entry may refer to a value file (the files between the oldest and the newest
     * one noted).
     *
     * @param fileNumber the value file's number
     * @return {@code false} when no entry refers to it
     */
    public boolean mayReferToValueFile(long fileNumber) {
        return fileNumber >= oldestValueFile && fileNumber <= newestValueFile;
    }

    /**
     * Adds an entry. Copies the key and value into the arena; allocates nothing else.
     *
     * <p>Requires: the single writer; a held reference; no entry with the same user key,
     * sequence and type already added; {@code 0 <= sequence <= InternalKeys.MAX_SEQUENCE}.
     *
     * @param sequence the entry's sequence number
     * @param type value or deletion
     * @param keyBuf array holding the user key
     * @param keyOff index of its first byte
     * @param keyLen its length
     * @param valBuf array holding the value (for a deletion, pass an empty range)
     * @param valOff index of its first byte
     * @param valLen its length
     * @throws IllegalArgumentException if the key or value is too large or the sequence is out
     *     of range
     * @throws IllegalStateException if the memtable is released
     */
    public void add(long sequence, ValueType type, byte[] keyBuf, int keyOff, int keyLen,
                    byte[] valBuf, int valOff, int valLen) {
        checkAlive();
        Objects.checkFromIndexSize(keyOff, keyLen, keyBuf.length);
        Objects.checkFromIndexSize(valOff, valLen, valBuf.length);
        if (keyLen > MemTableEntry.MAX_PART_LENGTH || valLen > MemTableEntry.MAX_PART_LENGTH) {
            throw new IllegalArgumentException("memtable entry too large: key " + keyLen + " bytes, value "
                    + valLen + " bytes");
        }
        long trailer = InternalKeys.packTrailer(sequence, type);
        int entryLength = MemTableEntry.encodedLength(keyLen, valLen);
        long node = list.newNode(entryLength);
        MemTableEntry.write(arena.buffer(node), SkipList.entry(node), trailer, keyBuf, keyOff, keyLen,
                valBuf, valOff, valLen);
        boolean overwrite = list.insert(node);
        ENTRIES.setRelease(this, entries + 1);
        boolean deletion = type == ValueType.DELETION;
        if (deletion) {
            DELETIONS.setRelease(this, deletions + 1);
        }
        if (!overwrite) {
            KEYS.setRelease(this, keys + 1);
            if (deletion) {
                TOMBSTONE_KEYS.setRelease(this, tombstoneKeys + 1);
            } else {
                LIVE_KEYS.setRelease(this, liveKeys + 1);
            }
        } else if (deletion != list.lastReplacedWasDeletion()) {
            LIVE_KEYS.setRelease(this, deletion ? liveKeys - 1 : liveKeys + 1);
        }
    }

    /**
     * How many entries were added (values, value references and deletions: every version of
     * every key) and how many of them are deletions. Any thread, without a lock; a reference need
     * not be held. The deletions are read first: the writer stores a deletion's entry count
     * before its deletion count, so the deletions read are never more than the entries read
     * after them.
     *
     * @return the counts at about this moment
     */
    public EntryCounts entryCounts() {
        // Read in the reverse of the order the writer stores them, so that each count read is
        // within the ones read after it (tombstones within deletions and keys, live keys within
        // keys and values, keys and deletions within entries).
        long t = (long) TOMBSTONE_KEYS.getAcquire(this);
        long l = (long) LIVE_KEYS.getAcquire(this);
        long k = (long) KEYS.getAcquire(this);
        long d = (long) DELETIONS.getAcquire(this);
        long e = (long) ENTRIES.getAcquire(this);
        return new EntryCounts(e, d, 0, new KeyCounts(k, l, t, l));
    }

    /**
     * The share of this memtable's live keys that an estimate last found new to the database, by
     * looking a sample of them up in the older data; kept here so that later estimates reuse it
     * until the memtable has grown. Any thread.
     *
     * @return the last share noted, or {@code null}
     */
    public NovelShare novelShare() {
        return novelShare;
    }

    /**
     * Notes the share of new keys a sample found (see {@link #novelShare()}). Any thread; the
     * last call wins.
     *
     * @param share the share
     */
    public void noteNovelShare(NovelShare share) {
        this.novelShare = share;
    }

    /**
     * A sample of the user keys, spread over the whole table: the keys of the nodes of one level
     * of the skip list (a node reaches a level at random, whatever its key), the highest level
     * that still holds about {@code size} nodes. A key with many versions is more likely to be
     * drawn. Requires: a held reference. Any thread.
     *
     * @param size about how many keys to draw (at most twice as many are returned)
     * @return copies of the user keys drawn, in key order, no key twice in a row
     * @throws IllegalStateException if the memtable is released
     */
    public List<byte[]> sampleUserKeys(int size) {
        checkAlive();
        long n = (long) ENTRIES.getAcquire(this);
        int level = 0;
        while (level + 1 < SkipList.MAX_HEIGHT && (n >> (2 * (level + 1))) >= size) {
            level++;
        }
        return list.userKeysAtLevel(level, 2 * Math.max(1, size));
    }

    /**
     * Looks up the newest entry for a user key whose sequence number is at most a snapshot's.
     *
     * <p>Requires: a held reference. Any thread.
     *
     * @param userKey the user key
     * @param snapshotSequence the snapshot: entries with larger sequence numbers are ignored
     * @return {@link LookupResult#DELETED}, {@link LookupResult#NOT_FOUND}, or a found result
     *     holding a copy of the value
     * @throws IllegalStateException if the memtable is released
     */
    public LookupResult get(byte[] userKey, long snapshotSequence) {
        PointLookup lookup = new PointLookup();
        lookup.start(userKey, snapshotSequence);
        if (!get(lookup)) {
            return LookupResult.NOT_FOUND;
        }
        return lookup.state() == PointLookup.DELETED ? LookupResult.DELETED : LookupResult.found(lookup.value());
    }

    /**
     * Looks a key up as {@link #get(byte[], long)} does, allocating nothing but the value's copy.
     *
     * <p>Requires: a held reference. Any thread.
     *
     * @param lookup the lookup, started; settled here when this memtable holds the key
     * @return whether the lookup is settled
     * @throws IllegalStateException if the memtable is released
     */
    public boolean get(PointLookup lookup) {
        checkAlive();
        byte[] userKey = lookup.userKey();
        ByteBuffer key = lookup.userKeyBuffer();
        long node = list.seek(key, 0, userKey.length, InternalKeys.packTrailer(lookup.sequence(), ValueType.FOR_SEEK));
        if (node == Arena.NULL) {
            return false;
        }
        ByteBuffer b = arena.buffer(node);
        long internalKey = MemTableEntry.internalKey(b, SkipList.entry(node));
        int start = MemTableEntry.start(internalKey);
        int length = MemTableEntry.length(internalKey) - InternalKeys.TRAILER_SIZE;
        if (list.compareUserKeys(b, start, length, key, 0, userKey.length) != 0) {
            return false;
        }
        long trailer = b.getLong(start + length);
        int type = InternalKeys.typeByte(trailer);
        if (type == ValueType.DELETION.persistentId()) {
            lookup.deleted();
            lookup.settledAt(InternalKeys.sequence(trailer));
            return true;
        }
        assert type == ValueType.VALUE.persistentId() || type == ValueType.VALUE_REFERENCE.persistentId() : "type " + type;
        long value = MemTableEntry.value(b, SkipList.entry(node));
        byte[] copy = new byte[MemTableEntry.length(value)];
        b.get(MemTableEntry.start(value), copy);
        lookup.found(type, copy);
        lookup.settledAt(InternalKeys.sequence(trailer));
        return true;
    }

    /**
     * Returns an iterator over every entry, in internal-key order, whose keys and values are
     * views of the arena. The iterator holds a reference until it is closed.
     *
     * <p>Requires: a held reference. Any thread (the iterator is then confined to one thread at
     * a time).
     *
     * @return a new, unpositioned iterator
     * @throws IllegalStateException if the memtable is released
     */
    public SortedIterator iterator() {
        ref();
        return new MemTableIterator(this, arena, list);
    }

    /**
     * The approximate memory the memtable's data occupies (see {@link Arena#memoryUsage()}).
     * Any thread.
     *
     * @return bytes
     */
    public long approximateMemoryUsage() {
        return arena.memoryUsage();
    }

    /**
     * Tells whether no entry has been added. Requires: a held reference. Any thread.
     *
     * @return {@code true} when empty
     */
    public boolean isEmpty() {
        checkAlive();
        return list.first() == Arena.NULL;
    }

    /**
     * Adds a reference. Thread-safe.
     *
     * @throws IllegalStateException if the memtable is already released
     */
    public void ref() {
        int r;
        do {
            r = refs.get();
            if (r <= 0) {
                throw released();
            }
        } while (!refs.compareAndSet(r, r + 1));
    }

    /**
     * Drops a reference; dropping the last one frees the arena. Thread-safe.
     *
     * @throws IllegalStateException if the memtable is already released
     */
    public void unref() {
        int r;
        do {
            r = refs.get();
            if (r <= 0) {
                throw released();
            }
        } while (!refs.compareAndSet(r, r - 1));
        if (r == 1) {
            arena.close();
        }
    }

    /**
     * The current reference count (for tests and assertions).
     *
     * @return the count; 0 once released
     */
    int refCount() {
        return refs.get();
    }

    /**
     * The arena (for tests).
     *
     * @return the arena
     */
    Arena arena() {
        return arena;
    }

    /** Throws unless a reference is held by someone. */
    private void checkAlive() {
        if (refs.get() <= 0) {
            throw released();
        }
    }

    private static IllegalStateException released() {
        return new IllegalStateException("memtable already released");
    }

    @Override
    public String toString() {
        return "MemTable{refs=" + refs.get() + ", memoryUsage=" + arena.memoryUsage() + "}";
    }
}
