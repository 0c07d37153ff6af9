package org.leveldbj.stats;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/** {@code org.leveldbj.Recovery}: an open loading the MANIFEST and replaying the live logs. */
@Name("org.leveldbj.Recovery")
@Label("Recovery")
@Category("LevelDB")
@Description("A database opening: the MANIFEST loaded and the live logs replayed")
public final class RecoveryEvent extends DatabaseEvent {
    @Label("Logs Replayed")
    int logs;

    @Label("Entries Replayed")
    long entries;

    private RecoveryEvent() {
    }

    /**
     * Starts timing a recovery.
     *
     * @return the event, begun
     */
    public static RecoveryEvent start() {
        RecoveryEvent e = new RecoveryEvent();
        e.begin();
        return e;
    }

    /**
     * Ends the recovery and records it if the event is enabled.
     *
     * @param dir the database directory
     * @param logsReplayed logs replayed
     * @param entriesReplayed puts and deletes replayed from them
     */
    public void finish(String dir, int logsReplayed, long entriesReplayed) {
        end();
        if (shouldCommit()) {
            directory = dir;
            logs = logsReplayed;
            entries = entriesReplayed;
            commit();
        }
    }
}
