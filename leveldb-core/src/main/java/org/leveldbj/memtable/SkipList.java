package org.leveldbj.memtable;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.KeyComparator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;

/**
 * A concurrent skiplist of memtable entries living entirely in an {@link Arena}: every node is
 * arena memory (layout below) and no Java object exists per entry. Nodes are named by arena
 * addresses; {@link Arena#NULL} means "none".
 *
 * <p>Node layout (N is the node's address, 8-byte aligned; the allocation starts at
 * {@code N - 8 * height}):
 * <pre>
 *   N - 8*(i+1)  fixed64  next[i], i in [0, height): the following node at level i, or NULL
 *   N + 0        fixed64  prev: the preceding node at level 0, or NULL before the first node
 *   N + 8        byte     height, 1 to {@link #MAX_HEIGHT}
 *   N + 9        ...      the entry ({@link MemTableEntry})
 * </pre>
 * The pointers sit below N so that the entry starts at a fixed offset whatever the height. The
 * head node has height {@link #MAX_HEIGHT}, no entry, and is never returned.
 *
 * <p>Order: entries sort by internal key: user key ascending by the user comparator, then
 * trailer ({@code sequence << 8 | type}) descending, so the newest entry for a user key comes
 * first. Comparisons read the arena directly and never allocate; with
 * {@link BytewiseComparator#INSTANCE} they call its static byte comparison. No two entries may
 * have the same internal key.
 *
 * <p>Heights: a node reaches level i + 1 with probability 1/{@link #BRANCHING}, capped at
 * {@link #MAX_HEIGHT}, from a pseudo-random generator seeded per list.
 *
 * <p>Thread safety / invariants:
 * <ul>
 *   <li>Requires: external synchronization of writers. {@link #newNode} and {@link #insert} are
 *       called by one thread at a time.</li>
 *   <li>Readers take no lock and may run concurrently with the writer. A node's height, entry,
 *       next pointers and prev pointer are written with plain stores before the node is
 *       published; it is published by a release store into its predecessors' next pointers,
 *       level 0 first and then upwards, and every pointer is read with acquire semantics. A
 *       reader that reaches a node therefore sees it complete, and a level-0 walk forward sees
 *       every node published before the walk reached that point.</li>
 *   <li>Nodes are never removed or moved, and next pointers only ever change from pointing at a
 *       node to pointing at a newly inserted node between the two, so a forward walk never
 *       skips an entry that was published before it started and always sees a sorted
 *       sequence.</li>
 *   <li>The prev pointer of a node is updated after the new predecessor is published (release
 *       store), so a reader stepping backwards may briefly read the previous predecessor and
 *       skip the node being inserted. Every node it returns is still a published node sorting
 *       before the current one, and only nodes whose insertion had not finished can be skipped.
 *       This is harmless because the engine publishes a sequence number only after the entries
 *       carrying it are fully inserted, and a reader's snapshot is a published sequence number:
 *       a node that can be skipped carries a sequence newer than the snapshot of every reader
 *       that could observe the stale pointer, and would be hidden from it anyway.</li>
 *   <li>{@link #maxHeight} is volatile and only grows; a reader using a stale value starts
 *       lower and merely searches a little longer.</li>
 * </ul>
 *
 * <p>Lifetime: the list lives as long as its arena; no method may be called after the arena is
 * closed.
 */
final class SkipList {
    /** The tallest node. */
    static final int MAX_HEIGHT = 12;
    /** The inverse probability that a node reaching a level also reaches the next one. */
    static final int BRANCHING = 4;

    /** Offset of the prev pointer from a node's address. */
    private static final int PREV = 0;
    /** Offset of the height byte from a node's address. */
    private static final int HEIGHT = 8;
    /** Offset of the entry from a node's address. */
    static final int ENTRY = 9;

    private final Arena arena;
    private final KeyComparator userComparator;
    /** {@code true} when {@link #userComparator} is the bytewise order (inlined fast path). */
    private final boolean bytewise;
    private final long head;
    /** The height of the tallest node inserted; grows only. */
    private volatile int maxHeight = 1;

    // Writer state.
    private long randomState;
    /** The predecessors found by the last insert search, per level. */
    private final long[] splice = new long[MAX_HEIGHT];
    /** Whether the entry the last insert came before, of the same user key, is a deletion. */
    private boolean lastReplacedWasDeletion;

    /**
     * Creates an empty list, allocating its head node.
     *
     * @param arena the memory holding the nodes
     * @param userComparator the order of user keys
     * @param seed the seed of the height generator
     */
    SkipList(Arena arena, KeyComparator userComparator, long seed) {
        this.arena = arena;
        this.userComparator = userComparator;
        this.bytewise = userComparator == BytewiseComparator.INSTANCE;
        this.randomState = seed == 0 ? 0x9e3779b97f4a7c15L : seed; // xorshift needs a non-zero state
        this.head = allocateNode(MAX_HEIGHT, 0);
    }

