package org.leveldbj.stats;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * {@code org.leveldbj.BackgroundError}: the first failure of a log write or of background work,
 * after which every write fails and background work stops.
 */
@Name("org.leveldbj.BackgroundError")
@Label("Background Error")
@Category("LevelDB")
@Description("The failure that stopped writes and background work")
@StackTrace(true)
public final class BackgroundErrorEvent extends DatabaseEvent {
    @Label("Message")
    String message;

    @Label("Type")
    @Description("The class of the exception")
    String type;

    private BackgroundErrorEvent() {
    }

    /**
     * Records an error if the event is enabled.
     *
     * @param dir the database directory
     * @param error the failure
     */
    public static void emit(String dir, Throwable error) {
        BackgroundErrorEvent e = new BackgroundErrorEvent();
        if (e.shouldCommit()) {
            e.directory = dir;
            e.message = String.valueOf(error.getMessage());
            e.type = error.getClass().getName();
            e.commit();
        }
    }
}
