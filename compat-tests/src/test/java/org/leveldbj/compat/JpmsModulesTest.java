package org.leveldbj.compat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.InaccessibleObjectException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library jars as Java modules: the API module exports {@code org.iq80.leveldb}, the engine
 * exports only its factory's package and the backup engine's, and an application module that
 * reads them opens, writes and reads a database while the engine's other packages stay closed to
 * it.
 */
class JpmsModulesTest {
    private static final Path BUNDLES = Path.of(System.getProperty("compat.target", "target"), "bundles");

    @TempDir
    Path tmp;

    private static Path[] jars(String... prefixes) throws IOException {
        try (Stream<Path> all = Files.list(BUNDLES)) {
            List<Path> found = all.filter(p -> Stream.of(prefixes).anyMatch(pre -> p.getFileName().toString().startsWith(pre + "-")))
                    .collect(Collectors.toList());
            assertEquals(prefixes.length, found.size(), "jars " + List.of(prefixes) + " in " + BUNDLES.toAbsolutePath() + ": " + found);
            return found.toArray(new Path[0]);
        }
    }

    private static ModuleDescriptor descriptor(ModuleLayer layer, String name) {
        return layer.findModule(name).orElseThrow(() -> new AssertionError("no module " + name)).getDescriptor();
    }

    private static ModuleLayer layer() throws IOException {
        ModuleFinder finder = ModuleFinder.of(jars("leveldb-api", "leveldb-core"));
        Configuration cf = ModuleLayer.boot().configuration().resolve(finder, ModuleFinder.of(), Set.of("org.leveldbj.core"));
        return ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
    }

    @Test
    void theJarsAreNamedModulesExportingTheApiTheFactoryBackupsAndTtlOnly() throws IOException {
        ModuleLayer layer = layer();
        ModuleDescriptor api = descriptor(layer, "org.iq80.leveldb");
        ModuleDescriptor core = descriptor(layer, "org.leveldbj.core");
        assertFalse(api.isAutomatic() || core.isAutomatic(), "real module descriptors, not automatic modules");
        assertFalse(core.isOpen(), "the engine's packages are closed to reflection too");
        assertEquals(Set.of("org.iq80.leveldb"), exported(api));
        assertEquals(Set.of("org.leveldbj.db", "org.leveldbj.backup", "org.leveldbj.ttl"), exported(core));
        assertTrue(core.packages().contains("org.leveldbj.version"), "the engine's other packages are in the module");
        Set<String> required = core.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet());
        assertTrue(required.containsAll(Set.of("org.iq80.leveldb", "com.github.luben.zstd_jni", "snappy.java")), required.toString());
        assertFalse(required.contains("org.slf4j"), "the engine logs through System.Logger: " + required);
        ModuleDescriptor.Requires zstd = core.requires().stream().filter(r -> r.name().equals("com.github.luben.zstd_jni")).findFirst().orElseThrow();
        assertTrue(zstd.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC), "native codecs are optional");
    }

    private static Set<String> exported(ModuleDescriptor d) {
        return d.exports().stream().map(ModuleDescriptor.Exports::source).collect(Collectors.toSet());
    }

    @Test
    void aDatabaseOpensThroughTheExportedPackagesOnly() throws Exception {
        ModuleLayer layer = layer();
        ClassLoader loader = layer.findLoader("org.leveldbj.core");
        Module core = layer.findModule("org.leveldbj.core").orElseThrow();
        Class<?> factoryClass = Class.forName("org.leveldbj.db.LevelDbFactory", true, loader);
        Class<?> dbFactory = Class.forName("org.iq80.leveldb.DBFactory", true, loader);
        Class<?> options = Class.forName("org.iq80.leveldb.Options", true, loader);
        Class<?> db = Class.forName("org.iq80.leveldb.DB", true, loader);
        Object factory = factoryClass.getField("factory").get(null);
        Path dir = tmp.resolve("db");
        Path recorded = tmp.resolve("recording.jfr");
        Object opened = dbFactory.getMethod("open", File.class, options).invoke(factory, dir.toFile(),
                options.getConstructor().newInstance());
        try (jdk.jfr.Recording recording = new jdk.jfr.Recording()) {
            recording.enable("org.leveldbj.MemTableFlush");
            recording.start();
            byte[] key = "k".getBytes(StandardCharsets.UTF_8);
            byte[] value = "v".getBytes(StandardCharsets.UTF_8);
            db.getMethod("put", byte[].class, byte[].class).invoke(opened, key, value);
            assertArrayEquals(value, (byte[]) db.getMethod("get", byte[].class).invoke(opened, (Object) key));
            // The engine's JMX bean and JFR events work from its closed module too.
            javax.management.ObjectName bean = new javax.management.ObjectName("org.leveldbj:type=Database,name="
                    + dir.toAbsolutePath());
            assertEquals(1L, java.lang.management.ManagementFactory.getPlatformMBeanServer().getAttribute(bean,
                    "KeysWritten"));
            Class.forName("org.iq80.leveldb.ExtendedDB", true, loader).getMethod("flushMemTable").invoke(opened);
            recording.stop();
            recording.dump(recorded);
        } finally {
            db.getMethod("close").invoke(opened);
        }
        assertEquals(1, jdk.jfr.consumer.RecordingFile.readAllEvents(recorded).stream()
                .filter(e -> e.getEventType().getName().equals("org.leveldbj.MemTableFlush")).count());
        // An engine class outside the exported package loads, but code outside the module cannot use it.
        Class<?> versionSet = Class.forName("org.leveldbj.version.VersionSet", false, loader);
        assertFalse(core.isExported("org.leveldbj.version"));
        Method m = versionSet.getMethod("maxBytesForLevel", int.class);
        assertThrows(IllegalAccessException.class, () -> m.invoke(null, 1));
        assertThrows(InaccessibleObjectException.class, () -> m.setAccessible(true), "not opened to reflection either");
    }
}
