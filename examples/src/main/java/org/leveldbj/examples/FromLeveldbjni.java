package org.leveldbj.examples;

import static org.fusesource.leveldbjni.JniDBFactory.*;
import java.io.File;
import java.io.IOException;
import java.util.Map;
import org.fusesource.leveldbjni.internal.JniDB;
import org.fusesource.leveldbjni.internal.NativeDB;
import org.iq80.leveldb.*;

/**
 * Code written for leveldbjni 1.8, as applications such as Spark and Hadoop YARN wrote it
 * ({@code JniDBFactory.factory}, the cast to {@code JniDB}, {@code NativeDB.DBException} and its
 * {@code isNotFound()}), running unchanged on {@code leveldbjni-compat}: the same classes, on the
 * pure-Java engine. See doc/migrating.md.
 *
 * <p>Run: {@code FromLeveldbjni [directory]}; without a directory it works in a temporary one.
 */
public final class FromLeveldbjni {
    private FromLeveldbjni() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, FromLeveldbjni::run);
    }

    static void run(File dir) throws IOException {
        System.out.println(factory);  // leveldbjni version 1.8 (leveldbjni-compat on leveldbj)
        Options options = new Options();
        options.createIfMissing(true);
        options.cacheSize(8 * 1048576);
        DB db = factory.open(new File(dir, "jni-db"), options);
        try {
            db.put(bytes("Tampa"), bytes("green"));
            db.put(bytes("London"), bytes("red"));
            WriteBatch batch = db.createWriteBatch();
            try {
                batch.delete(bytes("Denver"));
                batch.put(bytes("Tampa"), bytes("blue"));
                db.write(batch);
            } finally {
                batch.close();
            }
            DBIterator iterator = db.iterator();
            try {
                for (iterator.seekToFirst(); iterator.hasNext(); iterator.next()) {
                    Map.Entry<byte[], byte[]> entry = iterator.peekNext();
                    System.out.println(asString(entry.getKey()) + " = " + asString(entry.getValue()));
                }
            } finally {
                iterator.close();
            }
            System.out.println("a JniDB: " + (db instanceof JniDB));          // true
            ((JniDB) db).compactRange(null, null);
        } finally {
            db.close();
        }

        // Spark's LevelDBProvider and YARN's state stores tell a missing database like this:
        try {
            factory.open(new File(dir, "missing-db"), new Options().createIfMissing(false)).close();
        } catch (NativeDB.DBException e) {
            System.out.println("not found: " + (e.isNotFound() || e.getMessage().contains(" does not exist ")));
        }
    }
}
