package org.leveldbj.stress;

import java.io.IOException;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.env.FileSystemEnv;

/**
 * The repair process the driver starts: repairs {@code DIR/db} on a {@link KillPointEnv} armed
 * for {@link KillPoint#REPAIR}, which halts it at the chosen file change. When the repair ends
 * first, it prints {@code repair file changes: N} (the events it saw) so that the driver can aim
 * the next time. A {@link Watchdog} reports a deadlock (and halts with its status); the driver
 * bounds the repair's time.
 */
public final class RepairMain {
    private RepairMain() {
    }

    /**
     * Runs the repair.
     *
     * @param args the flags of {@link Config}, as the driver passes them
     * @throws IOException if the repair fails
     */
    public static void main(String[] args) throws IOException {
        Config c = Config.parse(args);
        new Watchdog(null, Watchdog.halting(System.err)).start();
        KillPointEnv env = new KillPointEnv(FileSystemEnv.getDefault(), c.arm, c.armAfter, true);
        LevelDbFactory.factory.repair(c.db.resolve("db").toFile(), c.options(env));
        System.out.println("repair file changes: " + env.seen(c.armAfter));
        System.out.flush();
    }
}