    /**
     * Allocates an unpublished node of random height with room for an entry, which the caller
     * writes at {@link #entry(long)} before calling {@link #insert}. Requires: the writer.
     *
     * @param entryLength the entry's encoded length
     * @return the node's address
     */
    long newNode(int entryLength) {
        return allocateNode(randomHeight(), entryLength);
    }

    private long allocateNode(int height, int entryLength) {
        int pointers = Long.BYTES * height;
        if (entryLength > Arena.MAX_ALLOCATION - pointers - ENTRY) {
            throw new IllegalArgumentException("memtable entry too large: " + entryLength + " bytes");
        }
        long start = arena.allocateAligned(pointers + ENTRY + entryLength);
        long node = start + pointers;
        arena.buffer(node).put(Arena.offset(node) + HEIGHT, (byte) height);
        return node;
    }

    private int randomHeight() {
        // xorshift64*: one draw supplies the two-bit coin flips of every level.
        long x = randomState;
        x ^= x >>> 12;
        x ^= x << 25;
        x ^= x >>> 27;
        randomState = x;
        long bits = x * 0x2545f4914f6cdd1dL;
        int height = 1;
        while (height < MAX_HEIGHT && (bits & (BRANCHING - 1)) == 0) {
            height++;
            bits >>>= 2;
        }
        return height;
    }

