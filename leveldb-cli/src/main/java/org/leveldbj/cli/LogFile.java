package org.leveldbj.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.log.LogReader;

/**
 * Reads every record of a log file (a write-ahead log or a MANIFEST) with the engine's
 * {@link LogReader}, checksums verified, and tells a {@link Visitor} where each record lies and
 * what damage was skipped. Unlike a database opening the log, it also reports a torn tail: bytes
 * after the last intact record that are not zero padding (the incomplete last write of a crash,
 * which an open silently ignores).
 *
 * <p>Thread safety: stateless; a read runs on the calling thread.
 */
final class LogFile {
    private LogFile() {
    }

    /** Receives what a read finds. */
    interface Visitor {
        /**
         * A record.
         *
         * @param offset the file offset of its first header
         * @param end the file offset just past its last fragment
         * @param fragments how many physical records it was assembled from (1 for FULL)
         * @param payload its bytes, valid during the call
         */
        void record(long offset, long end, int fragments, ByteBuffer payload);

        /**
         * Damage: bytes the reader dropped, or the torn tail.
         *
         * @param e what and where
         */
        void problem(CorruptionException e);
    }

    /**
     * Reads a log file.
     *
     * @param path the file
     * @param visitor receives the records and the damage
     * @throws IOException if the file cannot be read
     */
    static void read(Path path, Visitor visitor) throws IOException {
        String name = path.toString();
        long[] damagedUpTo = {0};
        LogReader.Reporter reporter = new LogReader.Reporter() {
            @Override
            public void corruption(long bytes, String reason) {
                visitor.problem(new CorruptionException(reason + " (" + Plural.count(bytes, "byte") + " dropped)", name,
                        CorruptionException.UNKNOWN_OFFSET));
            }

            @Override
            public void corruption(long offset, long bytes, String reason) {
                damagedUpTo[0] = Math.max(damagedUpTo[0], offset + bytes);
                visitor.problem(new CorruptionException(reason + " (" + Plural.count(bytes, "byte") + " dropped)", name,
                        offset));
            }
        };
        long end;
        try (LogReader reader = new LogReader(FileSystemEnv.getDefault().newSequentialFile(path), reporter, true, 0)) {
            ByteBuffer record;
            while ((record = reader.readRecord()) != null) {
                visitor.record(reader.lastRecordOffset(), reader.lastRecordEnd(), reader.lastRecordFragments(), record);
            }
            end = Math.max(reader.lastRecordEnd(), damagedUpTo[0]);
        }
        long torn = tornTail(path, end);
        if (torn > 0) {
            visitor.problem(new CorruptionException("torn write: the last " + Plural.count(torn, "byte")
                    + (torn == 1 ? " holds" : " hold") + " an incomplete record (a crash during a write leaves this;"
                    + " opening the database ignores " + (torn == 1 ? "it" : "them") + ")", name, end));
        }
    }

    /** How many bytes from {@code from} to the end are not all zero: 0 when none or all zero. */
    private static long tornTail(Path path, long from) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            ByteBuffer buf = ByteBuffer.allocate(1 << 16);
            for (long at = from; at < size; ) {
                buf.clear();
                int n = channel.read(buf, at);
                if (n <= 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    if (buf.get(i) != 0) {
                        return size - from;
                    }
                }
                at += n;
            }
            return 0;
        }
    }
}
