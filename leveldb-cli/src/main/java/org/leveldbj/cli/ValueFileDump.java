package org.leveldbj.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.env.FileSystemEnv;
import org.leveldbj.vlog.ValueFileScanner;

/**
 * The dump of a value file (separated values): each record's offset, size, key and value length,
 * with the first bytes of the value, and each damage met (a torn tail included), after which the
 * dump goes on at the next sound record.
 *
 * <p>Thread safety: confined to one thread.
 */
final class ValueFileDump {
    /** How many bytes of each value the text dump shows. */
    static final int SHOWN_BYTES = 32;

    private ValueFileDump() {
    }

    /**
     * Dumps a value file.
     *
     * @param path the file
     * @param sink the output
     * @throws IOException if the file cannot be read
     */
    static void dump(Path path, DumpSink sink) throws IOException {
        long size = Files.size(path);
        sink.text("value file " + path + ": " + Plural.count(size, "byte"));
        sink.json(Json.object().add("kind", "value_file").add("file", path.toString()).add("size", size));
        ValueFileScanner scan;
        try {
            scan = new ValueFileScanner(FileSystemEnv.getDefault().newRandomAccessFile(path), path.toString());
        } catch (CorruptionException e) {
            sink.problem(e);
            return;
        }
        try (scan) {
            long records = 0;
            while (true) {
                try {
                    if (!scan.next()) {
                        break;
                    }
                } catch (CorruptionException e) {
                    sink.problem(ValueFileCheck.describe(e, scan, size));
                    continue;
                }
                records++;
                byte[] key = bytes(scan.key(), Integer.MAX_VALUE);
                ByteBuffer value = scan.value();
                byte[] head = bytes(value, SHOWN_BYTES);
                sink.text("record offset=" + scan.offset() + " size=" + scan.recordSize() + " key='"
                        + OutputFormat.TEXT.render(key) + "' value=" + Plural.count(value.remaining(), "byte") + " '"
                        + OutputFormat.TEXT.render(head) + (value.remaining() > head.length ? "'..." : "'"));
                sink.json(Json.object().add("kind", "value_record").add("offset", scan.offset())
                        .add("size", scan.recordSize()).bytes("key", key).add("value_length", value.remaining())
                        .bytes("value", bytes(value, Integer.MAX_VALUE)));
            }
            sink.text(Plural.count(records, "record"));
        }
    }

    private static byte[] bytes(ByteBuffer b, int most) {
        byte[] out = new byte[Math.min(most, b.remaining())];
        b.get(b.position(), out);
        return out;
    }
}
