package org.leveldbj.filename;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.iq80.leveldb.Env;
import org.iq80.leveldb.TableFileSuffix;

/**
 * The names of the files in a database directory, exactly as C++ LevelDB spells them, and
 * their parsing. Numbered files use at least six decimal digits ({@code 000005.ldb}). Tables
 * are written as {@code .ldb} and read under either {@code .ldb} or {@code .sst}.
 *
 * <p>Thread safety: stateless.
 */
public final class FileNames {
    /** Name of the file naming the live MANIFEST. */
    public static final String CURRENT = "CURRENT";
    /** Name of the lock file. */
    public static final String LOCK = "LOCK";
    /** Name of the info log. */
    public static final String INFO_LOG = "LOG";
    /** Name the previous info log is kept under. */
    public static final String OLD_INFO_LOG = "LOG.old";

    private static final String MANIFEST_PREFIX = "MANIFEST-";

    private FileNames() {
    }

    /** A parsed file name: its kind and, for numbered files, its number (else 0). */
    public record Parsed(FileType type, long number) {
    }

    /**
     * @param number the log number
     * @return {@code NNNNNN.log}
     */
    public static String logFileName(long number) {
        return numbered(number, ".log");
    }

    /**
     * @param number the table number
     * @return {@code NNNNNN.ldb}, the name C++ LevelDB has written tables under since 1.14
     */
    public static String tableFileName(long number) {
        return numbered(number, ".ldb");
    }

    /**
     * @param number the table number
     * @return {@code NNNNNN.sst}, the name every LevelDB reader opens
     */
    public static String sstTableFileName(long number) {
        return numbered(number, ".sst");
    }

    /**
     * @param number the table number
     * @param sst whether the database writes {@code .sst} names
     * @return {@code NNNNNN.sst} or {@code NNNNNN.ldb}
     */
    public static String tableFileName(long number, boolean sst) {
        return sst ? sstTableFileName(number) : tableFileName(number);
    }

    /**
     * Resolves a suffix rule for the tables a database will write. {@link TableFileSuffix#AUTO}
     * gives {@code .ldb} only when the directory already holds an {@code .ldb} table, and
     * {@code .sst} otherwise (a new database, one with no table yet, one whose tables are all
     * {@code .sst}): every LevelDB reader opens {@code .sst}, while leveldbjni 1.8, iq80 leveldb
     * and C++ LevelDB before 1.14 open nothing else, so a database they could read stays readable
     * by them; one that holds {@code .ldb} tables is already beyond them.
     *
     * @param env the environment
     * @param dir the database directory (it may not exist yet)
     * @param rule the rule asked for
     * @return {@code true} for {@code .sst}, {@code false} for {@code .ldb}
     * @throws IOException if the directory cannot be listed
     */
    public static boolean writesSst(Env env, Path dir, TableFileSuffix rule) throws IOException {
        if (rule != TableFileSuffix.AUTO) {
            return rule == TableFileSuffix.SST;
        }
        if (!env.fileExists(dir)) {
            return true;
        }
        for (String name : env.getChildren(dir)) {
            Parsed p = parse(name);
            if (p != null && p.type() == FileType.TABLE && name.endsWith(".ldb")) {
                return false;
            }
        }
        return true;
    }

    /**
     * The name of a value file (separated values).
     *
     * @param number the file's number
     * @return {@code NNNNNN.vlog}
     */
    public static String valueFileName(long number) {
        return numbered(number, ".vlog");
    }

    /**
     * @param number the MANIFEST number
     * @return {@code MANIFEST-NNNNNN}
     */
    public static String descriptorFileName(long number) {
        return MANIFEST_PREFIX + sixDigits(number);
    }

    /**
     * @param number the temporary file number
     * @return {@code NNNNNN.dbtmp}
     */
    public static String tempFileName(long number) {
        return numbered(number, ".dbtmp");
    }

    private static String numbered(long number, String suffix) {
        if (number < 0) {
            throw new IllegalArgumentException("file number " + number + " is negative");
        }
        return sixDigits(number) + suffix;
    }

