package org.leveldbj.compat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.apache.felix.framework.Felix;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.Constants;
import org.osgi.framework.wiring.BundleWiring;

/**
 * The library jars are OSGi bundles that resolve in a real framework (Apache Felix) with only
 * what they import, export the API and the factory packages and nothing else, satisfy the
 * imports of camel-leveldb 2.x (the best-known OSGi user: {@code org.iq80.leveldb [0.6,1)},
 * {@code org.fusesource.leveldbjni [1.8,2)}, {@code org.iq80.leveldb.impl}), and open a working
 * database through the exported API.
 */
class OsgiBundlesTest {
    private static final Path BUNDLES = Path.of(System.getProperty("compat.target", "target"), "bundles");

    @TempDir
    Path tmp;

    private Felix felix;

    @BeforeEach
    void start() throws Exception {
        Map<String, Object> config = new HashMap<>();
        config.put(Constants.FRAMEWORK_STORAGE, tmp.resolve("felix-cache").toString());
        config.put(Constants.FRAMEWORK_STORAGE_CLEAN, Constants.FRAMEWORK_STORAGE_CLEAN_ONFIRSTINIT);
        felix = new Felix(config);
        felix.start();
    }

    @AfterEach
    void stop() throws Exception {
        felix.stop();
        felix.waitForStop(10_000);
    }

    private List<Bundle> installAll(BundleContext context) throws IOException, Exception {
        List<Bundle> installed = new ArrayList<>();
        try (Stream<Path> jars = Files.list(BUNDLES)) {
            for (Path jar : jars.sorted().toList()) {
                installed.add(context.installBundle(jar.toUri().toString()));
            }
        }
        return installed;
    }

    private static Bundle named(List<Bundle> bundles, String symbolicName) {
        return bundles.stream().filter(b -> symbolicName.equals(b.getSymbolicName())).findFirst()
                .orElseThrow(() -> new AssertionError("no bundle " + symbolicName + " in " + BUNDLES.toAbsolutePath()));
    }

    /** A bundle that only imports packages, the way camel-leveldb 2.25's manifest does. */
    private Path camelLikeBundle() throws IOException {
        Manifest manifest = new Manifest();
        Attributes main = manifest.getMainAttributes();
        main.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        main.putValue(Constants.BUNDLE_MANIFESTVERSION, "2");
        main.putValue(Constants.BUNDLE_SYMBOLICNAME, "test.camel.leveldb.imports");
        main.putValue(Constants.IMPORT_PACKAGE, "org.iq80.leveldb;version=\"[0.6,1)\","
                + "org.fusesource.leveldbjni;version=\"[1.8,2)\",org.iq80.leveldb.impl");
        Path jar = tmp.resolve("camel-like.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, manifest)) {
            j.flush();
        }
        return jar;
    }

    @Test
    void bundlesResolveExportOnlyTheirApiAndOpenADatabase() throws Exception {
        BundleContext context = felix.getBundleContext();
        List<Bundle> bundles = installAll(context);
        for (Bundle b : bundles) {
            b.start();
            assertEquals(Bundle.ACTIVE, b.getState(), b.getSymbolicName() + " did not start");
        }
        Bundle api = named(bundles, "org.leveldbj.api");
        Bundle core = named(bundles, "org.leveldbj.core");
        Bundle jni = named(bundles, "org.leveldbj.compat.leveldbjni");
        named(bundles, "org.leveldbj.compat.iq80");

        assertEquals("org.iq80.leveldb;version=\"0.12.0\"", api.getHeaders().get(Constants.EXPORT_PACKAGE));
        String coreExports = core.getHeaders().get(Constants.EXPORT_PACKAGE);
        assertEquals(List.of("org.leveldbj.backup", "org.leveldbj.db", "org.leveldbj.ttl"), Arrays.stream(coreExports.split(","))
                .map(e -> e.substring(0, e.indexOf(';'))).sorted().toList(), coreExports);
        // An engine package is private: other bundles cannot load it through the framework.
        assertFalse(core.adapt(BundleWiring.class).getCapabilities("osgi.wiring.package").stream()
                .anyMatch(c -> "org.leveldbj.table".equals(c.getAttributes().get("osgi.wiring.package"))));

        Bundle camel = context.installBundle(camelLikeBundle().toUri().toString());
        camel.start();
        assertEquals(Bundle.ACTIVE, camel.getState(), "camel-leveldb's imports did not resolve");

        // Open, write and read through leveldbjni's factory, with classes as the framework wires them.
        Class<?> factoryClass = jni.loadClass("org.fusesource.leveldbjni.JniDBFactory");
        Class<?> optionsClass = api.loadClass("org.iq80.leveldb.Options");
        Object factory = factoryClass.getField("factory").get(null);
        Object options = optionsClass.getConstructor().newInstance();
        File dir = tmp.resolve("db").toFile();
        Object db = factoryClass.getMethod("open", File.class, optionsClass).invoke(factory, dir, options);
        Class<?> dbClass = api.loadClass("org.iq80.leveldb.DB");
        Method put = dbClass.getMethod("put", byte[].class, byte[].class);
        Method get = dbClass.getMethod("get", byte[].class);
        byte[] key = "osgi".getBytes(StandardCharsets.UTF_8);
        byte[] value = "works".getBytes(StandardCharsets.UTF_8);
        put.invoke(db, key, value);
        assertArrayEquals(value, (byte[]) get.invoke(db, (Object) key));
        dbClass.getMethod("close").invoke(db);
        assertTrue(new File(dir, "CURRENT").exists());
    }
}
