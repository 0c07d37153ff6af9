package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.leveldbj.db.LevelDbFactory.bytes;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.io.IOException;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.leveldbj.testing.FaultInjectionEnv;

/** A failed log append is reported once, naming the log file once, and makes later writes fail. */
class LogWriteFailureTest {
    @Test
    void aFailedLogAppendNamesTheFileOnceAndIsSticky() throws IOException {
        FaultInjectionEnv env = new FaultInjectionEnv();
        try (DB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env))) {
            db.put(bytes("a"), bytes("1"));
            env.fail(FaultInjectionEnv.Op.APPEND, 1);
            DBException e = assertThrows(DBException.class, () -> db.put(bytes("b"), bytes("2")));
            String log = "/db/" + DbTestSupport.named(env, java.nio.file.Path.of("/db"), ".log").get(0);
            assertTrue(e.getMessage().startsWith("IO error: "), e.getMessage());
            assertEquals(1, e.getMessage().split(log, -1).length - 1, "the log is named once: " + e.getMessage());
            DBException later = assertThrows(DBException.class, () -> db.put(bytes("c"), bytes("3")));
            assertSame(e, later.getCause());
        }
    }
}
