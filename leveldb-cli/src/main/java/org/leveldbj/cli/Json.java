package org.leveldbj.cli;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Just enough JSON for one-object-per-line output and input: an object writer with string,
 * number, boolean and array (of strings or numbers) members, and a parser of flat objects
 * (members whose values are strings, numbers, booleans or null; nested objects and arrays are
 * refused).
 *
 * <p>Thread safety: a {@link JsonObject} is confined to one thread; the parser is stateless.
 */
final class Json {
    private Json() {
    }

    /** Starts an object; members are appended in order. */
    static JsonObject object() {
        return new JsonObject();
    }

    /** Builds one JSON object; {@link #toString()} gives the text. */
    static final class JsonObject {
        private final StringBuilder sb = new StringBuilder("{");

        private JsonObject name(String name) {
            if (sb.length() > 1) {
                sb.append(',');
            }
            quote(sb, name);
            sb.append(':');
            return this;
        }

        /** Adds a string member. */
        JsonObject add(String name, String value) {
            name(name);
            if (value == null) {
                sb.append("null");
            } else {
                quote(sb, value);
            }
            return this;
        }

        /** Adds a number member. */
        JsonObject add(String name, long value) {
            name(name).sb.append(value);
            return this;
        }

        /** Adds a boolean member. */
        JsonObject add(String name, boolean value) {
            name(name).sb.append(value);
            return this;
        }

        /**
         * Adds an array member.
         *
         * @param name the member's name
         * @param values its elements: numbers are written as numbers, anything else as strings
         * @return this
         */
        JsonObject array(String name, Iterable<?> values) {
            name(name).sb.append('[');
            boolean first = true;
            for (Object value : values) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                if (value instanceof Long || value instanceof Integer) {
                    sb.append(value);
                } else {
                    quote(sb, String.valueOf(value));
                }
            }
            sb.append(']');
            return this;
        }

        /** Adds a byte-string member as base64. */
        JsonObject bytes(String name, byte[] value) {
            return add(name, OutputFormat.base64(value));
        }

        @Override
        public String toString() {
            return sb + "}";
        }
    }

    /** Appends a JSON string literal. */
    static void quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        sb.append('"');
    }

    /**
     * Parses a flat JSON object.
     *
     * @param text the text of one object
     * @return its members in order: {@link String}, {@link Double} or {@link Long},
     *     {@link Boolean}, or {@code null}
     * @throws IllegalArgumentException naming the column of the first error
     */
    static Map<String, Object> parseObject(String text) {
        Parser p = new Parser(text);
        Map<String, Object> out = new LinkedHashMap<>();
        p.skipSpace();
        p.expect('{');
        p.skipSpace();
        if (p.peek() == '}') {
            p.pos++;
        } else {
            while (true) {
                p.skipSpace();
                String name = p.string();
                p.skipSpace();
                p.expect(':');
                p.skipSpace();
                out.put(name, p.value());
                p.skipSpace();
                char c = p.next();
                if (c == '}') {
                    break;
                }
                if (c != ',') {
                    throw p.error("expected ',' or '}'");
                }
            }
        }
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("unexpected text after the object");
        }
        return out;
    }

    private static final class Parser {
        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException(what + " at column " + (pos + 1));
        }

        char peek() {
            if (pos >= text.length()) {
                throw error("unexpected end of line");
            }
            return text.charAt(pos);
        }

        char next() {
            char c = peek();
            pos++;
            return c;
        }

        void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        void skipSpace() {
            while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
        }

        Object value() {
            char c = peek();
            if (c == '"') {
                return string();
            }
            if (c == '{' || c == '[') {
                throw error("nested objects and arrays are not supported");
            }
            for (String word : new String[] {"true", "false", "null"}) {
                if (text.startsWith(word, pos)) {
                    pos += word.length();
                    return word.equals("null") ? null : Boolean.valueOf(word);
                }
            }
            int start = pos;
            while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
                pos++;
            }
            String number = text.substring(start, pos);
            try {
                return number.matches("-?\\d+") ? (Object) Long.valueOf(number) : (Object) Double.valueOf(number);
            } catch (NumberFormatException e) {
                pos = start;
                throw error("expected a value");
            }
        }

        String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case '"':
                    case '\\':
                    case '/':
                        sb.append(e);
                        break;
                    case 'b':
                        sb.append('\b');
                        break;
                    case 'f':
                        sb.append('\f');
                        break;
                    case 'n':
                        sb.append('\n');
                        break;
                    case 'r':
                        sb.append('\r');
                        break;
                    case 't':
                        sb.append('\t');
                        break;
                    case 'u':
                        if (pos + 4 > text.length()) {
                            throw error("bad \\u escape");
                        }
                        try {
                            sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw error("bad \\u escape");
                        }
                        pos += 4;
                        break;
                    default:
                        throw error("bad escape \\" + e);
                }
            }
        }
    }
}
