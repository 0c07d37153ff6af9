package org.leveldbj.version;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.key.InternalKeys;
import org.leveldbj.key.ValueType;
import org.leveldbj.util.ByteCursor;
import org.leveldbj.util.ByteSink;
import org.leveldbj.vlog.ValueReference;

/**
 * A change to the database's file set, as one MANIFEST record: optional header fields
 * (comparator, log numbers, next file number, last sequence), compact pointers, and files
 * removed from and added to levels. Encoding follows the package documentation exactly.
 *
 * <p>Thread safety: mutable, confined to one thread.
 */
public final class VersionEdit {
    /** The number of levels of the LSM tree. */
    public static final int NUM_LEVELS = 7;

    static final int TAG_COMPARATOR = 1;
    static final int TAG_LOG_NUMBER = 2;
    static final int TAG_NEXT_FILE_NUMBER = 3;
    static final int TAG_LAST_SEQUENCE = 4;
    static final int TAG_COMPACT_POINTER = 5;
    static final int TAG_DELETED_FILE = 6;
    static final int TAG_NEW_FILE = 7;
    static final int TAG_PREV_LOG_NUMBER = 9;
    /**
     * This library's extension, only in MANIFESTs marked for separated values: a change of the
     * bytes of a value file's records that tables refer to (varint64 file number, varint64
     * zig-zag delta).
     */
    static final int TAG_VALUE_FILE_LIVE_BYTES = 100;

    /** A file removed from a level. */
    public record DeletedFile(int level, long number) implements Comparable<DeletedFile> {
        @Override
        public int compareTo(DeletedFile o) {
            int c = Integer.compare(level, o.level);
            return c != 0 ? c : Long.compare(number, o.number);
        }
    }

    /** A file added to a level. */
    public record NewFile(int level, FileMetaData file) {
    }

    /** Where the next compaction of a level starts. */
    public record CompactPointer(int level, byte[] internalKey) {
        @Override
        public boolean equals(Object o) {
            return o instanceof CompactPointer p && level == p.level && Arrays.equals(internalKey, p.internalKey);
        }

        @Override
        public int hashCode() {
            return level * 31 + Arrays.hashCode(internalKey);
        }

        @Override
        public String toString() {
            return "CompactPointer[level=" + level + ", key=" + InternalKeys.toString(internalKey) + "]";
        }
    }

    private String comparatorName;
    private Long logNumber;
    private Long prevLogNumber;
    private Long nextFileNumber;
    private Long lastSequence;
    private final List<CompactPointer> compactPointers = new ArrayList<>();
    // Sorted so that encoding is deterministic, as in C++ (a std::set of pairs).
    private final TreeSet<DeletedFile> deletedFiles = new TreeSet<>();
    private final List<NewFile> newFiles = new ArrayList<>();
    /** Value file number to the change of its referenced bytes; sorted for a stable encoding. */
    private final TreeMap<Long, Long> valueFileLiveBytes = new TreeMap<>();

    /** Removes every field. */
    public void clear() {
        comparatorName = null;
        logNumber = null;
        prevLogNumber = null;
        nextFileNumber = null;
        lastSequence = null;
        compactPointers.clear();
        deletedFiles.clear();
        newFiles.clear();
        valueFileLiveBytes.clear();
    }

    /**
     * Adds to the change of a value file's referenced bytes: the record sizes of references
     * written to tables count up, those of the references removed with their tables count down.
     *
     * @param fileNumber the value file
     * @param delta the change in bytes
     * @return this edit
     */
    public VersionEdit addValueFileLiveBytes(long fileNumber, long delta) {
        valueFileLiveBytes.merge(fileNumber, delta, Long::sum);
        if (valueFileLiveBytes.get(fileNumber) == 0) {
            valueFileLiveBytes.remove(fileNumber);
        }
        return this;
    }

