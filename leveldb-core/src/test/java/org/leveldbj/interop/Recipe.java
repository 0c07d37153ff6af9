package org.leveldbj.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed interoperability recipe (see {@code interop/RECIPES.md}): the options and the steps,
 * with every generator and value token expanded into plain puts and deletes.
 *
 * <p>The parser follows the format exactly as the C++ and Go peers implement it, so that
 * {@link #expand()} is byte-identical to {@code leveldb_peer expand}; the tests check that for
 * every sample recipe.
 */
final class Recipe {

    /** The kinds of step, in the order of their canonical names. */
    enum Kind {
        PUT("put"), DELETE("delete"), BATCH_BEGIN("batch begin"), BATCH_END("batch end"), FLUSH("flush"),
        COMPACT("compact"), REOPEN("reopen"), SNAPSHOT("snapshot"), VERIFY_SNAPSHOT("verify-snapshot"),
        CHECK("check");

        final String canonical;

        Kind(String canonical) {
            this.canonical = canonical;
        }
    }

    /**
     * One step. {@code key} and {@code value} are set for puts and deletes (a delete's value is
     * empty); {@code name} for snapshot steps.
     */
    record Op(Kind kind, byte[] key, byte[] value, String name, int line) {
    }

    /** A recipe that breaks the format; the message starts with {@code file:line:}. */
    static final class RecipeException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        RecipeException(String message) {
            super(message);
        }
    }

    /** Internal: an error on the current line, turned into a RecipeException with the place. */
    private static final class LineError extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LineError(String message) {
            super(message);
        }
    }

    /** Descending unsigned-bytewise order, the {@code reverse} comparator. */
    static final Comparator<byte[]> REVERSE_ORDER = (a, b) -> Arrays.compareUnsigned(b, a);
    /** Unsigned-bytewise order, the {@code bytewise} comparator. */
    static final Comparator<byte[]> BYTEWISE_ORDER = Arrays::compareUnsigned;

    final String source;
    boolean snappy = true;
    boolean reverse;
    long blockSize = 4096;
    long restartInterval = 16;
    long bloomBits;
    long writeBufferSize = 4L << 20;
    long maxFileSize = 2L << 20;
    final List<Op> ops = new ArrayList<>();

    private Recipe(String source) {
        this.source = source;
    }

    /** @return the order of the recipe's comparator */
    Comparator<byte[]> order() {
        return reverse ? REVERSE_ORDER : BYTEWISE_ORDER;
    }

    /** @return the steps, unmodifiable */
    List<Op> steps() {
        return Collections.unmodifiableList(ops);
    }

    /**
     * Parses a recipe file.
     *
     * @param path the file
     * @return the recipe
     * @throws IOException if the file cannot be read
     * @throws RecipeException if the recipe is not valid
     */
    static Recipe load(Path path) throws IOException {
        return parse(path.toString(), Files.readString(path, StandardCharsets.ISO_8859_1));
    }

    /**
     * Parses recipe text.
     *
     * @param name the name used in error messages (the file's path)
     * @param text the recipe
     * @return the recipe
     * @throws RecipeException if the recipe is not valid
     */
    static Recipe parse(String name, String text) {
        Recipe r = new Recipe(name);
        int line = 0;
        boolean inBatch = false;
        // Lines end at '\n' (a trailing '\r' is whitespace, as for the peers' tokenizers).
        String[] lines = text.split("\n", -1);
        int count = lines.length;
        if (text.endsWith("\n")) {
            count--;  // the empty string after the final newline is not a line
        }
        for (int i = 0; i < count; i++) {
            line++;
            String content = lines[i];
            int hash = content.indexOf('#');
            if (hash >= 0) {
                content = content.substring(0, hash);
            }
            List<String> t = tokens(content);
            if (t.isEmpty()) {
                continue;
            }
            try {
                inBatch = r.step(t, line, inBatch);
            } catch (LineError e) {
                throw new RecipeException(name + ":" + line + ": " + e.getMessage());
            }
        }
        if (inBatch) {
            throw new RecipeException(name + ": batch not ended");
        }
        return r;
    }

    private static List<String> tokens(String s) {
        List<String> t = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            while (i < s.length() && isSpace(s.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < s.length() && !isSpace(s.charAt(i))) {
                i++;
            }
            if (i > start) {
                t.add(s.substring(start, i));
            }
        }
        return t;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == 0x0b;
    }

    /** Parses one step; returns whether a batch is open afterwards. */
    private boolean step(List<String> t, int line, boolean inBatch) {
        String c = t.get(0);
        boolean inBatchOk = c.equals("put") || c.equals("delete") || c.equals("gen")
                || (c.equals("batch") && t.size() > 1 && t.get(1).equals("end"));
        if (inBatch && !inBatchOk) {
            throw new LineError("'" + c + "' inside a batch");
        }
        switch (c) {
            case "option" -> {
                want(t, 2);
                if (!ops.isEmpty()) {
                    throw new LineError("options must come before the first step");
                }
                option(t.get(1));
            }
            case "put" -> {
                want(t, 3);
                ops.add(new Op(Kind.PUT, parseHex(t.get(1)), parseValue(t.get(2)), null, line));
            }
            case "delete" -> {
                want(t, 2);
                ops.add(new Op(Kind.DELETE, parseHex(t.get(1)), new byte[0], null, line));
            }
            case "gen" -> generate(t, line);
            case "batch" -> {
                want(t, 2);
                if (t.get(1).equals("begin") && !inBatch) {
                    ops.add(new Op(Kind.BATCH_BEGIN, null, null, null, line));
                    return true;
                } else if (t.get(1).equals("end") && inBatch) {
                    ops.add(new Op(Kind.BATCH_END, null, null, null, line));
                    return false;
                }
                throw new LineError("unbalanced 'batch " + t.get(1) + "'");
            }
            case "flush", "compact", "reopen", "check" -> {
                want(t, 1);
                Kind k = switch (c) {
                    case "flush" -> Kind.FLUSH;
                    case "compact" -> Kind.COMPACT;
                    case "reopen" -> Kind.REOPEN;
                    default -> Kind.CHECK;
                };
                ops.add(new Op(k, null, null, null, line));
            }
            case "snapshot", "verify-snapshot" -> {
                want(t, 2);
                ops.add(new Op(c.equals("snapshot") ? Kind.SNAPSHOT : Kind.VERIFY_SNAPSHOT, null, null, t.get(1), line));
            }
            default -> throw new LineError("unknown step '" + c + "'");
        }
        return inBatch;
    }

    private static void want(List<String> t, int n) {
        if (t.size() != n) {
            throw new LineError("'" + t.get(0) + "' takes " + (n - 1) + " argument(s)");
        }
    }

    private void option(String token) {
        int eq = token.indexOf('=');
        String k = eq < 0 ? token : token.substring(0, eq);
        String v = eq < 0 ? "" : token.substring(eq + 1);
        switch (k) {
            case "compression" -> {
                if (!v.equals("snappy") && !v.equals("none")) {
                    throw new LineError("unknown option '" + token + "'");
                }
                snappy = v.equals("snappy");
            }
            case "comparator" -> {
                if (!v.equals("bytewise") && !v.equals("reverse")) {
                    throw new LineError("unknown option '" + token + "'");
                }
                reverse = v.equals("reverse");
            }
            case "block_size" -> blockSize = parseNum(v);
            case "restart_interval" -> restartInterval = parseNum(v);
            case "bloom_bits" -> bloomBits = parseNum(v);
            case "write_buffer_size" -> writeBufferSize = parseNum(v);
            case "max_file_size" -> maxFileSize = parseNum(v);
            default -> throw new LineError("unknown option '" + token + "'");
        }
    }

    /** An unsigned decimal number (an unsigned 64-bit value). */
    static long parseNum(String s) {
        if (s.isEmpty() || !s.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            throw new LineError("bad number '" + s + "'");
        }
        try {
            return Long.parseUnsignedLong(s);
        } catch (NumberFormatException e) {
            throw new LineError("bad number '" + s + "'");
        }
    }

    /** Hex (either case, even length) or {@code -} for the empty string. */
    static byte[] parseHex(String s) {
        if (s.equals("-")) {
            return new byte[0];
        }
        if (s.length() % 2 != 0 || !s.chars().allMatch(Recipe::isHexDigit)) {
            throw new LineError("bad hex '" + s + "'");
        }
        byte[] r = new byte[s.length() / 2];
        for (int i = 0; i < r.length; i++) {
            r[i] = (byte) Integer.parseInt(s, 2 * i, 2 * i + 2, 16);
        }
        return r;
    }

    private static boolean isHexDigit(int ch) {
        return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
    }

    /** A value token: hex, {@code -}, {@code rand:<seed>:<len>} or {@code repeat:<hexbyte>:<len>}. */
    static byte[] parseValue(String s) {
        int a = s.indexOf(':');
        if (a < 0) {
            return parseHex(s);
        }
        int b = s.indexOf(':', a + 1);
        if (b < 0) {
            throw new LineError("bad value '" + s + "'");
        }
        String kind = s.substring(0, a);
        String arg = s.substring(a + 1, b);
        long len = parseNum(s.substring(b + 1));
        if (kind.equals("rand")) {
            return new SplitMix64(parseNum(arg)).bytes(checkedLength(len));
        }
        if (kind.equals("repeat")) {
            byte[] c = parseHex(arg);
            if (c.length != 1) {
                throw new LineError("repeat needs one byte");
            }
            byte[] r = new byte[checkedLength(len)];
            Arrays.fill(r, c[0]);
            return r;
        }
        throw new LineError("bad value '" + s + "'");
    }

    private static int checkedLength(long len) {
        if (len < 0 || len > Integer.MAX_VALUE - 64) {
            throw new LineError("length " + Long.toUnsignedString(len) + " is too large");
        }
        return (int) len;
    }

    /** The pseudo-random function every peer implements identically. */
    static final class SplitMix64 {
        private long s;

        SplitMix64(long seed) {
            this.s = seed;
        }

        long next() {
            s += 0x9e3779b97f4a7c15L;
            long z = s;
            z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
            z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
            return z ^ (z >>> 31);
        }

        /** next() mod n, unsigned. */
        long uniform(long n) {
            if (n == 0) {
                throw new LineError("uniform over an empty range");
            }
            return Long.remainderUnsigned(next(), n);
        }

        /** ceil(len / 8) calls of next(), each little-endian, the last one truncated. */
        byte[] bytes(int len) {
            byte[] r = new byte[len];
            for (int i = 0; i < len; i += 8) {
                long v = next();
                for (int j = 0; j < 8 && i + j < len; j++) {
                    r[i + j] = (byte) (v >>> (8 * j));
                }
            }
            return r;
        }
    }

    private void generate(List<String> t, int line) {
        if (t.size() < 4) {
            throw new LineError("usage: gen <kind> <seed> <count> [param=value]...");
        }
        String kind = t.get(1);
        SplitMix64 rng = new SplitMix64(parseNum(t.get(2)));
        long count = parseNum(t.get(3));
        Map<String, String> p = new LinkedHashMap<>();
        switch (kind) {
            case "seq" -> {
                p.put("start", "0");
                p.put("step", "1");
                p.put("vmin", "0");
                p.put("vmax", "100");
                p.put("prefix", "-");
            }
            case "binary" -> {
                p.put("kmin", "0");
                p.put("kmax", "24");
                p.put("vmin", "0");
                p.put("vmax", "64");
            }
            case "churn" -> {
                p.put("keys", "64");
                p.put("vmin", "1");
                p.put("vmax", "32");
                p.put("prefix", "63");
            }
            default -> throw new LineError("unknown generator '" + kind + "'");
        }
        p.put("vkind", "rand");
        for (int i = 4; i < t.size(); i++) {
            String param = t.get(i);
            int eq = param.indexOf('=');
            if (eq < 0 || !p.containsKey(param.substring(0, eq))) {
                throw new LineError("bad parameter '" + param + "' for gen " + kind);
            }
            p.put(param.substring(0, eq), param.substring(eq + 1));
        }
        long vmin = parseNum(p.get("vmin"));
        long vmax = parseNum(p.get("vmax"));
        if (Long.compareUnsigned(vmax, vmin) < 0) {
            throw new LineError("vmax < vmin");
        }
        String vkind = p.get("vkind");
        if (!vkind.equals("rand") && !vkind.equals("half")) {
            throw new LineError("vkind must be rand or half");
        }
        boolean half = vkind.equals("half");  // random first half, zero second half
        for (long i = 0; Long.compareUnsigned(i, count) < 0; i++) {
            byte[] key;
            byte[] value = new byte[0];
            Kind opKind = Kind.PUT;
            switch (kind) {
                case "seq" -> {
                    long n = parseNum(p.get("start")) + i * parseNum(p.get("step"));
                    key = concat(parseHex(p.get("prefix")), decimal(n, 12));
                    value = value(rng, vmin, vmax, half);
                }
                case "binary" -> {
                    long kmin = parseNum(p.get("kmin"));
                    long kmax = parseNum(p.get("kmax"));
                    if (Long.compareUnsigned(kmax, kmin) < 0) {
                        throw new LineError("kmax < kmin");
                    }
                    int klen = checkedLength(kmin + rng.uniform(kmax - kmin + 1));
                    key = new byte[klen];
                    for (int j = 0; j < klen; j++) {
                        long c = rng.uniform(4);
                        key[j] = c == 0 ? 0 : c == 1 ? (byte) 0xff : (byte) rng.uniform(256);
                    }
                    value = value(rng, vmin, vmax, half);
                }
                default -> {  // churn
                    key = concat(parseHex(p.get("prefix")), decimal(rng.uniform(parseNum(p.get("keys"))), 6));
                    long r = rng.uniform(100);
                    if (r < 30) {
                        opKind = Kind.DELETE;
                    } else if (r >= 40) {
                        value = value(rng, vmin, vmax, half);
                    }
                }
            }
            ops.add(new Op(opKind, key, value, null, line));
        }
    }

    private static byte[] value(SplitMix64 rng, long vmin, long vmax, boolean half) {
        int len = checkedLength(vmin + rng.uniform(vmax - vmin + 1));
        if (!half) {
            return rng.bytes(len);
        }
        byte[] r = new byte[len];
        byte[] random = rng.bytes(len / 2);
        System.arraycopy(random, 0, r, 0, random.length);
        return r;
    }

    /** The unsigned decimal number, zero-padded to at least {@code width} digits, in ASCII. */
    private static byte[] decimal(long n, int width) {
        String digits = Long.toUnsignedString(n);
        if (digits.length() < width) {
            digits = "0".repeat(width - digits.length()) + digits;
        }
        return digits.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** Lower-case hex, {@code -} for the empty string. */
    static String hex(byte[] b) {
        if (b.length == 0) {
            return "-";
        }
        StringBuilder sb = new StringBuilder(2 * b.length);
        for (byte x : b) {
            sb.append(Character.forDigit((x >> 4) & 15, 16)).append(Character.forDigit(x & 15, 16));
        }
        return sb.toString();
    }

    /** Hex shortened for messages: at most 32 bytes, then the length. */
    static String shortHex(byte[] b) {
        if (b.length <= 32) {
            return hex(b);
        }
        return hex(Arrays.copyOf(b, 32)) + "...(" + b.length + " bytes)";
    }

    /**
     * The canonical form: every option spelled out, generators and value tokens expanded into
     * plain steps with lower-case hex. Itself a valid recipe.
     *
     * @return the canonical text, one step per line, each ending with a newline
     */
    String expand() {
        StringBuilder sb = new StringBuilder();
        sb.append("option compression=").append(snappy ? "snappy" : "none").append('\n');
        sb.append("option comparator=").append(reverse ? "reverse" : "bytewise").append('\n');
        // C++ stores these in an int (block size, restart interval, bloom bits) or size_t.
        sb.append("option block_size=").append((int) blockSize).append('\n');
        sb.append("option restart_interval=").append((int) restartInterval).append('\n');
        sb.append("option bloom_bits=").append((int) bloomBits).append('\n');
        sb.append("option write_buffer_size=").append(Long.toUnsignedString(writeBufferSize)).append('\n');
        sb.append("option max_file_size=").append(Long.toUnsignedString(maxFileSize)).append('\n');
        for (Op op : ops) {
            sb.append(op.kind().canonical);
            if (op.kind() == Kind.PUT || op.kind() == Kind.DELETE) {
                sb.append(' ').append(hex(op.key()));
            }
            if (op.kind() == Kind.PUT) {
                sb.append(' ').append(hex(op.value()));
            }
            if (op.kind() == Kind.SNAPSHOT || op.kind() == Kind.VERIFY_SNAPSHOT) {
                sb.append(' ').append(op.name());
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
