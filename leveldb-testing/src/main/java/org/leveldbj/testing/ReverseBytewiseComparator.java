package org.leveldbj.testing;

import java.util.Arrays;
import org.iq80.leveldb.DBComparator;

/**
 * Descending unsigned-bytewise order under the name {@value #NAME}, the {@code reverse}
 * comparator of the interoperability recipes (the C++ and Go peers register the same order
 * under the same name). It never shortens keys. A shared fixture for tests of custom orders.
 */
public final class ReverseBytewiseComparator implements DBComparator {
    /** The name both peers and this engine use for this order. */
    public static final String NAME = "leveldbj.ReverseBytewiseComparator";
    /** The shared instance. */
    public static final ReverseBytewiseComparator INSTANCE = new ReverseBytewiseComparator();

    private ReverseBytewiseComparator() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(b, a);
    }

    @Override
    public byte[] findShortestSeparator(byte[] start, byte[] limit) {
        return start;
    }

    @Override
    public byte[] findShortSuccessor(byte[] key) {
        return key;
    }
}
