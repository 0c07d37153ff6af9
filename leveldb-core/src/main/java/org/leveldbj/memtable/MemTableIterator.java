package org.leveldbj.memtable;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.leveldbj.iterator.SortedIterator;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.util.Coding;

/**
 * A {@link SortedIterator} over a memtable's entries: keys are internal keys, values the
 * entries' values (empty for deletions). {@link #next()} and {@link #prev()} follow the list's
 * level-0 pointers and take constant time; the seeks descend the list.
 *
 * <p>Concurrency: the iterator reads the list without a lock while the writer inserts. Moving
 * forward it sees every entry published before it got there; moving backward it may skip an
 * entry whose insertion was still under way (see {@link SkipList}), which is always newer than
 * any snapshot the caller can hold.
 *
 * <p>Keys and values: the current key is copied into an array the iterator reuses (once per
 * position, when the key is first asked for) and returned as a heap buffer, as the tables' keys
 * are: the code that merges and reads keys then sees one kind of buffer whatever the source,
 * and the JIT's type speculation in it holds (with arena views, the first scan to meet a
 * memtable key at a site that had only seen table keys was recompiled mid-scan). Values are
 * read-only views of the arena: one per arena chunk, made the first time the iterator lands in
 * that chunk and reused afterwards (repositioned). Moving allocates nothing once every chunk
 * has been visited and the longest key has been seen.
 *
 * <p>Thread safety: confined to one thread at a time.
 *
 * <p>Lifetime: holds a reference on the memtable from creation until {@link #close()}, so the
 * arena outlives every view returned; a view must not be used after the iterator moves or
 * closes.
 */
final class MemTableIterator implements SortedIterator {
    private final MemTable memTable;
    private final Arena arena;
    private final SkipList list;
    /** The current node, or NULL when unpositioned. */
    private long node = Arena.NULL;
    /** The node whose key {@link #keyCopy} holds since the last move, or NULL. */
    private long keyNode = Arena.NULL;
    private byte[] keyCopy = new byte[64];
    private ByteBuffer keyView = ByteBuffer.wrap(keyCopy);
    private ByteBuffer[] valueViews = new ByteBuffer[4];
    private boolean closed;

    /**
     * Requires: the caller has taken a reference on {@code memTable} for this iterator.
     *
     * @param memTable the memtable, unreferenced on close
     * @param arena its arena
     * @param list its skiplist
     */
    MemTableIterator(MemTable memTable, Arena arena, SkipList list) {
        this.memTable = memTable;
        this.arena = arena;
        this.list = list;
    }

    @Override
    public boolean valid() {
        return node != Arena.NULL;
    }

    @Override
    public void seekToFirst() {
        checkOpen();
        node = list.first();
        keyNode = Arena.NULL;
    }

    @Override
    public void seekToLast() {
        checkOpen();
        node = list.last();
        keyNode = Arena.NULL;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Requires: {@code target} holds an internal key (at least the 8-byte trailer).
     *
     * @throws IllegalArgumentException if {@code target} is shorter than a trailer
     */
    @Override
    public void seek(ByteBuffer target) {
        checkOpen();
        int length = target.remaining() - InternalKeys.TRAILER_SIZE;
        if (length < 0) {
            throw new IllegalArgumentException("seek target of " + target.remaining()
                    + " bytes is not an internal key");
        }
        int offset = target.position();
        long trailer = Coding.getFixed64(target, offset + length, target.limit());
        node = list.seek(target, offset, length, trailer);
        keyNode = Arena.NULL;
    }

    @Override
    public void next() {
        checkPositioned();
        node = list.next(node);
        keyNode = Arena.NULL;
    }

    @Override
    public void prev() {
        checkPositioned();
        node = list.prev(node);
        keyNode = Arena.NULL;
    }

    @Override
    public ByteBuffer key() {
        checkPositioned();
        if (keyNode != node) {
            ByteBuffer b = arena.buffer(node);
            long key = MemTableEntry.internalKey(b, SkipList.entry(node));
            int length = MemTableEntry.length(key);
            if (keyCopy.length < length) {
                keyCopy = new byte[Math.max(length, 2 * keyCopy.length)];
                keyView = ByteBuffer.wrap(keyCopy);
            }
            b.get(MemTableEntry.start(key), keyCopy, 0, length);
            keyView.limit(length);
            keyNode = node;
        }
        keyView.position(0);
        return keyView;
    }

    @Override
    public ByteBuffer value() {
        checkPositioned();
        long value = MemTableEntry.value(arena.buffer(node), SkipList.entry(node));
        valueViews = withSlot(valueViews);
        return view(valueViews, MemTableEntry.start(value), MemTableEntry.length(value));
    }

    /** Returns {@code views}, or a larger copy, with a slot for the current node's chunk. */
    private ByteBuffer[] withSlot(ByteBuffer[] views) {
        int chunk = (int) (node >>> 32);
        return chunk < views.length ? views : Arrays.copyOf(views, Math.max(chunk + 1, views.length * 2));
    }

    /** Positions the current chunk's view (made on first use) on {@code [start, start + length)}. */
    private ByteBuffer view(ByteBuffer[] views, int start, int length) {
        int chunk = (int) (node >>> 32);
        ByteBuffer v = views[chunk];
        if (v == null) {
            v = arena.buffer(node).asReadOnlyBuffer();
            views[chunk] = v;
        }
        v.limit(start + length); // may clamp the old position; set next
        v.position(start);
        return v;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("iterator is closed");
        }
        assert memTable.refCount() > 0 : "an open iterator holds a reference";
    }

    private void checkPositioned() {
        checkOpen();
        if (node == Arena.NULL) {
            throw new IllegalStateException("iterator is not positioned");
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            node = Arena.NULL;
            keyNode = Arena.NULL;
            valueViews = null;
            memTable.unref();
        }
    }
}
