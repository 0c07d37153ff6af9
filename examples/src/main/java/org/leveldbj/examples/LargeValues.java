package org.leveldbj.examples;

import static org.leveldbj.db.LevelDbFactory.*;
import java.io.File;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.iq80.leveldb.*;

/**
 * Value separation ({@code Options.valueThreshold}, an extension): values of at least the
 * threshold go to append-only value files ({@code NNNNNN.vlog}), written once, and the tables
 * hold a small reference instead; reads follow the reference. doc/large-values.md's example
 * is this code.
 *
 * <p>Run: {@code LargeValues [directory]}; without a directory it works in a temporary one.
 */
public final class LargeValues {
    private LargeValues() {
    }

    /**
     * Runs the example.
     *
     * @param args nothing, or the directory to work in
     */
    public static void main(String[] args) throws Exception {
        ExampleDirectory.run(args, LargeValues::run);
    }

    static void run(File dir) throws IOException {
        byte[] largeDocument = new byte[100 * 1024];
        new Random(42).nextBytes(largeDocument);

        Options options = new Options().valueThreshold(64 * 1024);   // values of 64 KiB and more
        try (DB db = factory.open(new File(dir, "blobs"), options)) {
            db.put(bytes("doc:1"), largeDocument);                      // one append to a value file
            db.put(bytes("doc:2"), bytes("a small one"));               // stays in the tables
            byte[] back = db.get(bytes("doc:1"));                       // one more read than inline
            System.out.println(back.length + " bytes, the same: " + Arrays.equals(back, largeDocument));
            System.out.println("values separated: " + db.getProperty("leveldbj.num-separated-values"));
        }

        File[] valueFiles = new File(dir, "blobs").listFiles((d, name) -> name.endsWith(".vlog"));
        System.out.println("value files: " + valueFiles.length);                                 // 1
        System.out.println("holding the document: " + (valueFiles[0].length() > largeDocument.length));
        try (DB db = factory.open(new File(dir, "blobs"), new Options())) {  // no threshold needed to read
            System.out.println("reopened: " + Arrays.equals(db.get(bytes("doc:1")), largeDocument)
                    + ", " + asString(db.get(bytes("doc:2"))));
        }
    }
}
