package org.leveldbj.benchmark.jmh;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.key.InternalKeyComparator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The key comparison of a scan's hot loop: each entry's key against its neighbour's, as the
 * merge compares a child's next key with the runner-up's and the database iterator compares
 * each user key with the one it last yielded. Keys are db_bench's (16 decimal digits, here
 * 1,000 apart, so neighbours share their first eight bytes) plus the 8-byte trailer, held as
 * heap buffers over larger arrays, as decoded blocks hold them. Time per comparison.
 *
 * <p>{@code internal}: {@link InternalKeyComparator} over the bytewise comparator, as the merge
 * calls it; {@code user}: {@link BytewiseComparator} on the user keys; {@code jdk}: the JDK's
 * {@code Arrays.compareUnsigned} on the user keys, the bytewise comparator's method before it
 * compared short keys eight bytes at a time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KeyComparisonBenchmark {
    private static final int PAIRS = 1024;

    /** The user key length in bytes (at least 16). */
    @Param("16")
    public int keySize;

    private final ByteBuffer[] keys = new ByteBuffer[PAIRS + 1];
    private final InternalKeyComparator internal = new InternalKeyComparator(BytewiseComparator.INSTANCE);

    /** Builds the keys, each at an odd offset of its own array. */
    @Setup
    public void keys() {
        for (int i = 0; i <= PAIRS; i++) {
            byte[] user = Fixture.key(1000L * i + 7);
            byte[] array = new byte[keySize + 16];
            int offset = 5;
            int padding = keySize - user.length;
            Arrays.fill(array, offset, offset + padding, (byte) '0');
            System.arraycopy(user, 0, array, offset + padding, user.length);
            long trailer = ((long) (PAIRS - i) << 8) | 1;
            for (int j = 0; j < 8; j++) {
                array[offset + keySize + j] = (byte) (trailer >>> (8 * j));
            }
            keys[i] = ByteBuffer.wrap(array, offset, keySize + 8);
        }
    }

    /**
     * Internal keys, as the merge compares them.
     *
     * @return the sum of the results
     */
    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public int internal() {
        int sum = 0;
        for (int i = 0; i < PAIRS; i++) {
            ByteBuffer a = keys[i];
            ByteBuffer b = keys[i + 1];
            sum += internal.compare(a, a.position(), a.remaining(), b, b.position(), b.remaining());
        }
        return sum;
    }

    /**
     * User keys, as the database iterator compares them.
     *
     * @return the sum of the results
     */
    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public int user() {
        int sum = 0;
        for (int i = 0; i < PAIRS; i++) {
            ByteBuffer a = keys[i];
            ByteBuffer b = keys[i + 1];
            sum += BytewiseComparator.INSTANCE.compare(a, a.position(), keySize, b, b.position(), keySize);
        }
        return sum;
    }

    /**
     * User keys with the JDK's vectorized comparison.
     *
     * @return the sum of the results
     */
    @Benchmark
    @OperationsPerInvocation(PAIRS)
    public int jdk() {
        int sum = 0;
        for (int i = 0; i < PAIRS; i++) {
            ByteBuffer a = keys[i];
            ByteBuffer b = keys[i + 1];
            int ao = a.arrayOffset() + a.position();
            int bo = b.arrayOffset() + b.position();
            sum += Arrays.compareUnsigned(a.array(), ao, ao + keySize, b.array(), bo, bo + keySize);
        }
        return sum;
    }
}
