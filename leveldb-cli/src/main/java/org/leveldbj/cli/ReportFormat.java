package org.leveldbj.cli;

import java.util.Locale;

/**
 * How a command other than {@code scan} and {@code get} prints what it found: readable text, or
 * JSON. A command that prints one result prints one JSON object; a command that prints several
 * things prints one object per line (JSON lines), each with a {@code "kind"} member naming what
 * it is when the lines are of several kinds. Byte strings (keys, values) are base64; counts and
 * sizes are numbers.
 *
 * <p>Thread safety: constants only.
 */
enum ReportFormat {
    TEXT, JSON;

    /** Lower case, as the option is written. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
