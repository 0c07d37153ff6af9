package org.leveldbj.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.engine.WriteBatchImpl;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;

/**
 * The dump of a write-ahead log: each record's place (offset, end, payload length, fragments)
 * and its write batch (first sequence, count, then each put and delete as an internal key with
 * its sequence), and the damage the reader skipped, a torn tail included.
 *
 * <p>Thread safety: confined to one thread.
 */
final class LogDump {
    private LogDump() {
    }

    /**
     * Dumps a log.
     *
     * @param path the file
     * @param sink the output
     * @throws IOException if the file cannot be read
     */
    static void dump(Path path, DumpSink sink) throws IOException {
        long size = Files.size(path);
        sink.text("log " + path + ": " + Plural.count(size, "byte"));
        sink.json(Json.object().add("kind", "log").add("file", path.toString()).add("size", size));
        WriteBatchImpl batch = new WriteBatchImpl();
        LogFile.read(path, new LogFile.Visitor() {
            @Override
            public void record(long offset, long end, int fragments, ByteBuffer payload) {
                recordLine(sink, offset, end, fragments, payload.remaining());
                try {
                    batch.setContents(payload);
                    dumpBatch(batch, sink);
                } catch (CorruptionException e) {
                    sink.problem(new CorruptionException("record at offset " + offset + ": " + e.reason(),
                            path.toString(), offset));
                }
            }

            @Override
            public void problem(CorruptionException e) {
                sink.problem(e);
            }
        });
    }

    /**
     * Writes a record's place: {@code record offset=O end=E length=L fragments=F}.
     *
     * @param sink the output
     * @param offset the offset of its first header
     * @param end the offset just past it
     * @param fragments how many physical records held it
     * @param length the payload length
     */
    static void recordLine(DumpSink sink, long offset, long end, int fragments, int length) {
        sink.text("record offset=" + offset + " end=" + end + " length=" + length + " fragments=" + fragments(fragments));
        sink.json(Json.object().add("kind", "record").add("offset", offset).add("end", end).add("length", length)
                .add("fragments", fragments));
    }

    /** {@code FULL}, or {@code FIRST,MIDDLE,...,LAST} (middles counted past three). */
    static String fragments(int n) {
        if (n <= 1) {
            return "FULL";
        }
        int middles = n - 2;
        String middle = middles == 0 ? "" : middles <= 3 ? "MIDDLE,".repeat(middles) : "MIDDLE*" + middles + ",";
        return "FIRST," + middle + "LAST";
    }

    private static void dumpBatch(WriteBatchImpl batch, DumpSink sink) {
        long sequence = batch.sequence();
        sink.text("  batch sequence=" + sequence + " count=" + batch.size());
        sink.json(Json.object().add("kind", "batch").add("sequence", sequence).add("count", batch.size()));
        long[] next = {sequence};
        batch.forEach(new WriteBatchImpl.Handler() {
            @Override
            public void put(byte[] data, int keyOffset, int keyLength, int valueOffset, int valueLength) {
                byte[] key = Arrays.copyOfRange(data, keyOffset, keyOffset + keyLength);
                byte[] value = Arrays.copyOfRange(data, valueOffset, valueOffset + valueLength);
                byte[] internal = InternalKeys.encode(key, next[0]++, ValueType.VALUE);
                sink.text("  " + InternalKeys.toString(internal) + " => '" + OutputFormat.TEXT.render(value) + "'");
                sink.json(DumpSink.internalKey(Json.object().add("kind", "put"), "", internal).bytes("value", value));
            }

            @Override
            public void putReference(byte[] data, int keyOffset, int keyLength, int referenceOffset, int referenceLength) {
                byte[] key = Arrays.copyOfRange(data, keyOffset, keyOffset + keyLength);
                byte[] reference = Arrays.copyOfRange(data, referenceOffset, referenceOffset + referenceLength);
                byte[] internal = InternalKeys.encode(key, next[0]++, ValueType.VALUE_REFERENCE);
                sink.text("  " + InternalKeys.toString(internal) + " => " + DumpSink.valueText(internal, reference));
                sink.json(DumpSink.value(DumpSink.internalKey(Json.object().add("kind", "put"), "", internal), internal,
                        reference));
            }

            @Override
            public void delete(byte[] data, int keyOffset, int keyLength) {
                byte[] key = Arrays.copyOfRange(data, keyOffset, keyOffset + keyLength);
                byte[] internal = InternalKeys.encode(key, next[0]++, ValueType.DELETION);
                sink.text("  " + InternalKeys.toString(internal));
                sink.json(DumpSink.internalKey(Json.object().add("kind", "delete"), "", internal));
            }
        });
    }
}
