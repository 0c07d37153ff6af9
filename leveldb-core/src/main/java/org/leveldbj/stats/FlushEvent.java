package org.leveldbj.stats;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code org.leveldbj.MemTableFlush}: a memtable written to a table (also while recovering logs). */
@Name("org.leveldbj.MemTableFlush")
@Label("MemTable Flush")
@Category("LevelDB")
@Description("A memtable written to a table file")
public final class FlushEvent extends DatabaseEvent {
    @Label("Table Number")
    long tableNumber;

    @Label("Bytes")
    @DataAmount
    long bytes;

    @Label("Level")
    int level;

    private FlushEvent() {
    }

    /**
     * Starts timing a flush.
     *
     * @return the event, begun
     */
    public static FlushEvent start() {
        FlushEvent e = new FlushEvent();
        e.begin();
        return e;
    }

    /**
     * Ends the flush and records it if the event is enabled.
     *
     * @param dir the database directory
     * @param table the table's file number
     * @param size the table's size in bytes
     * @param outputLevel the level the table went to
     */
    public void finish(String dir, long table, long size, int outputLevel) {
        end();
        if (shouldCommit()) {
            directory = dir;
            tableNumber = table;
            bytes = size;
            level = outputLevel;
            commit();
        }
    }
}
