package org.leveldbj.vlog;

/**
 * How a database that may hold separated values keeps other implementations out: its MANIFEST
 * names the comparator {@code "leveldbj.separated-values:"} followed by the user comparator's
 * name. C++ LevelDB, goleveldb and versions of this library without value files compare that
 * name with their comparator's and refuse to open the database ("... does not match existing
 * comparator ..."), instead of reading references as values.
 *
 * <p>Thread safety: stateless.
 */
public final class SeparatedFormat {
    /** What precedes the user comparator's name in a marked MANIFEST. */
    public static final String PREFIX = "leveldbj.separated-values:";

    private SeparatedFormat() {
    }

    /**
     * The comparator name a database with separated values records.
     *
     * @param userComparatorName the user comparator's own name
     * @return the marked name
     */
    public static String markedName(String userComparatorName) {
        return PREFIX + userComparatorName;
    }
}
