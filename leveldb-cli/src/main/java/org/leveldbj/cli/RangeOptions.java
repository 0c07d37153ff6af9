package org.leveldbj.cli;

import picocli.CommandLine.Option;

/**
 * The key range options of {@code scan}, {@code count} and {@code export}: {@code --from}
 * (inclusive), {@code --to} (exclusive) and {@code --prefix}; together they select the keys
 * that satisfy all of them.
 *
 * <p>Thread safety: set by the parser, read by the command's thread.
 */
final class RangeOptions {
    @Option(names = "--from", paramLabel = "KEY", converter = ByteArg.Converter.class,
            description = "Start at this key, inclusive (" + ByteArg.SYNTAX + ").")
    ByteArg from;

    @Option(names = "--to", paramLabel = "KEY", converter = ByteArg.Converter.class,
            description = "Stop before this key: exclusive (" + ByteArg.SYNTAX + ").")
    ByteArg to;

    @Option(names = "--prefix", paramLabel = "PREFIX", converter = ByteArg.Converter.class,
            description = "Only keys that start with these bytes (" + ByteArg.SYNTAX + ").")
    ByteArg prefix;

    /** @return the range the options select */
    KeyRange range() {
        return KeyRange.of(from == null ? null : from.bytes(), to == null ? null : to.bytes(),
                prefix == null ? null : prefix.bytes());
    }
}
