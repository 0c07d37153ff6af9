package org.leveldbj.compat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBFactory;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.impl.Iq80DBFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs beside iq80 leveldb's NativeInteropTest (the surefire execution
 * {@code iq80-tests-with-leveldbjni}) and proves its class path: {@code JniDBFactory} is the real
 * leveldbjni 1.8, whose native library loads and opens a database, while the
 * {@code org.iq80.leveldb} API and {@code Iq80DBFactory} are ours. NativeInteropTest falls back
 * to iq80's factory on both sides when leveldbjni does not load, and would then pass without
 * testing anything.
 */
class LeveldbjniOnClassPathTest {
    @TempDir
    Path tmp;

    private static String jarOf(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation().getPath();
    }

    @Test
    void jniDBFactoryIsTheRealLeveldbjni() throws Exception {
        Class<?> jni = Class.forName("org.fusesource.leveldbjni.JniDBFactory");
        assertTrue(jarOf(jni).endsWith("leveldbjni-all-1.8.jar"), jarOf(jni));
        assertTrue(jarOf(Options.class).contains("leveldb-api"), "the API is ours: " + jarOf(Options.class));
        assertTrue(jarOf(Iq80DBFactory.class).contains("iq80-compat"), jarOf(Iq80DBFactory.class));

        DBFactory factory = (DBFactory) jni.getField("factory").get(null);
        File dir = tmp.resolve("db").toFile();
        byte[] key = "key".getBytes(StandardCharsets.UTF_8);
        try (DB db = factory.open(dir, new Options().createIfMissing(true))) {
            assertEquals("org.fusesource.leveldbjni.internal.JniDB", db.getClass().getName());
            assertTrue(jarOf(db.getClass()).endsWith("leveldbjni-all-1.8.jar"), jarOf(db.getClass()));
            db.put(key, key);
        }
        try (DB db = Iq80DBFactory.factory.open(dir, new Options())) {
            assertArrayEquals(key, db.get(key));
        }
    }
}
