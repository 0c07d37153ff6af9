package org.leveldbj.memtable;

import java.nio.ByteBuffer;
import org.leveldbj.comparator.BytewiseComparator;
import org.leveldbj.comparator.KeyComparator;

/** A user order that is not bytewise: reversed unsigned byte order, to exercise the general path. */
final class ReverseComparator implements KeyComparator {
    static final ReverseComparator INSTANCE = new ReverseComparator();

    @Override
    public String name() {
        return "test.Reverse";
    }

    @Override
    public int compare(ByteBuffer a, int aOffset, int aLength, ByteBuffer b, int bOffset, int bLength) {
        return BytewiseComparator.compareBytes(b, bOffset, bLength, a, aOffset, aLength);
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
