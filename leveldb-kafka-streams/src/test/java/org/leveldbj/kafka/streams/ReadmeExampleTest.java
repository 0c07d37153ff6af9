package org.leveldbj.kafka.streams;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.ToolProvider;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Kafka Streams page's example compiles as written and builds a topology on a leveldbj store. */
class ReadmeExampleTest {
    @Test
    void theKafkaStreamsExampleCompilesAndUsesALeveldbjStore(@TempDir Path tmp) throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("user.dir")).resolve("../doc/kafka-streams.md").normalize());
        Matcher m = Pattern.compile("(?m)^# Kafka Streams state stores\\n.*?```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
        assertTrue(m.find(), "doc/kafka-streams.md has a java block under '# Kafka Streams state stores'");
        List<String> imports = new ArrayList<>();
        StringBuilder body = new StringBuilder();
        for (String line : m.group(1).split("\n")) {
            if (line.startsWith("import ")) {
                imports.add(line);
            } else {
                body.append("        ").append(line).append('\n');
            }
        }
        String source = String.join("\n", imports) + "\n\npublic class KafkaReadmeExample {\n"
                + "    public static org.apache.kafka.streams.StreamsBuilder example() {\n" + body
                + "        return builder;\n    }\n}\n";
        Path src = tmp.resolve("KafkaReadmeExample.java");
        Files.writeString(src, source);
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, diagnostics,
                "-classpath", System.getProperty("java.class.path"), "-d", tmp.toString(), src.toString());
        assertEquals(0, rc, "the README example must compile:\n" + diagnostics + "\n" + source);
        try (URLClassLoader loader = new URLClassLoader(new URL[] {tmp.toUri().toURL()}, getClass().getClassLoader())) {
            StreamsBuilder builder = (StreamsBuilder) loader.loadClass("KafkaReadmeExample").getMethod("example").invoke(null);
            Properties config = new Properties();
            config.put(StreamsConfig.APPLICATION_ID_CONFIG, "readme");
            config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
            config.put(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
            config.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
            config.put(StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.StringSerde.class);
            try (TopologyTestDriver driver = new TopologyTestDriver(builder.build(), config)) {
                driver.createInputTopic("lines", new StringSerializer(), new StringSerializer()).pipeInput("k", "a b a");
                assertEquals(2L, driver.<String, Long>getTimestampedKeyValueStore("counts").get("a").value());
                try (var files = Files.walk(tmp.resolve("state"))) {
                    assertTrue(files.anyMatch(f -> f.endsWith(Path.of(LeveldbKeyValueStore.PARENT_DIR, "counts", "CURRENT"))),
                            "the counts are in a leveldbj database");
                }
            }
        }
    }
}
