package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.File;
import org.iq80.leveldb.BackgroundPool;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBOpenException;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.leveldbj.db.LevelDbFactory;
import org.leveldbj.testing.MemEnv;

/** {@code Options.backgroundPool}: a closed pool, or one of another implementation, fails the open clearly. */
class BackgroundPoolOptionTest {
    @Test
    void openingWithAClosedPoolFailsAndTheDatabaseCanOpenWithAnother() throws Exception {
        MemEnv env = new MemEnv();
        BackgroundPool pool = LevelDbFactory.newBackgroundPool(1);
        try (DB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env).backgroundPool(pool))) {
            db.put(new byte[] {0}, new byte[] {0});
            assertEquals(1, pool.databases());
        }
        assertEquals(0, pool.databases());
        pool.close();
        DBOpenException e = assertThrows(DBOpenException.class,
                () -> LevelDbFactory.factory.open(new File("/db"), new Options().env(env).backgroundPool(pool)));
        assertEquals("Invalid argument: the background pool is closed", e.getMessage());
        try (DB db = LevelDbFactory.factory.open(new File("/db"), new Options().env(env))) {
            db.put(new byte[] {1}, new byte[] {2}); // the failed open left the database as it was
        }
    }

    @Test
    void aPoolNotMadeByTheFactoryIsRefused() {
        BackgroundPool foreign = new BackgroundPool() {
            @Override
            public int threads() {
                return 1;
            }

            @Override
            public int databases() {
                return 0;
            }

            @Override
            public void close() {
            }
        };
        DBOpenException e = assertThrows(DBOpenException.class, () -> LevelDbFactory.factory.open(new File("/db"),
                new Options().env(new MemEnv()).backgroundPool(foreign)));
        assertEquals("Invalid argument: background pool " + foreign.getClass().getName()
                + " was not made by LevelDbFactory.newBackgroundPool", e.getMessage());
    }
}