    /**
     * Links a node made by {@link #newNode} whose entry has been written, publishing it to
     * readers. Requires: the writer; no entry with the same internal key is in the list.
     *
     * @param node the node
     * @return whether the node's successor has the same user key: the node is another version
     *     of a key already in the list (its newest, when entries come in sequence order); then
     *     {@link #lastReplacedWasDeletion()} tells whether that successor is a deletion
     */
    boolean insert(long node) {
        ByteBuffer nb = arena.buffer(node);
        int n = Arena.offset(node);
        int height = nb.get(n + HEIGHT);
        long key = MemTableEntry.internalKey(nb, n + ENTRY);
        int userStart = MemTableEntry.start(key);
        int userLength = MemTableEntry.length(key) - Long.BYTES;
        long trailer = nb.getLong(userStart + userLength);

        long successor = findGreaterOrEqual(nb, userStart, userLength, trailer, splice);
        assert successor == Arena.NULL || compare(successor, nb, userStart, userLength, trailer) != 0
                : "duplicate internal key";
        int currentMax = maxHeight;
        if (height > currentMax) {
            for (int level = currentMax; level < height; level++) {
                splice[level] = head;
            }
            maxHeight = height;
        }
        for (int level = 0; level < height; level++) {
            Arena.setLongPlain(nb, n - Long.BYTES * (level + 1), next(splice[level], level));
        }
        long predecessor = splice[0] == head ? Arena.NULL : splice[0];
        Arena.setLongPlain(nb, n + PREV, predecessor);
        for (int level = 0; level < height; level++) {
            long p = splice[level];
            Arena.setLongRelease(arena.buffer(p), Arena.offset(p) - Long.BYTES * (level + 1), node);
        }
        if (successor != Arena.NULL) {
            Arena.setLongRelease(arena.buffer(successor), Arena.offset(successor) + PREV, node);
            ByteBuffer sb = arena.buffer(successor);
            long sk = MemTableEntry.internalKey(sb, entry(successor));
            int sStart = MemTableEntry.start(sk);
            int sLength = MemTableEntry.length(sk) - Long.BYTES;
            if (compareUserKeys(sb, sStart, sLength, nb, userStart, userLength) == 0) {
                lastReplacedWasDeletion = InternalKeys.typeByte(sb.getLong(sStart + sLength))
                        == ValueType.DELETION.persistentId();
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the successor of the last node {@link #insert inserted} over a key already in the
     * list is a deletion. Requires: the writer, after an insert that returned {@code true}.
     *
     * @return {@code true} for a deletion
     */
    boolean lastReplacedWasDeletion() {
        return lastReplacedWasDeletion;
    }

    /**
     * The user keys of the nodes of one level, from the first, consecutive equal keys once.
     * Any thread, without a lock (a forward walk, see the class documentation).
     *
     * @param level the level, 0 to {@link #MAX_HEIGHT} - 1
     * @param max at most this many keys
     * @return copies of the keys, in order
     */
    List<byte[]> userKeysAtLevel(int level, int max) {
        List<byte[]> keys = new ArrayList<>();
        byte[] last = null;
        for (long x = next(head, level); x != Arena.NULL && keys.size() < max; x = next(x, level)) {
            ByteBuffer b = arena.buffer(x);
            long key = MemTableEntry.internalKey(b, entry(x));
            int start = MemTableEntry.start(key);
            int length = MemTableEntry.length(key) - Long.BYTES;
            if (last != null && compareUserKeys(b, start, length, ByteBuffer.wrap(last), 0, last.length) == 0) {
                continue;
            }
            last = new byte[length];
            b.get(start, last);
            keys.add(last);
        }
        return keys;
    }

    /**
     * The entry's index in {@link Arena#buffer(long)} of its node.
     *
     * @param node a node
     * @return the offset of the entry's first byte
     */
    static int entry(long node) {
        return Arena.offset(node) + ENTRY;
    }

    /**
     * The height of a node (for tests and assertions).
     *
     * @param node a node
     * @return 1 to {@link #MAX_HEIGHT}
     */
    int height(long node) {
        return arena.buffer(node).get(Arena.offset(node) + HEIGHT);
    }

    /**
     * The next node at level 0.
     *
     * @param node a node, or the head
     * @return the next node, or NULL
     */
    long next(long node) {
        return next(node, 0);
    }

    private long next(long node, int level) {
        return Arena.getLongAcquire(arena.buffer(node), Arena.offset(node) - Long.BYTES * (level + 1));
    }

    /**
     * The preceding node at level 0; see the class documentation for when it may be stale.
     *
     * @param node a node (not the head)
     * @return the preceding node, or NULL
     */
    long prev(long node) {
        return Arena.getLongAcquire(arena.buffer(node), Arena.offset(node) + PREV);
    }

    /**
     * The first node.
     *
     * @return the first node, or NULL when the list is empty
     */
    long first() {
        return next(head, 0);
    }

    /**
     * The last node, found by descending from the top level.
     *
     * @return the last node, or NULL when the list is empty
     */
    long last() {
        long x = head;
        int level = maxHeight - 1;
        while (true) {
            long following = next(x, level);
            if (following != Arena.NULL) {
                x = following;
            } else if (level == 0) {
                return x == head ? Arena.NULL : x;
            } else {
                level--;
            }
        }
    }

    /**
     * The first node whose entry sorts at or after an internal key given as a user key range
     * and a trailer.
     *
     * @param userKey buffer holding the user key
     * @param userOffset index of its first byte
     * @param userLength its length
     * @param trailer the packed sequence and type
     * @return the node, or NULL when every entry sorts before the key
     */
    long seek(ByteBuffer userKey, int userOffset, int userLength, long trailer) {
        return findGreaterOrEqual(userKey, userOffset, userLength, trailer, null);
    }

    private long findGreaterOrEqual(ByteBuffer userKey, int userOffset, int userLength, long trailer,
                                    long[] predecessors) {
        long x = head;
        int level = maxHeight - 1;
        long knownNotBefore = Arena.NULL; // the last node found at or after the key
        while (true) {
            long following = next(x, level);
            if (following != Arena.NULL && following != knownNotBefore
                    && compare(following, userKey, userOffset, userLength, trailer) < 0) {
                x = following;
            } else {
                if (predecessors != null) {
                    predecessors[level] = x;
                }
                if (level == 0) {
                    return following;
                }
                knownNotBefore = following;
                level--;
            }
        }
    }

    /**
     * Compares the entry of a node with an internal key given as a user key range and a
     * trailer, without allocating.
     *
     * @param node a node (not the head)
     * @param userKey buffer holding the other user key
     * @param userOffset index of its first byte
     * @param userLength its length
     * @param trailer the other trailer
     * @return negative, zero or positive as the node's entry sorts before, with or after the key
     */
    int compare(long node, ByteBuffer userKey, int userOffset, int userLength, long trailer) {
        ByteBuffer b = arena.buffer(node);
        long key = MemTableEntry.internalKey(b, entry(node));
        int start = MemTableEntry.start(key);
        int length = MemTableEntry.length(key) - Long.BYTES;
        int c = compareUserKeys(b, start, length, userKey, userOffset, userLength);
        if (c != 0) {
            return c;
        }
        // A larger trailer (newer sequence, then larger type) sorts first.
        return Long.compareUnsigned(trailer, b.getLong(start + length));
    }

    /**
     * Compares two user keys with the list's user comparator.
     *
     * @param a buffer holding the first key
     * @param aOffset index of its first byte
     * @param aLength its length
     * @param b buffer holding the second key
     * @param bOffset index of its first byte
     * @param bLength its length
     * @return negative, zero or positive as the first key sorts before, with or after the second
     */
    int compareUserKeys(ByteBuffer a, int aOffset, int aLength, ByteBuffer b, int bOffset, int bLength) {
        return bytewise
                ? BytewiseComparator.compareBytes(a, aOffset, aLength, b, bOffset, bLength)
                : userComparator.compare(a, aOffset, aLength, b, bOffset, bLength);
    }
}
