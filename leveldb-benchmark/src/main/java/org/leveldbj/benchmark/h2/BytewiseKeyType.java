package org.leveldbj.benchmark.h2;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.WriteBuffer;
import org.h2.mvstore.type.BasicDataType;

/**
 * Byte arrays as MVStore keys and values, ordered as LevelDB orders keys: unsigned bytes, a
 * prefix before the longer key (H2's own byte-array type defines no order). Stored as a varint
 * length and the bytes.
 */
final class BytewiseKeyType extends BasicDataType<byte[]> {
    static final BytewiseKeyType INSTANCE = new BytewiseKeyType();

    private BytewiseKeyType() {
    }

    @Override
    public int compare(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b);
    }

    @Override
    public int getMemory(byte[] data) {
        return 24 + data.length;
    }

    @Override
    public void write(WriteBuffer buffer, byte[] data) {
        buffer.putVarInt(data.length);
        buffer.put(data);
    }

    @Override
    public byte[] read(ByteBuffer buffer) {
        byte[] data = new byte[DataUtils.readVarInt(buffer)];
        buffer.get(data);
        return data;
    }

    @Override
    public byte[][] createStorage(int size) {
        return new byte[size][];
    }
}
