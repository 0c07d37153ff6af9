/**
 * The memtable: recent writes held in memory, sorted by internal key, until they are written to
 * a level-0 table file. {@link org.leveldbj.memtable.MemTable} is the entry point; it stores its
 * entries in a {@link org.leveldbj.memtable.SkipList} whose nodes live in an off-heap
 * {@link org.leveldbj.memtable.Arena}, so a memtable of millions of entries is a handful of
 * direct buffers and no per-entry Java object.
 *
 * <h2>Contract</h2>
 * <ul>
 *   <li>{@code add(sequence, type, key, value)} inserts one entry; entries are never changed or
 *       removed. A deletion is an entry of type {@code DELETION} with an empty value.</li>
 *   <li>{@code get(userKey, snapshot)} answers from the newest entry for the user key whose
 *       sequence is at most the snapshot's: FOUND (a copy of the value), DELETED, or
 *       NOT_FOUND.</li>
 *   <li>{@code iterator()} walks every entry (all sequences, deletions included) in
 *       internal-key order both ways; keys are internal keys and values are views of the arena,
 *       not copies.</li>
 * </ul>
 *
 * <h2>Order</h2>
 * Internal-key order: user key ascending by the user comparator, then the 8-byte trailer
 * ({@code sequence << 8 | type}) descending, so the newest entry of a user key comes first and,
 * for equal sequences, a value before a deletion.
 *
 * <h2>Byte layout</h2>
 * An arena address is {@code chunkIndex << 32 | offsetInChunk}; 0 is the null address. A node
 * at address N (8-byte aligned) occupies {@code [N - 8 * height, N + 9 + entryLength)}:
 * <pre>
 *   N - 8*(i+1)  fixed64   next[i] for level i in [0, height)   (stored downwards from N)
 *   N + 0        fixed64   prev: level-0 predecessor, 0 before the first node
 *   N + 8        byte      height, 1 to 12
 *   N + 9        entry:
 *                varint32  internal key length (user key length + 8)
 *                bytes     user key
 *                fixed64   sequence &lt;&lt; 8 | type
 *                varint32  value length
 *                bytes     value
 * </pre>
 * The entry is C++ LevelDB's memtable entry layout. Fixed-width fields are little-endian. The
 * head node has height 12 and no entry.
 *
 * <h2>Thread safety / invariants</h2>
 * <ul>
 *   <li>One writer at a time (requires external synchronization of writers); any number of
 *       readers with no lock.</li>
 *   <li>A node is written completely with plain stores, then published by release stores into
 *       its predecessors' next pointers, level 0 first, then upwards; readers read every pointer
 *       with acquire semantics. A reader that reaches a node sees its complete entry.</li>
 *   <li>The new node's prev pointer is set before it is published; its successor's prev pointer
 *       is changed to it afterwards. A reader stepping backwards can therefore read the old
 *       predecessor and skip a node whose insertion is under way. The engine makes this
 *       invisible: a sequence number is published only after its entries are fully inserted,
 *       every snapshot is a published sequence number, so any node a backward step can skip is
 *       newer than the reader's snapshot. Requires: the engine publishes the last
 *       sequence number with a release store (a volatile write, or under the lock readers take)
 *       after {@code add} returns, and readers take their snapshot with an acquire read of
 *       it.</li>
 *   <li>Forward steps and seeks never miss an entry published before they started and always
 *       see entries in order.</li>
 *   <li>The arena's chunk table is published through a volatile field before any node in a new
 *       chunk is, so a reader never meets an address whose chunk it cannot find.</li>
 *   <li>The memory-usage figure is written with release and read with acquire semantics by any
 *       thread.</li>
 * </ul>
 *
 * <h2>Lifetime</h2>
 * A memtable is reference counted: created with one reference, {@code ref()}/{@code unref()}
 * adjust it, and the drop to zero frees the arena immediately (through
 * {@link org.leveldbj.util.NativeMemory}: the foreign memory API on JDK 22 and later, else
 * {@code sun.misc.Unsafe.invokeCleaner} reached by reflection). Every
 * caller must hold a reference for the duration of a call; an iterator holds one until closed.
 * Calling a released memtable throws {@link java.lang.IllegalStateException}.
 */
package org.leveldbj.memtable;
