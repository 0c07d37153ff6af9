package org.leveldbj.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.version.FileMetaData;
import org.leveldbj.version.VersionEdit;

/**
 * The dump of a MANIFEST: each record's place and its decoded version edit (comparator, log
 * numbers, next file number, last sequence, compact pointers, deleted files, new files with
 * their level, number, size and key range), and the damage the reader skipped.
 *
 * <p>Thread safety: confined to one thread.
 */
final class ManifestDump {
    private ManifestDump() {
    }

    /**
     * Dumps a MANIFEST.
     *
     * @param path the file
     * @param sink the output
     * @throws IOException if the file cannot be read
     */
    static void dump(Path path, DumpSink sink) throws IOException {
        long size = Files.size(path);
        sink.text("manifest " + path + ": " + Plural.count(size, "byte"));
        sink.json(Json.object().add("kind", "manifest").add("file", path.toString()).add("size", size));
        LogFile.read(path, new LogFile.Visitor() {
            @Override
            public void record(long offset, long end, int fragments, ByteBuffer payload) {
                LogDump.recordLine(sink, offset, end, fragments, payload.remaining());
                VersionEdit edit;
                try {
                    edit = VersionEdit.decode(payload);
                } catch (CorruptionException e) {
                    sink.problem(new CorruptionException("record at offset " + offset + ": " + e.reason(),
                            path.toString(), offset));
                    return;
                }
                dumpEdit(edit, sink);
            }

            @Override
            public void problem(CorruptionException e) {
                sink.problem(e);
            }
        });
    }

    private static void dumpEdit(VersionEdit edit, DumpSink sink) {
        Json.JsonObject o = Json.object().add("kind", "edit");
        if (edit.comparatorName() != null) {
            sink.text("  comparator " + edit.comparatorName());
            o.add("comparator", edit.comparatorName());
        }
        number(sink, o, "log number", "log_number", edit.logNumber());
        number(sink, o, "previous log number", "prev_log_number", edit.prevLogNumber());
        number(sink, o, "next file number", "next_file_number", edit.nextFileNumber());
        number(sink, o, "last sequence", "last_sequence", edit.lastSequence());
        sink.json(o);
        for (VersionEdit.CompactPointer p : edit.compactPointers()) {
            sink.text("  compact pointer level=" + p.level() + " " + InternalKeys.toString(p.internalKey()));
            sink.json(DumpSink.internalKey(Json.object().add("kind", "compact_pointer").add("level", p.level()), "",
                    p.internalKey()));
        }
        for (VersionEdit.DeletedFile d : edit.deletedFiles()) {
            sink.text("  deleted file level=" + d.level() + " number=" + d.number());
            sink.json(Json.object().add("kind", "deleted_file").add("level", d.level()).add("number", d.number()));
        }
        for (VersionEdit.NewFile n : edit.newFiles()) {
            FileMetaData f = n.file();
            sink.text("  new file level=" + n.level() + " number=" + f.number() + " size=" + f.fileSize()
                    + " smallest=" + InternalKeys.toString(f.smallest()) + " largest=" + InternalKeys.toString(f.largest()));
            Json.JsonObject nf = Json.object().add("kind", "new_file").add("level", n.level())
                    .add("number", f.number()).add("size", f.fileSize());
            DumpSink.internalKey(nf, "smallest_", f.smallest());
            sink.json(DumpSink.internalKey(nf, "largest_", f.largest()));
        }
    }

    private static void number(DumpSink sink, Json.JsonObject o, String label, String member, Long value) {
        if (value != null) {
            sink.text("  " + label + " " + value);
            o.add(member, value);
        }
    }
}
