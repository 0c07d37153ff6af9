/**
 * Leaf code shared by every format: little-endian fixed-width integers, varints, CRC32C with
 * LevelDB's masking, unsigned byte comparison, growable and bounded byte views, off-heap
 * memory released deterministically ({@link NativeMemory}, {@link MemoryScope}), and whether a
 * native library may be loaded quietly on this JDK ({@link NativeAccess}).
 *
 * <h2>Encodings</h2>
 * <ul>
 *   <li>fixed32 / fixed64: 4 or 8 bytes, little-endian.</li>
 *   <li>varint32 / varint64: 7 bits per byte, least significant group first; the high bit of a
 *       byte is set when another byte follows. A varint32 takes at most 5 bytes, a varint64 at
 *       most 10.</li>
 *   <li>length-prefixed slice: varint32 length followed by that many bytes.</li>
 * </ul>
 *
 * <h2>Errors</h2>
 * Decoding is bounded: bytes that run past their limit, or a varint longer than its maximum,
 * raise {@link org.iq80.leveldb.CorruptionException} with the offset (relative to the buffer
 * being decoded) and never an {@code IndexOutOfBoundsException} or
 * {@code BufferUnderflowException}. Code that knows which file the bytes came from adds it with
 * {@link org.iq80.leveldb.CorruptionException#at(String, long)}.
 *
 * <p>Thread safety: the static helpers are stateless; the mutable views ({@link ByteSink},
 * {@link ByteCursor}) are confined to one thread; a {@link MemoryScope} is safe for concurrent
 * use.
 */
package org.leveldbj.util;
