package org.leveldbj.cli;

import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import org.leveldbj.util.Bytes;

/**
 * How {@code scan} (and {@code get}) print keys and values, one entry per line.
 *
 * <ul>
 *   <li>{@code text}: {@code key<TAB>value}, each escaped: printable ASCII (0x20 to 0x7e) stands
 *       for itself except the backslash; every other byte, the backslash, tab and newline
 *       included, is written {@code \xNN} (two lowercase hex digits). So a line holds no tab
 *       but the separator, and the escaping can be undone unambiguously.
 *   <li>{@code hex}: {@code key<TAB>value} in lowercase hex.
 *   <li>{@code base64}: {@code key<TAB>value} in base64 (RFC 4648, padded).
 *   <li>{@code json}: {@code {"key":"…","value":"…"}} with base64 strings: the lines
 *       {@code export} writes and {@code import} reads.
 * </ul>
 * With {@code --keys-only} the tab and the value are left out ({@code {"key":"…"}} in JSON).
 *
 * <p>Thread safety: stateless.
 */
enum OutputFormat {
    TEXT, HEX, BASE64, JSON;

    /**
     * Renders one entry.
     *
     * @param key the key
     * @param value the value, or {@code null} for the key alone
     * @return the line, without its line terminator
     */
    String line(byte[] key, byte[] value) {
        if (this == JSON) {
            StringBuilder sb = new StringBuilder("{\"key\":\"").append(base64(key)).append('"');
            if (value != null) {
                sb.append(",\"value\":\"").append(base64(value)).append('"');
            }
            return sb.append('}').toString();
        }
        return value == null ? render(key) : render(key) + "\t" + render(value);
    }

    /**
     * Renders one byte string in this format (base64 for JSON).
     *
     * @param bytes the bytes
     * @return the rendering
     */
    String render(byte[] bytes) {
        switch (this) {
            case TEXT:
                return Bytes.escape(bytes);
            case HEX:
                return HexFormat.of().formatHex(bytes);
            default:
                return base64(bytes);
        }
    }

    static String base64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** Lower case, as the options are written. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
