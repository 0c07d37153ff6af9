package org.leveldbj.engine;

import org.leveldbj.db.LevelDbFactory;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteBatch;

/**
 * A child process for {@link ProcessCrashTest}: opens the database named by its first argument,
 * writes keys {@code from} to {@code to - 1} (its other arguments) without sync, every tenth
 * write as a two-entry batch, prints {@code written} and halts the JVM without closing anything,
 * as a killed process would.
 */
public final class KilledWriterMain {
    private KilledWriterMain() {
    }

    /**
     * Runs the child.
     *
     * @param args the database directory, the first key number and the key number to stop at
     * @throws IOException if the database cannot be opened
     */
    public static void main(String[] args) throws IOException {
        int from = Integer.parseInt(args[1]);
        int to = Integer.parseInt(args[2]);
        DB db = LevelDbFactory.factory.open(new File(args[0]), new Options().writeBufferSize(256 << 10));
        for (int i = from; i < to; i++) {
            if (i % 10 == 0 && i + 1 < to) {
                try (WriteBatch batch = db.createWriteBatch()) {
                    batch.put(key(i), value(i));
                    batch.put(key(i + 1), value(i + 1));
                    db.write(batch);
                }
                i++;
            } else {
                db.put(key(i), value(i));
            }
        }
        System.out.println("written");
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int i) {
        return ("value " + i + " ").repeat(1 + i % 7).getBytes(StandardCharsets.UTF_8);
    }
}
