/**
 * Block compression: the codecs behind the compression type byte of a table block trailer.
 *
 * <h2>Ids and stored bytes</h2>
 * <ul>
 *   <li><b>0, none</b>: the block as it is.</li>
 *   <li><b>1, snappy</b>: one raw snappy block, as {@code snappy::RawCompress} writes it and C++
 *       LevelDB stores it; not the snappy framing format. It starts with the decoded length as a
 *       varint32 (little-endian base 128, at most five bytes), followed by tagged literal and
 *       copy elements.</li>
 *   <li><b>2, zstd</b>: one zstd frame (RFC 8878) whose header records the content size, as
 *       upstream C++ LevelDB writes with {@code ZSTD_compress2}; C++ sizes its output from that
 *       field and rejects frames without it, and so do we. C++ also rejects a content size of 0,
 *       so an empty block must never be stored as zstd (tables never compress empty blocks). The
 *       native writer uses level 1, C++ LevelDB's default; the pure-Java writer has a fixed level
 *       and adds a content checksum. Both outputs are valid for every reader.</li>
 * </ul>
 * Any other id is corruption: {@code "unknown compression type 7"}. C++ LevelDB builds without
 * zstd (Debian's 1.23, for one) cannot read type 2.
 *
 * <h2>Implementations and the fallback rule</h2>
 * Snappy and zstd each have a native implementation (snappy-java, zstd-jni) and a pure-Java one
 * (aircompressor). The stored bytes of one algorithm are interchangeable between them: each reads
 * what the other writes. The compressed bytes themselves may differ between implementations;
 * nothing may depend on them being identical. {@link org.leveldbj.compress.Codecs} chooses once
 * per algorithm, on first use: the native implementation when its library loads and passes a
 * round-trip self-test, otherwise the pure-Java one, and logs the outcome at debug level. The
 * system property {@code leveldbj.codec} restricts the choice:
 * <ul>
 *   <li>{@code auto} (default, also when unset): native, falling back to pure Java;</li>
 *   <li>{@code native}: native only; if it does not load, using the algorithm throws a
 *       {@code DBException} saying why;</li>
 *   <li>{@code java}: pure Java only, even where native code loads.</li>
 * </ul>
 * The property is meant for tests and for working around a broken native library; an invalid
 * value makes snappy and zstd unavailable with a message naming the property.
 * {@link org.leveldbj.compress.Codecs#implementationName(int)} says which implementation serves
 * an id.
 *
 * <h2>Errors</h2>
 * Decoding never trusts the stored bytes: the announced length is parsed in Java and bounded
 * (at most {@link org.leveldbj.compress.CodecIds#MAX_UNCOMPRESSED_LENGTH} and no more than the
 * input could expand to) before anything is allocated or native code runs, and whatever a
 * library throws on bad bytes becomes an {@link org.iq80.leveldb.CorruptionException} with C++
 * LevelDB's reasons: {@code "corrupted snappy compressed block length"}, {@code "corrupted
 * snappy compressed block contents"} and the zstd equivalents. The exception carries no file or
 * offset; the table reader adds them with {@code at(file, offset)}.
 *
 * <h2>Threads and buffers</h2>
 * Codecs are shared, stateless from the caller's view and safe for concurrent use. Reusable state
 * (aircompressor's snappy hash tables and zstd decoders, zstd-jni's native contexts) is borrowed
 * per call from small bounded pools, not kept per thread. Inputs are read between position and
 * limit without moving either, so a read-only direct slice of a mapped file can be passed as it
 * is; see {@link org.leveldbj.compress.BlockCodec} for the buffer rules and which combinations
 * are decoded without copying.
 */
package org.leveldbj.compress;