    /**
     * Counts an entry's separated value, if it has one, in the change of its value file's
     * referenced bytes: {@code sign} 1 for an entry written to a table, -1 for one removed with
     * its table.
     *
     * @param internalKey the entry's key (not moved)
     * @param value the entry's value (not moved)
     * @param sign 1 or -1
     * @throws CorruptionException if the entry is a reference and its value is not one
     */
    public void countValueReference(ByteBuffer internalKey, ByteBuffer value, int sign) {
        int length = internalKey.remaining();
        if (length < InternalKeys.TRAILER_SIZE || internalKey.get(internalKey.position() + length - InternalKeys.TRAILER_SIZE)
                != (byte) ValueType.VALUE_REFERENCE.persistentId()) {
            return;
        }
        ValueReference ref = ValueReference.decode(value);
        addValueFileLiveBytes(ref.fileNumber(), (long) sign * ref.recordSize());
    }

    /** @return value file number to the change of its referenced bytes (read-only view) */
    public Map<Long, Long> valueFileLiveBytes() {
        return Collections.unmodifiableMap(valueFileLiveBytes);
    }

    /**
     * Records the name of the comparator the database orders keys by.
     *
     * @param name the comparator's name
     * @return this edit
     */
    public VersionEdit setComparatorName(String name) {
        this.comparatorName = Objects.requireNonNull(name, "name");
        return this;
    }

    /**
     * Records the number of the current write-ahead log; older logs are obsolete.
     *
     * @param number the log file number
     * @return this edit
     */
    public VersionEdit setLogNumber(long number) {
        this.logNumber = number;
        return this;
    }

    /**
     * Records the number of the log being flushed when the current one was started (0 when
     * none).
     *
     * @param number the log file number
     * @return this edit
     */
    public VersionEdit setPrevLogNumber(long number) {
        this.prevLogNumber = number;
        return this;
    }

    /**
     * Records the next file number to allocate.
     *
     * @param number the next file number
     * @return this edit
     */
    public VersionEdit setNextFileNumber(long number) {
        this.nextFileNumber = number;
        return this;
    }

    /**
     * Records the last sequence number used.
     *
     * @param sequence the sequence number
     * @return this edit
     */
    public VersionEdit setLastSequence(long sequence) {
        this.lastSequence = sequence;
        return this;
    }

    /**
     * Records where the next compaction of a level starts.
     *
     * @param level the level
     * @param internalKey the internal key the last compaction of that level ended at
     * @return this edit
     */
    public VersionEdit setCompactPointer(int level, byte[] internalKey) {
        compactPointers.add(new CompactPointer(checkLevel(level), internalKey.clone()));
        return this;
    }

    /**
     * Records that a file left a level.
     *
     * @param level the level
     * @param number the file number
     * @return this edit
     */
    public VersionEdit deleteFile(int level, long number) {
        deletedFiles.add(new DeletedFile(checkLevel(level), number));
        return this;
    }

    /**
     * Records that a file joined a level.
     *
     * @param level the level
     * @param file the file's metadata
     * @return this edit
     */
    public VersionEdit addFile(int level, FileMetaData file) {
        newFiles.add(new NewFile(checkLevel(level), Objects.requireNonNull(file, "file")));
        return this;
    }

    /** @return the comparator name, or {@code null} when not set */
    public String comparatorName() {
        return comparatorName;
    }

    /** @return the log number, or {@code null} when not set */
    public Long logNumber() {
        return logNumber;
    }

    /** @return the previous log number, or {@code null} when not set */
    public Long prevLogNumber() {
        return prevLogNumber;
    }

    /** @return the next file number, or {@code null} when not set */
    public Long nextFileNumber() {
        return nextFileNumber;
    }

    /** @return the last sequence number, or {@code null} when not set */
    public Long lastSequence() {
        return lastSequence;
    }

    /** @return the compact pointers in the order recorded (unmodifiable) */
    public List<CompactPointer> compactPointers() {
        return Collections.unmodifiableList(compactPointers);
    }

