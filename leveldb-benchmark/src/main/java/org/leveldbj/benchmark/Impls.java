package org.leveldbj.benchmark;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.iq80.leveldb.DBFactory;
import org.leveldbj.db.LevelDbFactory;

/**
 * Finds implementations by name. leveldbj is on the runner's class path; each peer's jars are
 * in {@code <peers>/<name>/} (the build copies them to {@code target/peers/}) and load in a
 * {@link PeerClassLoader} of their own, once per process: a native library loads in one class
 * loader only.
 */
final class Impls {
    /** System property naming the directory of the peers' directories. */
    static final String PEERS_PROPERTY = "leveldbj.bench.peers";
    static final String BUILD_HINT = "run: mvn -B -ntp install -DskipTests first";

    private static final String ROCKSDB_ADAPTER = "org.leveldbj.benchmark.rocksdb";
    private static final String H2_ADAPTER = "org.leveldbj.benchmark.h2";
    private static final Map<String, Impl> LOADED = new HashMap<>();

    private Impls() {
    }

    static synchronized Impl load(String name) throws ImplUnavailableException {
        Impl impl = LOADED.get(name);
        if (impl == null) {
            impl = create(name);
            LOADED.put(name, impl);
        }
        return impl;
    }

    private static Impl create(String name) throws ImplUnavailableException {
        switch (name) {
            case "leveldbj":
                return new Impl(name, ownVersion(), LevelDbFactory.factory,
                        EnumSet.allOf(Impl.Feature.class));
            case "iq80":
                return peer(name, "leveldb", "org.iq80.leveldb.impl.Iq80DBFactory", null,
                        EnumSet.noneOf(Impl.Feature.class));
            case "leveldbjni":
                return peer(name, "leveldbjni-all", "org.fusesource.leveldbjni.JniDBFactory",
                        null, EnumSet.of(Impl.Feature.BLOCK_CACHE,
                                Impl.Feature.REVERSE_ITERATION));
            case "rocksdb":
                return peer(name, "rocksdbjni", ROCKSDB_ADAPTER + ".RocksDbFactory", ROCKSDB_ADAPTER,
                        EnumSet.allOf(Impl.Feature.class));
            case "h2":
                return peer(name, "h2", H2_ADAPTER + ".H2Factory", H2_ADAPTER,
                        EnumSet.of(Impl.Feature.BLOCK_CACHE, Impl.Feature.REVERSE_ITERATION));
            default:
                throw new IllegalArgumentException("unknown implementation " + name);
        }
    }

    private static Impl peer(String name, String artifactId, String factoryClass,
            String adapter, EnumSet<Impl.Feature> features) throws ImplUnavailableException {
        Path dir = peersDirectory().resolve(name);
        List<URL> urls = new ArrayList<>();
        String version = null;
        Pattern jarName = Pattern.compile(Pattern.quote(artifactId) + "-([0-9][^/]*)\\.jar");
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> jars = files.sorted().collect(Collectors.toList());
            for (Path jar : jars) {
                if (!jar.getFileName().toString().endsWith(".jar")) {
                    continue;
                }
                urls.add(jar.toUri().toURL());
                Matcher m = jarName.matcher(jar.getFileName().toString());
                if (m.matches()) {
                    version = m.group(1);
                }
            }
            if (adapter != null) {
                urls.add(ownLocation().toUri().toURL());
            }
        } catch (IOException e) {
            throw new ImplUnavailableException(name + " is not available: no directory " + dir
                    + " (" + BUILD_HINT + ")", e);
        }
        if (version == null) {
            throw new ImplUnavailableException(name + " is not available: no " + artifactId
                    + " jar in " + dir + " (" + BUILD_HINT + ")", null);
        }
        PeerClassLoader loader = new PeerClassLoader(name, urls.toArray(new URL[0]),
                Impls.class.getClassLoader(), adapter);
        try {
            Class<?> type = Class.forName(factoryClass, true, loader);
            DBFactory factory = (DBFactory) type.getField("factory").get(null);
            return new Impl(name, version, factory, features);
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            throw new ImplUnavailableException(name + " " + version + " cannot load here: " + e,
                    e);
        }
    }

    /** The directory holding one directory of jars per peer. */
    static Path peersDirectory() {
        String configured = System.getProperty(PEERS_PROPERTY);
        if (configured != null && !configured.isEmpty()) {
            return Paths.get(configured);
        }
        // target/leveldb-benchmark-<version>.jar or target/classes: both sit beside peers/.
        return ownLocation().toAbsolutePath().getParent().resolve("peers");
    }

    /** The jar or directory the runner's classes were loaded from. */
    static Path ownLocation() {
        try {
            return Paths.get(Impls.class.getProtectionDomain().getCodeSource().getLocation()
                    .toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the runner's classes", e);
        }
    }

    /** leveldbj's version, as the build recorded it. */
    static String ownVersion() {
        Properties properties = new Properties();
        try (InputStream in = Impls.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "(unknown version)";
        }
        return properties.getProperty("version", "(unknown version)");
    }
}
