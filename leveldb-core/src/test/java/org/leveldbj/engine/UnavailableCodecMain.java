package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBOpenException;
import org.iq80.leveldb.Options;

/**
 * Run in a child JVM whose {@code leveldbj.codec} property rules out every snappy
 * implementation: opens a database asking for snappy, then one asking for no compression, and
 * prints what happened to each, one line each.
 */
final class UnavailableCodecMain {
    private UnavailableCodecMain() {
    }

    public static void main(String[] args) throws Exception {
        for (CompressionType type : new CompressionType[] {CompressionType.SNAPPY, CompressionType.NONE}) {
            File dir = new File(args[0], type.name());
            try (DB db = LevelDbFactory.factory.open(dir, new Options().compressionType(type))) {
                db.put(new byte[] {1}, new byte[100]);
                db.compactRange(null, null);
                System.out.println(type + ": opened and wrote");
            } catch (DBOpenException e) {
                System.out.println(type + ": " + e.getMessage());
            }
        }
    }
}
