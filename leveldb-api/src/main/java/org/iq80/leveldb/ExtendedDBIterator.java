package org.iq80.leveldb;

import java.nio.ByteBuffer;

/**
 * A {@link DBIterator} that also copies the entry under its cursor into buffers the caller
 * owns and reuses: the iterators of an {@link ExtendedDB}. {@link #next()} makes a map entry and
 * two new arrays per entry, zeroed and then filled; a scan that reads keys and values into
 * buffers it keeps allocates nothing per entry and copies each byte once:
 *
 * <pre>{@code
 * ByteBuffer key = ByteBuffer.allocate(1024);
 * ByteBuffer value = ByteBuffer.allocateDirect(1 << 20);
 * try (ExtendedDBIterator it = db.iterator()) {
 *     for (it.seekToFirst(); it.hasNext(); it.moveNext()) {
 *         int valueLength = it.value(value.clear());
 *         if (valueLength > value.capacity()) {           // rare: a larger buffer, then again
 *             value = ByteBuffer.allocateDirect(valueLength);
 *             it.value(value);
 *         }
 *         it.key(key.clear());
 *         channel.write(value.flip());                    // or hash, compare, parse...
 *     }
 * }
 * }</pre>
 *
 * <p>With separated values ({@link Options#valueThreshold(int)}) the value is copied straight
 * from the value file's mapped bytes into the caller's buffer.
 *
 * <p>Thread safety and cursor semantics: as {@link DBIterator}'s. {@link #moveNext()} and
 * {@link #movePrev()} move the cursor exactly as {@link #next()} and {@link #prev()} do. The
 * buffers are only written during the calls; the iterator keeps no reference to them.
 */
public interface ExtendedDBIterator extends DBIterator {

    /**
     * Copies the key of the entry under the cursor into {@code dst}: as much of it as fits
     * between the buffer's position and limit, from the key's first byte, advancing the
     * position by the bytes copied.
     *
     * @param dst where the key goes; heap or direct, writable
     * @return the key's whole length, larger than the bytes copied when the key did not fit
     * @throws java.util.NoSuchElementException if the cursor is past the end
     * @throws java.nio.ReadOnlyBufferException if {@code dst} is read-only
     * @throws IllegalArgumentException if {@code dst} is {@code null}
     */
    int key(ByteBuffer dst);

    /**
     * Copies the value of the entry under the cursor into {@code dst}: as much of it as fits
     * between the buffer's position and limit, from the value's first byte, advancing the
     * position by the bytes copied.
     *
     * @param dst where the value goes; heap or direct, writable
     * @return the value's whole length, larger than the bytes copied when the value did not fit
     * @throws java.util.NoSuchElementException if the cursor is past the end
     * @throws java.nio.ReadOnlyBufferException if {@code dst} is read-only
     * @throws IllegalArgumentException if {@code dst} is {@code null}
     * @throws CorruptionException if a separated value's record is damaged
     */
    int value(ByteBuffer dst);

    /**
     * Moves the cursor to the following entry (or past the end), as {@link #next()} does,
     * without making the entry {@code next()} returns.
     *
     * @throws java.util.NoSuchElementException if the cursor is past the end
     */
    void moveNext();

    /**
     * Moves the cursor back one entry, as {@link #prev()} does, without making the entry
     * {@code prev()} returns.
     *
     * @throws java.util.NoSuchElementException if {@link #hasPrev()} is {@code false}
     */
    void movePrev();
}
