package org.leveldbj.compress;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Snappy (type 1) in plain Java: no native code and no {@code sun.misc.Unsafe}, so it runs on
 * every JVM without flags or warnings. It decodes any valid snappy block (whatever compressor
 * wrote it) and writes blocks that every snappy decoder reads, C++ LevelDB's included.
 *
 * <p>Format (Google's {@code format_description.txt}): the decoded length as a little-endian
 * base-128 varint, then elements. The low two bits of an element's tag byte give its kind:
 * {@code 00} a literal of {@code (tag >>> 2) + 1} bytes, or for {@code tag >>> 2} of 60 to 63
 * a length in the next 1 to 4 bytes (little-endian, plus one); {@code 01} a copy of 4 to 11
 * bytes ({@code ((tag >>> 2) & 7) + 4}) from up to 2047 bytes back (three offset bits in the
 * tag's top, eight in the next byte); {@code 10} and {@code 11} a copy of
 * {@code (tag >>> 2) + 1} bytes from a two- or four-byte little-endian offset. A copy may
 * overlap the bytes it produces (offset smaller than length).
 *
 * <p>Compression is snappy's greedy scheme: the input is cut into 64 KiB fragments; within one, a
 * hash of each 4-byte sequence finds an earlier occurrence, a match is extended as far as it
 * goes and emitted as copies of at most 64 bytes, and the search steps faster over input that
 * keeps not matching.
 *
 * <p>Decoding checks every length and offset against the input and the announced output, so a
 * damaged block raises a {@link org.iq80.leveldb.CorruptionException}, never an out-of-bounds
 * access or a wrong-length result.
 *
 * <p>Thread safety: the hash tables are per thread; instances are stateless and shared.
 */
final class SnappyJavaCodec implements BlockCodec {
    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** Fragments are compressed independently, so every offset fits in two bytes. */
    private static final int FRAGMENT = 1 << 16;
    /** The largest hash table, for a whole fragment. */
    private static final int MAX_TABLE_BITS = 14;
    /** Inputs shorter than this are stored as one literal. */
    private static final int MIN_MATCHABLE = 15;
    private static final ThreadLocal<int[]> TABLES = ThreadLocal.withInitial(() -> new int[1 << MAX_TABLE_BITS]);

    @Override
    public int id() {
        return CodecIds.SNAPPY;
    }

    @Override
    public String implementationName() {
        return "java";
    }

    @Override
    public boolean isNative() {
        return false;
    }

    @Override
    public int maxCompressedLength(int uncompressedLength) {
        CodecSupport.requireCompressible(uncompressedLength);
        return 32 + uncompressedLength + uncompressedLength / 6;
    }

    @Override
    public int compress(ByteBuffer input, ByteBuffer output) {
        int length = input.remaining();
        int bound = maxCompressedLength(length);
        CodecSupport.requireSpace(output, bound);
        ByteBuffer in = CodecSupport.onHeap(input);
        byte[] src = in.array();
        int srcStart = CodecSupport.arrayPosition(in);
        byte[] dst;
        int dstStart;
        boolean direct = !output.hasArray();
        if (direct) {
            dst = new byte[bound];
            dstStart = 0;
        } else {
            dst = output.array();
            dstStart = CodecSupport.arrayPosition(output);
        }
        int op = writeVarint(dst, dstStart, length);
        int[] table = TABLES.get();
        for (int at = 0; at < length; at += FRAGMENT) {
            op = compressFragment(src, srcStart + at, Math.min(FRAGMENT, length - at), dst, op, table);
        }
        int written = op - dstStart;
        if (direct) {
            output.put(output.position(), dst, 0, written);
        }
        output.position(output.position() + written);
        return written;
    }

    @Override
    public int uncompressedLength(ByteBuffer compressed) {
        return SnappyHeader.uncompressedLength(compressed);
    }

    @Override
    public void decompress(ByteBuffer compressed, ByteBuffer output) {
        int length = uncompressedLength(compressed);
        CodecSupport.requireSpace(output, length);
        decodeInto(compressed, output, length);
    }

    /**
     * Decodes a block whose header announced {@code length} bytes into {@code output}, which
     * has room for them, advancing its position; also serves {@link SnappyNativeCodec}.
     *
     * @throws org.iq80.leveldb.CorruptionException when the elements do not decode to exactly
     *     {@code length} bytes
     */
    static void decodeInto(ByteBuffer compressed, ByteBuffer output, int length) {
        ByteBuffer in = CodecSupport.onHeapScratch(compressed);
        byte[] src = in.array();
        int ip = CodecSupport.arrayPosition(in);
        int end = ip + in.remaining();
        while ((src[ip++] & 0x80) != 0) {
            // skip the length varint, already validated
        }
        boolean direct = !output.hasArray();
        byte[] dst = direct ? new byte[length] : output.array();
        int dstStart = direct ? 0 : CodecSupport.arrayPosition(output);
        int produced = decode(src, ip, end, dst, dstStart, dstStart + length) - dstStart;
        if (produced != length) {
            throw CodecSupport.contents(SnappyHeader.ALGORITHM, null);
        }
        if (direct) {
            output.put(output.position(), dst, 0, length);
        }
        output.position(output.position() + length);
    }

    /**
     * Decodes elements from {@code src[ip, end)} into {@code dst} from {@code op}, never past
     * {@code opLimit}.
     *
     * @return the output position after the last element
     */
    static int decode(byte[] src, int ip, int end, byte[] dst, int opStart, int opLimit) {
        int op = opStart;
        while (ip < end) {
            int tag = src[ip++] & 0xff;
            int kind = tag & 3;
            int len;
            if (kind == 0) {
                len = (tag >>> 2) + 1;
                if (len > 60) {
                    int extra = len - 60;
                    if (end - ip < extra) {
                        throw corrupt();
                    }
                    long v = 0;
                    for (int i = 0; i < extra; i++) {
                        v |= (long) (src[ip + i] & 0xff) << (8 * i);
                    }
                    ip += extra;
                    if (v >= Integer.MAX_VALUE) {
                        throw corrupt();
                    }
                    len = (int) v + 1;
                }
                if (end - ip < len || opLimit - op < len) {
                    throw corrupt();
                }
                if (len <= 16 && end - ip >= 16 && opLimit - op >= 16) {
                    // Short literal: two 8-byte moves (the bytes past len are rewritten later).
                    LONG_LE.set(dst, op, (long) LONG_LE.get(src, ip));
                    LONG_LE.set(dst, op + 8, (long) LONG_LE.get(src, ip + 8));
                } else {
                    System.arraycopy(src, ip, dst, op, len);
                }
                ip += len;
                op += len;
                continue;
            }
            int offset;
            if (kind == 1) {
                if (ip >= end) {
                    throw corrupt();
                }
                len = ((tag >>> 2) & 7) + 4;
                offset = ((tag >>> 5) << 8) | (src[ip++] & 0xff);
            } else if (kind == 2) {
                if (end - ip < 2) {
                    throw corrupt();
                }
                len = (tag >>> 2) + 1;
                offset = (src[ip] & 0xff) | (src[ip + 1] & 0xff) << 8;
                ip += 2;
            } else {
                if (end - ip < 4) {
                    throw corrupt();
                }
                len = (tag >>> 2) + 1;
                offset = (int) INT_LE.get(src, ip);
                ip += 4;
            }
            if (offset <= 0 || offset > op - opStart || opLimit - op < len) {
                throw corrupt();
            }
            int from = op - offset;
            if (offset >= 8 && len <= 16 && opLimit - op >= 16) {
                // Short copy: 8-byte moves in order, so an overlap (offset < 16) reads bytes the
                // first move has just written, as a byte-by-byte copy would.
                LONG_LE.set(dst, op, (long) LONG_LE.get(dst, from));
                LONG_LE.set(dst, op + 8, (long) LONG_LE.get(dst, from + 8));
                op += len;
            } else if (offset == 1) {
                Arrays.fill(dst, op, op + len, dst[from]);
                op += len;
            } else if (offset >= len) {
                System.arraycopy(dst, from, dst, op, len);
                op += len;
            } else {
                // Overlapping: the output repeats the last `offset` bytes. Copying from `from`
                // as many bytes as lie between it and the output keeps the phase (a multiple of
                // the offset) and doubles the distance each time.
                int left = len;
                while (left > 0) {
                    int chunk = Math.min(left, op - from);
                    System.arraycopy(dst, from, dst, op, chunk);
                    op += chunk;
                    left -= chunk;
                }
            }
        }
        return op;
    }

    private static RuntimeException corrupt() {
        return CodecSupport.contents(SnappyHeader.ALGORITHM, null);
    }

    private static int writeVarint(byte[] dst, int op, int value) {
        int v = value;
        while ((v & ~0x7f) != 0) {
            dst[op++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        dst[op++] = (byte) v;
        return op;
    }

    /** Compresses {@code src[start, start + length)}, at most one fragment, into {@code dst} at {@code op}. */
    private static int compressFragment(byte[] src, int start, int length, byte[] dst, int op, int[] table) {
        int end = start + length;
        if (length < MIN_MATCHABLE) {
            return emitLiteral(src, start, length, dst, op);
        }
        int bits = Math.max(8, Math.min(MAX_TABLE_BITS, 32 - Integer.numberOfLeadingZeros(length - 1)));
        int shift = 32 - bits;
        Arrays.fill(table, 0, 1 << bits, 0);
        // Positions in the table are relative to start; 0 is also "empty", which is harmless:
        // every candidate is verified byte for byte.
        int limit = end - 4; // the last position whose four bytes can be hashed
        int ip = start + 1;
        int nextEmit = start;
        int skip = 32;
        while (ip <= limit) {
            int word = (int) INT_LE.get(src, ip);
            int h = hash(word, shift);
            int candidate = start + table[h];
            table[h] = ip - start;
            if (candidate < ip && (int) INT_LE.get(src, candidate) == word) {
                if (ip > nextEmit) {
                    op = emitLiteral(src, nextEmit, ip - nextEmit, dst, op);
                }
                int matched = 4 + matchLength(src, candidate + 4, ip + 4, end);
                op = emitCopy(dst, op, ip - candidate, matched);
                ip += matched;
                nextEmit = ip;
                skip = 32;
                if (ip <= limit) {
                    // Index the position before the jump, so the next match can start right away.
                    table[hash((int) INT_LE.get(src, ip - 1), shift)] = ip - 1 - start;
                }
                continue;
            }
            ip += skip++ >>> 5;
        }
        if (nextEmit < end) {
            op = emitLiteral(src, nextEmit, end - nextEmit, dst, op);
        }
        return op;
    }

    private static int hash(int word, int shift) {
        return (word * 0x1e35a7bd) >>> shift;
    }

    /** How many bytes from {@code a} and {@code b} (with {@code a < b}) are equal before {@code end}. */
    private static int matchLength(byte[] src, int a, int b, int end) {
        int n = 0;
        while (b + n + 8 <= end) {
            long x = (long) LONG_LE.get(src, a + n) ^ (long) LONG_LE.get(src, b + n);
            if (x != 0) {
                return n + (Long.numberOfTrailingZeros(x) >>> 3);
            }
            n += 8;
        }
        while (b + n < end && src[a + n] == src[b + n]) {
            n++;
        }
        return n;
    }

    private static int emitLiteral(byte[] src, int from, int len, byte[] dst, int op) {
        int n = len - 1;
        if (n < 60) {
            dst[op++] = (byte) (n << 2);
        } else {
            int bytes = n < (1 << 8) ? 1 : n < (1 << 16) ? 2 : n < (1 << 24) ? 3 : 4;
            dst[op++] = (byte) ((59 + bytes) << 2);
            for (int i = 0; i < bytes; i++) {
                dst[op++] = (byte) (n >>> (8 * i));
            }
        }
        System.arraycopy(src, from, dst, op, len);
        return op + len;
    }

    private static int emitCopy(byte[] dst, int op, int offset, int length) {
        int len = length;
        // Copies of 64 bytes while more than 67 remain, so the rest is at least 4.
        while (len >= 68) {
            op = emitCopyUpTo64(dst, op, offset, 64);
            len -= 64;
        }
        if (len > 64) {
            op = emitCopyUpTo64(dst, op, offset, 60);
            len -= 60;
        }
        return emitCopyUpTo64(dst, op, offset, len);
    }

    private static int emitCopyUpTo64(byte[] dst, int op, int offset, int len) {
        if (len < 12 && offset < 2048) {
            dst[op++] = (byte) (1 | ((len - 4) << 2) | ((offset >>> 8) << 5));
            dst[op++] = (byte) offset;
        } else {
            dst[op++] = (byte) (2 | ((len - 1) << 2));
            dst[op++] = (byte) offset;
            dst[op++] = (byte) (offset >>> 8);
        }
        return op;
    }
}
