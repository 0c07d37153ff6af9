package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import org.iq80.leveldb.*;

/**
 * A scan that copies each key and value into two buffers it reuses ({@code ExtendedDBIterator},
 * an extension) instead of the two new arrays per entry of {@code DBIterator.next()}: here it
 * checksums a database of small and large (separated) values. doc/scan-buffers.md's example is
 * this code.
 *
 * <p>Run: {@code ScanIntoBuffers [directory]}; without a directory it works in a temporary one.
 */
public final class ScanIntoBuffers {
    private ScanIntoBuffers() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, ScanIntoBuffers::run);
    }

    static void run(File dir) throws IOException {
        Options options = new Options().valueThreshold(64 * 1024);   // large values in value files
        try (ExtendedDB db = factory.open(new File(dir, "scan"), options)) {
            for (int i = 0; i < 100; i++) {
                byte[] value = new byte[i % 10 == 0 ? 200_000 : 100];   // every tenth one large
                java.util.Arrays.fill(value, (byte) i);
                db.put(bytes(String.format("key%03d", i)), value);
            }

            ByteBuffer key = ByteBuffer.allocate(256);
            ByteBuffer value = ByteBuffer.allocate(4096);
            CRC32C checksum = new CRC32C();
            long entries = 0;
            long bytes = 0;
            try (ExtendedDBIterator it = db.iterator()) {
                for (it.seekToFirst(); it.hasNext(); it.moveNext()) {
                    it.key(key.clear());
                    int length = it.value(value.clear());
                    if (length > value.capacity()) {                 // too small: grow, read again
                        value = ByteBuffer.allocate(length);
                        it.value(value);
                    }
                    checksum.update(key.flip());
                    checksum.update(value.flip());
                    entries++;
                    bytes += length;
                }
            }
            System.out.println(entries + " entries, " + bytes + " value bytes");

            System.out.printf("checksum %08x, the same as with next(): %b%n", checksum.getValue(),
                    checksum.getValue() == checksumWithNext(db));
        }
    }

    /** The same checksum through {@code next()}, which makes new arrays for every entry. */
    private static long checksumWithNext(DB db) throws IOException {
        CRC32C checksum = new CRC32C();
        try (DBIterator it = db.iterator()) {
            for (it.seekToFirst(); it.hasNext(); ) {
                java.util.Map.Entry<byte[], byte[]> e = it.next();
                checksum.update(e.getKey());
                checksum.update(e.getValue());
            }
        }
        return checksum.getValue();
    }
}
