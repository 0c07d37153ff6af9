package org.leveldbj.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Options;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.leveldbj.db.LevelDbFactory;

/**
 * Every property {@code DB.getProperty} answers is listed in its javadoc, where users look, and
 * every name listed there is answered.
 */
class PropertiesDocumentedTest {
    private static final Path API = Path.of("..", "leveldb-api", "src", "main", "java", "org", "iq80", "leveldb", "DB.java");
    private static final Path ENGINE = Path.of("src", "main", "java", "org", "leveldbj", "engine", "DbProperties.java");

    @Test
    void theJavadocListsExactlyTheNamesTheEngineAnswers(@TempDir Path tmp) throws IOException {
        Set<String> documented = names(Files.readString(API), "\\{@code (leveldbj?\\.[a-z-]+)(?:<N>)?\\}");
        documented.remove("leveldbj.*");
        Set<String> answered = new TreeSet<>();
        String source = Files.readString(ENGINE);
        // The engine's own names are the cases of own(...), declared after C++ LevelDB's.
        int ownStart = source.indexOf(" own(DbState");
        String cpp = source.substring(0, ownStart);
        String own = source.substring(ownStart);
        for (String name : names(cpp, "case \"([a-z-]+)\"")) {
            answered.add("leveldb." + name);
        }
        for (String name : names(own, "case \"([a-z-]+)\"")) {
            answered.add("leveldbj." + name);
        }
        answered.add("leveldb.num-files-at-level");
        assertEquals(answered, documented);
        try (DB db = LevelDbFactory.factory.open(tmp.resolve("db").toFile(), new Options())) {
            for (String name : documented) {
                String asked = name.equals("leveldb.num-files-at-level") ? name + "0" : name;
                assertNotNull(db.getProperty(asked), asked);
            }
        }
    }

    private static Set<String> names(String text, String regex) {
        Set<String> names = new TreeSet<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }
}