    /** The number in decimal, zero-padded to six digits (C++'s {@code %06llu}), without String.format's parsing. */
    private static String sixDigits(long number) {
        String digits = Long.toString(number);
        return digits.length() >= 6 ? digits : "000000".substring(digits.length()) + digits;
    }

    /**
     * Recognises a file name of a database directory.
     *
     * @param name a file name (no directory part)
     * @return its kind and number, or {@code null} when the name is not one a database uses
     */
    public static Parsed parse(String name) {
        switch (name) {
            case CURRENT:
                return new Parsed(FileType.CURRENT, 0);
            case LOCK:
                return new Parsed(FileType.LOCK, 0);
            case INFO_LOG:
            case OLD_INFO_LOG:
                return new Parsed(FileType.INFO_LOG, 0);
            default:
                break;
        }
        if (name.startsWith(MANIFEST_PREFIX)) {
            long number = parseNumber(name, MANIFEST_PREFIX.length(), name.length());
            return number < 0 ? null : new Parsed(FileType.DESCRIPTOR, number);
        }
        int dot = name.indexOf('.');
        if (dot <= 0) {
            return null;
        }
        long number = parseNumber(name, 0, dot);
        if (number < 0) {
            return null;
        }
        switch (name.substring(dot)) {
            case ".log":
                return new Parsed(FileType.LOG, number);
            case ".ldb":
            case ".sst":
                return new Parsed(FileType.TABLE, number);
            case ".dbtmp":
                return new Parsed(FileType.TEMP, number);
            case ".vlog":
                return new Parsed(FileType.VALUE, number);
            default:
                return null;
        }
    }

    /** Parses decimal digits in {@code [from, to)}; -1 when empty, not digits, or overflowing. */
    private static long parseNumber(String s, int from, int to) {
        if (from >= to) {
            return -1;
        }
        long value = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            int digit = c - '0';
            if (value > (Long.MAX_VALUE - digit) / 10) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    /**
     * Points CURRENT at a MANIFEST atomically: writes the name and a newline to a temporary
     * file, syncs it, renames it over CURRENT and syncs the directory. A crash at any point
     * leaves either the old CURRENT or the new one.
     *
     * @param env the environment
     * @param dir the database directory
     * @param descriptorNumber the number of the MANIFEST to name
     * @throws IOException if a step fails (the temporary file is then removed)
     */
    public static void setCurrentFile(Env env, Path dir, long descriptorNumber) throws IOException {
        Path temp = dir.resolve(tempFileName(descriptorNumber));
        byte[] contents = (descriptorFileName(descriptorNumber) + "\n").getBytes(StandardCharsets.US_ASCII);
        try {
            try (Env.WritableFile file = env.newWritableFile(temp)) {
                file.append(ByteBuffer.wrap(contents));
                file.sync();
            }
            env.renameFile(temp, dir.resolve(CURRENT));
            env.syncDir(dir);
        } catch (IOException | RuntimeException e) {
            try {
                if (env.fileExists(temp)) {
                    env.deleteFile(temp);
                }
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Tells whether CURRENT may name a MANIFEST: true unless CURRENT can be read and names
     * another one. Used after a failed MANIFEST switch to decide whether the new MANIFEST may
     * be deleted (when in doubt it is kept; an unused MANIFEST is swept later).
     *
     * @param env the environment
     * @param dir the database directory
     * @param descriptorNumber the MANIFEST's number
     * @return whether CURRENT names, or may name, {@code MANIFEST-<descriptorNumber>}
     */
    public static boolean currentNames(Env env, Path dir, long descriptorNumber) {
        byte[] expected = (descriptorFileName(descriptorNumber) + "\n").getBytes(StandardCharsets.US_ASCII);
        Path current = dir.resolve(CURRENT);
        try {
            if (!env.fileExists(current)) {
                return false;
            }
            ByteBuffer buf = ByteBuffer.allocate(expected.length + 1);
            try (Env.SequentialFile in = env.newSequentialFile(current)) {
                while (buf.hasRemaining() && in.read(buf) > 0) {
                    // keep reading
                }
            }
            buf.flip();
            return buf.equals(ByteBuffer.wrap(expected));
        } catch (IOException e) {
            return true;
        }
    }
}
