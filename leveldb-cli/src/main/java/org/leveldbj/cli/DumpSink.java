package org.leveldbj.cli;

import java.io.PrintStream;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.filename.FileNames;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.vlog.ValueReference;

/**
 * Where the dump of one file goes: readable lines, or one JSON object per line. The dumps of
 * each kind of file ({@link TableDump}, {@link LogDump}, {@link ManifestDump}) write through it
 * and count the problems they meet; {@code stats} and {@code verify} write their reports through
 * it too.
 *
 * <p>Thread safety: confined to one thread.
 */
final class DumpSink {
    private final PrintStream out;
    private final boolean json;
    private int problems;

    DumpSink(PrintStream out, boolean json) {
        this.out = out;
        this.json = json;
    }

    /** @return whether the output is JSON lines */
    boolean json() {
        return json;
    }

    /** Writes a text line (ignored in JSON mode). */
    void text(String line) {
        if (!json) {
            out.println(line);
        }
    }

    /** Writes a JSON object (ignored in text mode). */
    void json(Json.JsonObject object) {
        if (json) {
            out.println(object);
        }
    }

    /** Reports damage: {@code problem: offset N: reason} or a {@code "problem"} object. */
    void problem(CorruptionException e) {
        problems++;
        long offset = e.offset();
        if (json) {
            Json.JsonObject o = Json.object().add("kind", "problem");
            if (offset != CorruptionException.UNKNOWN_OFFSET) {
                o.add("offset", offset);
            }
            out.println(o.add("reason", e.reason()));
        } else {
            out.println("problem: " + (offset == CorruptionException.UNKNOWN_OFFSET ? "" : "offset " + offset + ": ")
                    + e.reason());
        }
    }

    /**
     * A problem of a database as a JSON object: {@code {"kind":"problem","file":…,"offset":…,
     * "reason":…}}, without the file or offset when unknown.
     *
     * @param e the damage
     * @return the object
     */
    static Json.JsonObject problemObject(CorruptionException e) {
        Json.JsonObject o = Json.object().add("kind", "problem");
        if (e.file() != null) {
            o.add("file", e.file());
        }
        if (e.offset() != CorruptionException.UNKNOWN_OFFSET) {
            o.add("offset", e.offset());
        }
        return o.add("reason", e.reason());
    }

    /** @return how many problems were reported */
    int problems() {
        return problems;
    }

    /**
     * Adds an internal key's parts to a JSON object: {@code <prefix>key} (base64 user key),
     * {@code <prefix>sequence} and {@code <prefix>type} ({@code value} or {@code deletion}), or
     * {@code <prefix>bad_key} for a malformed one.
     *
     * @param o the object
     * @param prefix the member name prefix, e.g. {@code ""} or {@code "smallest_"}
     * @param internalKey the internal key
     * @return the object
     */
    static Json.JsonObject internalKey(Json.JsonObject o, String prefix, byte[] internalKey) {
        if (internalKey.length < InternalKeys.TRAILER_SIZE) {
            return o.bytes(prefix + "bad_key", internalKey);
        }
        long trailer = InternalKeys.trailer(internalKey);
        ValueType type = ValueType.fromPersistentId(InternalKeys.typeByte(trailer));
        return o.bytes(prefix + "key", InternalKeys.userKey(internalKey))
                .add(prefix + "sequence", InternalKeys.sequence(trailer))
                .add(prefix + "type", type == null ? "bad type " + InternalKeys.typeByte(trailer)
                        : type.name().toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * The text of an entry's value: the value quoted, or, for an entry of a separated value,
     * where its reference points ({@code -> 000012.vlog offset=O record=R value=V bytes}).
     *
     * @param internalKey the entry's key
     * @param value the entry's value
     * @return the text after {@code =>}
     */
    static String valueText(byte[] internalKey, byte[] value) {
        ValueReference ref = reference(internalKey, value);
        if (ref == null) {
            return "'" + OutputFormat.TEXT.render(value) + "'";
        }
        return "-> " + FileNames.valueFileName(ref.fileNumber()) + " offset=" + ref.offset() + " record="
                + ref.recordSize() + " value=" + Plural.count(ref.valueLength(), "byte");
    }

    /**
     * Adds an entry's value to a JSON object: {@code value}, or for a separated value
     * {@code value_file}, {@code value_offset}, {@code value_record} and {@code value_length}.
     *
     * @param o the object
     * @param internalKey the entry's key
     * @param value the entry's value
     * @return the object
     */
    static Json.JsonObject value(Json.JsonObject o, byte[] internalKey, byte[] value) {
        ValueReference ref = reference(internalKey, value);
        if (ref == null) {
            return o.bytes("value", value);
        }
        return o.add("value_file", FileNames.valueFileName(ref.fileNumber())).add("value_offset", ref.offset())
                .add("value_record", ref.recordSize()).add("value_length", ref.valueLength());
    }

    /** The reference an entry holds, or {@code null} for a plain value or a malformed reference. */
    static ValueReference reference(byte[] internalKey, byte[] value) {
        if (internalKey.length < InternalKeys.TRAILER_SIZE
                || InternalKeys.typeByte(InternalKeys.trailer(internalKey)) != ValueType.VALUE_REFERENCE.persistentId()) {
            return null;
        }
        try {
            return ValueReference.decode(value, 0, value.length);
        } catch (CorruptionException e) {
            return null;
        }
    }
}
