package org.leveldbj.backup;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;
import org.iq80.leveldb.CorruptionException;
import org.leveldbj.filename.FileNames;

/**
 * A backup's meta file: what the backup is and every file it consists of, encoded and decoded
 * as the package overview lays it out (format {@value #FORMAT}). Decoding is bounded and strict:
 * anything else is a {@link CorruptionException} naming the file and the line.
 *
 * <p>Thread safety: immutable.
 *
 * @param id the backup's id
 * @param timeMillis when it was made, in milliseconds since the epoch
 * @param sequence the last sequence number it holds
 * @param library the version of the library that made it
 * @param database the absolute path of the database it was made from
 * @param session the id of the database's session it was made in ({@link DatabaseSessions})
 * @param newFiles how many of its files it stored first
 * @param newBytes their bytes
 * @param files its files, in the order they are listed
 */
record BackupMeta(int id, long timeMillis, long sequence, String library, String database, String session,
                  int newFiles, long newBytes, List<StoredFile> files) {
    /** The format this version writes and reads. */
    static final int FORMAT = 1;

    private static final String HEADER = "leveldbj-backup-meta";
    private static final int MAX_LINE = 64 * 1024;
    /** {@code "crc32c " + 8 hex digits + LF}. */
    private static final int CHECKSUM_LINE_LENGTH = 16;

    /**
     * One file of a backup.
     *
     * @param name its name in a restored database
     * @param path where it is stored, relative to the backup directory
     * @param size its length in bytes
     * @param crc the CRC32C of its bytes
     */
    record StoredFile(String name, String path, long size, int crc) {
        /** @return whether it is stored in {@code shared/} (rather than with its backup) */
        boolean shared() {
            return path.startsWith(BackupDirectory.SHARED + "/");
        }
    }

    BackupMeta {
        files = List.copyOf(files);
    }

    /** @return the total bytes of the backup's files */
    long size() {
        long size = 0;
        for (StoredFile f : files) {
            size += f.size();
        }
        return size;
    }

    /** @return the public description */
    BackupInfo info() {
        return new BackupInfo(id, Instant.ofEpochMilli(timeMillis), sequence, size(), files.size(), newBytes, newFiles,
                database, library, FORMAT);
    }

    /** @return the meta file's bytes */
    byte[] encode() {
        StringBuilder sb = new StringBuilder();
        sb.append(HEADER).append(' ').append(FORMAT).append('\n');
        sb.append("id ").append(id).append('\n');
        sb.append("time ").append(timeMillis).append('\n');
        sb.append("sequence ").append(sequence).append('\n');
        sb.append("library ").append(library).append('\n');
        sb.append("database ").append(escape(database)).append('\n');
        sb.append("session ").append(session).append('\n');
        sb.append("new ").append(newFiles).append(' ').append(newBytes).append('\n');
        for (StoredFile f : files) {
            sb.append("file ").append(f.name()).append(' ').append(f.path()).append(' ').append(f.size()).append(' ')
                    .append(hex(f.crc())).append('\n');
        }
        byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
        byte[] end = ("crc32c " + hex(crc(body, body.length)) + "\n").getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[body.length + end.length];
        System.arraycopy(body, 0, all, 0, body.length);
        System.arraycopy(end, 0, all, body.length, end.length);
        return all;
    }

    /**
     * Decodes a meta file.
     *
     * @param bytes its contents
     * @param file its path, for messages
     * @param expectedId the id its name gives
     * @return the meta
     * @throws CorruptionException if the bytes are not a meta file of backup {@code expectedId}
     */
    static BackupMeta decode(byte[] bytes, String file, int expectedId) {
        int checked = checkChecksum(bytes, file);
        Lines in = new Lines(bytes, checked, file);
        String[] header = in.fields(2);
        if (!header[0].equals(HEADER)) {
            throw in.corrupt("not a backup meta file (it starts with '" + abbreviate(header[0]) + "')");
        }
        long format = in.number(header[1], "format");
        if (format != FORMAT) {
            // A later format comes with a later marker, which this version refuses first.
            throw in.corrupt("format " + format + " in a directory of format " + FORMAT);
        }
        int id = (int) in.number(in.field("id"), "id", Integer.MAX_VALUE);
        if (id < 1) {
            throw in.corrupt("bad id 0");
        }
        if (id != expectedId) {
            throw in.corrupt("holds backup " + id + ", not " + expectedId + " as its name says");
        }
        long time = in.number(in.field("time"), "time");
        long sequence = in.number(in.field("sequence"), "sequence");
        String library = in.field("library");
        String database = unescape(in.field("database"), in);
        String session = in.field("session");
        if (!session.matches("[0-9a-f]{32}")) {
            throw in.corrupt("bad session '" + abbreviate(session) + "'");
        }
        String[] fresh = in.fields(3);
        in.expect(fresh[0], "new");
        int newFiles = (int) in.number(fresh[1], "new files", Integer.MAX_VALUE);
        long newBytes = in.number(fresh[2], "new bytes");
        List<StoredFile> files = new ArrayList<>();
        while (!in.atEnd()) {
            String[] f = in.fields(5);
            in.expect(f[0], "file");
            files.add(new StoredFile(checkName(f[1], in), checkPath(f[2], id, in), in.number(f[3], "size"), in.hex(f[4])));
        }
        return new BackupMeta(id, time, sequence, library, database, session, newFiles, newBytes, files);
    }

    /**
     * Checks the last line, {@code crc32c} and the CRC32C of everything before it, first: a
     * damaged meta file is reported as such, whatever the damage.
     *
     * @return the length of what the checksum covers
     */
    private static int checkChecksum(byte[] bytes, String file) {
        int length = bytes.length;
        int start = length - CHECKSUM_LINE_LENGTH;
        if (start < 0 || !new String(bytes, start, CHECKSUM_LINE_LENGTH, StandardCharsets.ISO_8859_1)
                .matches("crc32c [0-9a-f]{8}\n") || (start > 0 && bytes[start - 1] != '\n')) {
            throw new CorruptionException("bad backup meta file (it does not end with its checksum line: cut short?)",
                    file, CorruptionException.UNKNOWN_OFFSET);
        }
        int stored = (int) Long.parseLong(new String(bytes, start + 7, 8, StandardCharsets.ISO_8859_1), 16);
        int computed = crc(bytes, start);
        if (stored != computed) {
            throw new CorruptionException("backup meta file checksum mismatch (stored " + hex(stored)
                    + ", computed " + hex(computed) + ")", file, CorruptionException.UNKNOWN_OFFSET);
        }
        return start;
    }

    /** A name a restored database may hold: a table, value file, log, MANIFEST or CURRENT. */
    private static String checkName(String name, Lines in) {
        FileNames.Parsed parsed = FileNames.parse(name);
        if (parsed == null) {
            throw in.corrupt("'" + abbreviate(name) + "' is not the name of a database file");
        }
        switch (parsed.type()) {
            case TABLE:
            case VALUE:
            case LOG:
            case DESCRIPTOR:
            case CURRENT:
                return name;
            default:
                throw in.corrupt("'" + name + "' is not a file a backup holds");
        }
    }

    /** A path inside {@code shared/} or {@code private/ID/}: one plain name below either. */
    private static String checkPath(String path, int id, Lines in) {
        String privatePrefix = BackupDirectory.PRIVATE + "/" + id + "/";
        String rest;
        if (path.startsWith(BackupDirectory.SHARED + "/")) {
            rest = path.substring(BackupDirectory.SHARED.length() + 1);
        } else if (path.startsWith(privatePrefix)) {
            rest = path.substring(privatePrefix.length());
        } else {
            throw in.corrupt("'" + abbreviate(path) + "' is not in shared/ or " + privatePrefix);
        }
        if (rest.isEmpty() || rest.contains("/") || rest.contains("\\") || rest.equals(".") || rest.equals("..")) {
            throw in.corrupt("'" + abbreviate(path) + "' is not a plain file name below shared/ or " + privatePrefix);
        }
        return path;
    }

    static String hex(int crc) {
        return String.format(Locale.ROOT, "%08x", crc);
    }

    private static int crc(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }

    private static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r");
    }

    private static String unescape(String s, Lines in) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            char next = i + 1 < s.length() ? s.charAt(++i) : 0;
            switch (next) {
                case '\\':
                    sb.append('\\');
                    break;
                case 'n':
                    sb.append('\n');
                    break;
                case 'r':
                    sb.append('\r');
                    break;
                default:
                    throw in.corrupt("bad escape in the database path");
            }
        }
        return sb.toString();
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }

    /** The lines of a meta file, read one at a time; failures name the file and line. */
    private static final class Lines {
        private final byte[] bytes;
        private final int limit;
        private final String file;
        private int position;
        private int line;

        Lines(byte[] bytes, int limit, String file) {
            this.bytes = bytes;
            this.limit = limit;
            this.file = file;
        }

        CorruptionException corrupt(String what) {
            return new CorruptionException("bad backup meta file (line " + line + ": " + what + ")", file,
                    CorruptionException.UNKNOWN_OFFSET);
        }

        /** Whether every line before the checksum has been read. */
        boolean atEnd() {
            return position >= limit;
        }

        private int indexOfNewline(int from) {
            for (int i = from; i < limit && i - from <= MAX_LINE; i++) {
                if (bytes[i] == '\n') {
                    return i;
                }
            }
            return -1;
        }

        /** The next line split at its first {@code count - 1} spaces into exactly {@code count} fields. */
        String[] fields(int count) {
            line++;
            int end = indexOfNewline(position);
            if (end < 0) {
                throw corrupt(position >= limit ? "the file ends early" : "a line without its end");
            }
            String text = new String(bytes, position, end - position, StandardCharsets.UTF_8);
            position = end + 1;
            String[] fields = text.split(" ", count);
            if (fields.length != count) {
                throw corrupt("expected " + count + " fields, found " + fields.length);
            }
            return fields;
        }

        /** The value of the next line, which must be {@code name SP value}. */
        String field(String name) {
            String[] f = fields(2);
            expect(f[0], name);
            return f[1];
        }

        void expect(String found, String name) {
            if (!found.equals(name)) {
                throw corrupt("expected '" + name + "', found '" + abbreviate(found) + "'");
            }
        }

        long number(String text, String what) {
            return number(text, what, Long.MAX_VALUE);
        }

        long number(String text, String what, long max) {
            if (text.isEmpty() || text.length() > 19 || !text.chars().allMatch(c -> c >= '0' && c <= '9')
                    || (text.length() > 1 && text.charAt(0) == '0')) {
                throw corrupt("bad " + what + " '" + abbreviate(text) + "'");
            }
            long value;
            try {
                value = Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw corrupt(what + " " + text + " is out of range");
            }
            if (value > max) {
                throw corrupt(what + " " + value + " is out of range");
            }
            return value;
        }

        int hex(String text) {
            if (text.length() != 8 || !text.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                throw corrupt("bad checksum '" + abbreviate(text) + "'");
            }
            return (int) Long.parseLong(text, 16);
        }
    }
}