    /** @return the deleted files, ordered by level then number (unmodifiable) */
    public List<DeletedFile> deletedFiles() {
        return List.copyOf(deletedFiles);
    }

    /** @return the added files in the order recorded (unmodifiable) */
    public List<NewFile> newFiles() {
        return Collections.unmodifiableList(newFiles);
    }

    /**
     * Appends the encoding of this edit.
     *
     * @param out the sink to append to
     */
    public void encodeTo(ByteSink out) {
        if (comparatorName != null) {
            out.putVarint32(TAG_COMPARATOR).putLengthPrefixed(comparatorName.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        if (logNumber != null) {
            out.putVarint32(TAG_LOG_NUMBER).putVarint64(logNumber);
        }
        if (prevLogNumber != null) {
            out.putVarint32(TAG_PREV_LOG_NUMBER).putVarint64(prevLogNumber);
        }
        if (nextFileNumber != null) {
            out.putVarint32(TAG_NEXT_FILE_NUMBER).putVarint64(nextFileNumber);
        }
        if (lastSequence != null) {
            out.putVarint32(TAG_LAST_SEQUENCE).putVarint64(lastSequence);
        }
        for (CompactPointer p : compactPointers) {
            out.putVarint32(TAG_COMPACT_POINTER).putVarint32(p.level()).putLengthPrefixed(p.internalKey());
        }
        for (DeletedFile d : deletedFiles) {
            out.putVarint32(TAG_DELETED_FILE).putVarint32(d.level()).putVarint64(d.number());
        }
        for (NewFile n : newFiles) {
            FileMetaData f = n.file();
            out.putVarint32(TAG_NEW_FILE).putVarint32(n.level()).putVarint64(f.number())
                    .putVarint64(f.fileSize()).putLengthPrefixed(f.smallest()).putLengthPrefixed(f.largest());
        }
        for (Map.Entry<Long, Long> e : valueFileLiveBytes.entrySet()) {
            long delta = e.getValue();
            out.putVarint32(TAG_VALUE_FILE_LIVE_BYTES).putVarint64(e.getKey()).putVarint64((delta << 1) ^ (delta >> 63));
        }
    }

    /**
     * Returns the encoding of this edit.
     *
     * @return a new array
     */
    public byte[] encode() {
        ByteSink out = new ByteSink();
        encodeTo(out);
        return out.toByteArray();
    }

    /**
     * Decodes an edit.
     *
     * @param record the encoded edit (one MANIFEST record)
     * @return the edit
     * @throws CorruptionException naming the field and its offset within the record when the
     *     bytes are malformed
     */
    public static VersionEdit decode(java.nio.ByteBuffer record) {
        VersionEdit edit = new VersionEdit();
        ByteCursor in = new ByteCursor(record);
        while (in.hasRemaining()) {
            int fieldStart = in.offset();
            int tag = in.readVarint32();
            try {
                edit.decodeField(tag, in);
            } catch (CorruptionException e) {
                throw new CorruptionException("VersionEdit: bad " + fieldName(tag) + " field ("
                        + e.reason() + ")", null, fieldStart, e);
            }
        }
        return edit;
    }

    /**
     * Decodes an edit held in an array.
     *
     * @param record the encoded edit
     * @return the edit
     * @throws CorruptionException when the bytes are malformed
     */
    public static VersionEdit decode(byte[] record) {
        return decode(java.nio.ByteBuffer.wrap(record));
    }

    private void decodeField(int tag, ByteCursor in) {
        switch (tag) {
            case TAG_COMPARATOR:
                comparatorName = new String(in.readLengthPrefixed("comparator name"),
                        java.nio.charset.StandardCharsets.UTF_8);
                break;
            case TAG_LOG_NUMBER:
                logNumber = in.readVarint64();
                break;
            case TAG_PREV_LOG_NUMBER:
                prevLogNumber = in.readVarint64();
                break;
            case TAG_NEXT_FILE_NUMBER:
                nextFileNumber = in.readVarint64();
                break;
            case TAG_LAST_SEQUENCE:
                lastSequence = in.readVarint64();
                break;
            case TAG_COMPACT_POINTER: {
                int level = readLevel(in);
                compactPointers.add(new CompactPointer(level, readInternalKey(in)));
                break;
            }
            case TAG_DELETED_FILE: {
                int level = readLevel(in);
                deletedFiles.add(new DeletedFile(level, in.readVarint64()));
                break;
            }
            case TAG_NEW_FILE: {
                int level = readLevel(in);
                long number = in.readVarint64();
                long size = in.readVarint64();
                byte[] smallest = readInternalKey(in);
                byte[] largest = readInternalKey(in);
                newFiles.add(new NewFile(level, new FileMetaData(number, size, smallest, largest)));
                break;
            }
            case TAG_VALUE_FILE_LIVE_BYTES: {
                long number = in.readVarint64();
                long zigzag = in.readVarint64();
                addValueFileLiveBytes(number, (zigzag >>> 1) ^ -(zigzag & 1));
                break;
            }
            default:
                throw new CorruptionException("unknown tag " + Integer.toUnsignedString(tag));
        }
    }

    private static String fieldName(int tag) {
        switch (tag) {
            case TAG_COMPARATOR: return "comparator name";
            case TAG_LOG_NUMBER: return "log number";
            case TAG_PREV_LOG_NUMBER: return "previous log number";
            case TAG_NEXT_FILE_NUMBER: return "next file number";
            case TAG_LAST_SEQUENCE: return "last sequence number";
            case TAG_COMPACT_POINTER: return "compaction pointer";
            case TAG_DELETED_FILE: return "deleted file";
            case TAG_NEW_FILE: return "new-file entry";
            case TAG_VALUE_FILE_LIVE_BYTES: return "value-file bytes";
            default: return "tag";
        }
    }

    private static int readLevel(ByteCursor in) {
        int at = in.offset();
        int level = in.readVarint32();
        if (level < 0 || level >= NUM_LEVELS) {
            throw new CorruptionException("level " + Integer.toUnsignedString(level) + " out of range [0, "
                    + NUM_LEVELS + ")", null, at);
        }
        return level;
    }

    private static byte[] readInternalKey(ByteCursor in) {
        int at = in.offset();
        byte[] key = in.readLengthPrefixed("internal key");
        if (key.length < InternalKeys.TRAILER_SIZE) {
            throw new CorruptionException("internal key too short (" + key.length + " bytes)", null, at);
        }
        return key;
    }

    private static int checkLevel(int level) {
        if (level < 0 || level >= NUM_LEVELS) {
            throw new IllegalArgumentException("level " + level + " outside [0, " + NUM_LEVELS + ")");
        }
        return level;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VersionEdit e && Arrays.equals(encode(), e.encode());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encode());
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("VersionEdit {");
        Map<String, Object> header = new java.util.LinkedHashMap<>();
        header.put("comparator", comparatorName);
        header.put("logNumber", logNumber);
        header.put("prevLogNumber", prevLogNumber);
        header.put("nextFileNumber", nextFileNumber);
        header.put("lastSequence", lastSequence);
        header.forEach((k, v) -> {
            if (v != null) {
                sb.append("\n  ").append(k).append(": ").append(v);
            }
        });
        compactPointers.forEach(p -> sb.append("\n  compactPointer: level ").append(p.level()).append(' ')
                .append(InternalKeys.toString(p.internalKey())));
        deletedFiles.forEach(d -> sb.append("\n  deleteFile: level ").append(d.level()).append(" #").append(d.number()));
        newFiles.forEach(n -> sb.append("\n  addFile: level ").append(n.level()).append(' ').append(n.file()));
        valueFileLiveBytes.forEach((n, d) -> sb.append("\n  valueFileBytes: #").append(n).append(' ')
                .append(d > 0 ? "+" : "").append(d));
        return sb.append("\n}").toString();
    }
}
