package org.leveldbj.engine;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import org.iq80.leveldb.Env;
import org.leveldbj.util.LockRank;
import org.leveldbj.util.OrderedLock;

/**
 * The table files that {@link ExternalTableWriter}s of this process finished, by environment and
 * path, each with the CRC32C of all its bytes as they were written and what a full check would
 * have found in it (entry count, first and last key). An ingestion of such a file, into a
 * database with the same user comparator, reads the file once to compute the same CRC32C and,
 * when it matches, takes the file as its writer described it instead of decoding every block
 * again: the writer refused unsorted and duplicate keys, gave every entry sequence number 0, and
 * the checksum shows the bytes are still the ones it wrote. A file changed since (or unknown
 * here) is decoded in full, as {@link IngestedFile#check} does for any file.
 *
 * <p>Bounded: the oldest of more than {@value #CAPACITY} files is forgotten (it would then be
 * checked in full). In memory only: after a restart every file is checked in full.
 *
 * <p>Thread safety: safe for concurrent use: one lock ({@link LockRank#WRITTEN_TABLES}, last in
 * the order), held for map reads and updates only, with no I/O under it.
 */
final class WrittenTables {
    static final int CAPACITY = 4096;
    private static final int READ_CHUNK = 1 << 20;

    /**
     * What a writer wrote to one file.
     *
     * @param size the file's length
     * @param crc32c the CRC32C of all its bytes
     * @param comparator the name of the user comparator its keys are sorted by
     * @param entries its entry count
     * @param smallest its first internal key
     * @param largest its last internal key
     */
    record Written(long size, int crc32c, String comparator, long entries, byte[] smallest, byte[] largest) {
    }

    private record Key(Env env, Path path) {
    }

    private static final OrderedLock LOCK = new OrderedLock(LockRank.WRITTEN_TABLES);
    @GuardedBy("LOCK")
    private static final Map<Key, Written> FILES = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, Written> eldest) {
            return size() > CAPACITY;
        }
    };

    private WrittenTables() {
    }

    /**
     * Records a finished file.
     *
     * @param env the environment it was written through
     * @param path where it now is
     * @param written what was written
     */
    static void record(Env env, Path path, Written written) {
        Key key = new Key(env, path.toAbsolutePath().normalize());
        LOCK.lock();
        try {
            FILES.remove(key); // re-inserted as the newest
            FILES.put(key, written);
        } finally {
            LOCK.unlock();
        }
    }

    /**
     * What a writer of this process wrote to a file, if the file still holds exactly that:
     * reads the whole file to compare its CRC32C.
     *
     * @param env the environment to read through
     * @param path the file
     * @param size the file's present length
     * @param comparator the name of the user comparator the keys must be sorted by
     * @return the writer's description, or {@code null} if no writer of this process wrote the
     *     file, it was written for another comparator, or its bytes changed since
     * @throws IOException if the file cannot be read
     */
    static Written unchanged(Env env, Path path, long size, String comparator) throws IOException {
        Written written;
        LOCK.lock();
        try {
            written = FILES.get(new Key(env, path.toAbsolutePath().normalize()));
        } finally {
            LOCK.unlock();
        }
        if (written == null || written.size() != size || !written.comparator().equals(comparator)) {
            return null;
        }
        return crc32c(env, path, size) == written.crc32c() ? written : null;
    }

    private static int crc32c(Env env, Path path, long size) throws IOException {
        CRC32C crc = new CRC32C();
        try (Env.RandomAccessFile file = env.newRandomAccessFile(path)) {
            for (long offset = 0; offset < size; ) {
                ByteBuffer chunk = file.read(offset, (int) Math.min(READ_CHUNK, size - offset));
                if (!chunk.hasRemaining()) {
                    return ~(int) crc.getValue(); // shorter than its size said: cannot match
                }
                offset += chunk.remaining();
                crc.update(chunk);
            }
        }
        return (int) crc.getValue();
    }
}
