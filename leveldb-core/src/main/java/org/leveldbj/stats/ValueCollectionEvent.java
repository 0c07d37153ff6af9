package org.leveldbj.stats;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * {@code org.leveldbj.ValueFileCollection}: a pass of the value collector, which rewrites the
 * tables so that value files with enough garbage can be deleted.
 */
@Name("org.leveldbj.ValueFileCollection")
@Label("Value File Collection")
@Category("LevelDB")
@Description("A pass reclaiming the garbage of value files")
public final class ValueCollectionEvent extends DatabaseEvent {
    @Label("Files Reclaimed")
    int files;

    @Label("Bytes Reclaimed")
    @DataAmount
    long bytesReclaimed;

    private ValueCollectionEvent() {
    }

    /**
     * Starts timing a pass.
     *
     * @return the event, begun
     */
    public static ValueCollectionEvent start() {
        ValueCollectionEvent e = new ValueCollectionEvent();
        e.begin();
        return e;
    }

    /**
     * Ends the pass and records it if the event is enabled.
     *
     * @param dir the database directory
     * @param reclaimed value files the pass freed
     * @param bytes their size
     */
    public void finish(String dir, int reclaimed, long bytes) {
        end();
        if (shouldCommit()) {
            directory = dir;
            files = reclaimed;
            bytesReclaimed = bytes;
            commit();
        }
    }
}
