package org.leveldbj.cli;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A key or value given on the command line: {@code 0x} followed by hex digits (an even number,
 * upper or lower case; {@code 0x} alone is the empty string) stands for those bytes, anything
 * else for its UTF-8 encoding. A text that itself starts with {@code 0x} is given in hex.
 *
 * <p>Thread safety: immutable (the array is not copied; callers do not modify it).
 *
 * @param bytes the bytes
 */
record ByteArg(byte[] bytes) {
    /** Where the syntax is explained to users, in every option's description. */
    static final String SYNTAX = "text, or 0x followed by hex digits";

    /**
     * Parses an argument.
     *
     * @param text the argument as typed
     * @return its bytes
     * @throws IllegalArgumentException if it starts with {@code 0x} and is not valid hex
     */
    static byte[] parse(String text) {
        if (text.startsWith("0x") || text.startsWith("0X")) {
            String digits = text.substring(2);
            if (digits.length() % 2 != 0) {
                throw new IllegalArgumentException("'" + text + "': an odd number of hex digits after 0x");
            }
            try {
                return HexFormat.of().parseHex(digits);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("'" + text + "': not a hex string after 0x", e);
            }
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Picocli's converter for options and parameters of type {@link ByteArg}. */
    static final class Converter implements ITypeConverter<ByteArg> {
        @Override
        public ByteArg convert(String value) {
            try {
                return new ByteArg(parse(value));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
