package org.leveldbj.stats;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * {@code org.leveldbj.TableEviction}: a table file leaving the table cache (it is closed once the
 * last reader lets go of it).
 */
@Name("org.leveldbj.TableEviction")
@Label("Table Eviction")
@Category("LevelDB")
@Description("A table file dropped from the table cache")
public final class TableEvictionEvent extends DatabaseEvent {
    /** The cache was full: the least recently used table went. */
    public static final String CAPACITY = "capacity";
    /** The file was deleted (a compaction replaced it). */
    public static final String OBSOLETE = "obsolete";
    /** The database closed. */
    public static final String CLOSE = "close";

    @Label("File Number")
    long fileNumber;

    @Label("Size")
    @DataAmount
    long size;

    @Label("Reason")
    @Description("capacity, obsolete or close")
    String reason;

    private TableEvictionEvent() {
    }

    /**
     * Records an eviction if the event is enabled.
     *
     * @param dir the database directory
     * @param number the table's file number
     * @param bytes the file's size (0 when it was never opened)
     * @param why {@link #CAPACITY}, {@link #OBSOLETE} or {@link #CLOSE}
     */
    public static void emit(String dir, long number, long bytes, String why) {
        TableEvictionEvent e = new TableEvictionEvent();
        if (e.shouldCommit()) {
            e.directory = dir;
            e.fileNumber = number;
            e.size = bytes;
            e.reason = why;
            e.commit();
        }
    }
}
