package org.leveldbj.stats;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code org.leveldbj.TableOpen}: a table file opened into the table cache (its index and filter read). */
@Name("org.leveldbj.TableOpen")
@Label("Table Open")
@Category("LevelDB")
@Description("A table file opened into the table cache")
public final class TableOpenEvent extends DatabaseEvent {
    @Label("File Number")
    long fileNumber;

    @Label("Size")
    @DataAmount
    long size;

    private TableOpenEvent() {
    }

    /**
     * Starts timing an open.
     *
     * @return the event, begun
     */
    public static TableOpenEvent start() {
        TableOpenEvent e = new TableOpenEvent();
        e.begin();
        return e;
    }

    /**
     * Ends the open and records it if the event is enabled.
     *
     * @param dir the database directory
     * @param number the table's file number
     * @param bytes the file's size
     */
    public void finish(String dir, long number, long bytes) {
        end();
        if (shouldCommit()) {
            directory = dir;
            fileNumber = number;
            size = bytes;
            commit();
        }
    }
}
