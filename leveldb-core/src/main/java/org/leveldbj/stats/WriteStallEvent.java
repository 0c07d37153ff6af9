package org.leveldbj.stats;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code org.leveldbj.WriteStall}: a write held back until the database makes room for it. */
@Name("org.leveldbj.WriteStall")
@Label("Write Stall")
@Category("LevelDB")
@Description("A write delayed or stopped until the database made room for it")
public final class WriteStallEvent extends DatabaseEvent {
    @Label("Cause")
    @Description("level0-slowdown, level0-stop or memtable")
    String cause;

    private WriteStallEvent() {
    }

    /**
     * Starts timing a stall.
     *
     * @return the event, begun
     */
    public static WriteStallEvent start() {
        WriteStallEvent e = new WriteStallEvent();
        e.begin();
        return e;
    }

    /**
     * Ends the stall and records it if the event is enabled.
     *
     * @param dir the database directory
     * @param why the cause
     */
    public void finish(String dir, StallCause why) {
        end();
        if (shouldCommit()) {
            directory = dir;
            cause = why.label();
            commit();
        }
    }
}
