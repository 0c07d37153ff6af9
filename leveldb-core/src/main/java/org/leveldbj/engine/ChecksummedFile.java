package org.leveldbj.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.iq80.leveldb.Env;

/**
 * A file being written that keeps the CRC32C of every byte appended to it, in order, for
 * {@link WrittenTables}. Confined to its writer's thread, as {@link Env.WritableFile} is.
 */
final class ChecksummedFile implements Env.WritableFile {
    private final Env.WritableFile file;
    private final CRC32C crc = new CRC32C();

    ChecksummedFile(Env.WritableFile file) {
        this.file = file;
    }

    /** @return the CRC32C of the bytes appended so far */
    int crc32c() {
        return (int) crc.getValue();
    }

    @Override
    public void append(ByteBuffer data) throws IOException {
        ByteBuffer copy = data.duplicate();
        file.append(data);
        crc.update(copy);
    }

    @Override
    public void append(byte[] data, int offset, int length) throws IOException {
        file.append(data, offset, length);
        crc.update(data, offset, length);
    }

    @Override
    public void flush() throws IOException {
        file.flush();
    }

    @Override
    public void sync() throws IOException {
        file.sync();
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
