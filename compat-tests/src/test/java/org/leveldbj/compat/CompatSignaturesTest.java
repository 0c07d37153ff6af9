package org.leveldbj.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every public field, constructor and method of the original classes the compat artifacts
 * replace exists in ours with the same static-ness, type and parameter types, so code compiled
 * against leveldbjni 1.8 or iq80 leveldb 0.12 links against ours without recompiling. The
 * originals are read from their jars (copied by the build into {@code target/originals}) in a
 * class loader of their own, without initialising them (leveldbjni would load its native code).
 */
class CompatSignaturesTest {
    private static final Path ORIGINALS = Path.of(System.getProperty("compat.target", "target"), "originals");

    private static ClassLoader originals(String... jarPrefixes) throws IOException {
        List<URL> urls = new ArrayList<>();
        for (String prefix : jarPrefixes) {
            try (var files = Files.list(ORIGINALS)) {
                List<Path> jars = files.filter(p -> p.getFileName().toString()
                        .matches(java.util.regex.Pattern.quote(prefix) + "-[0-9][^-]*\\.jar")).toList();
                assertEquals(1, jars.size(), prefix + " in " + ORIGINALS.toAbsolutePath() + ": " + jars);
                urls.add(jars.get(0).toUri().toURL());
            }
        }
        // iq80 leveldb's FileUtils names Guava's ImmutableList: take Guava from our class path.
        urls.add(com.google.common.collect.ImmutableList.class.getProtectionDomain().getCodeSource().getLocation());
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    private static String signature(Member m) {
        String statics = Modifier.isStatic(m.getModifiers()) ? "static " : "";
        if (m instanceof Field f) {
            return statics + "field " + f.getType().getName() + " " + f.getName();
        }
        if (m instanceof Constructor<?> c) {
            return "constructor(" + names(c.getParameterTypes()) + ")";
        }
        Method method = (Method) m;
        return statics + method.getReturnType().getName() + " " + method.getName() + "(" + names(method.getParameterTypes()) + ")";
    }

    private static String names(Class<?>[] types) {
        return Arrays.stream(types).map(Class::getName).collect(Collectors.joining(","));
    }

    private static Set<String> publicMembers(Class<?> type) {
        Set<String> out = new TreeSet<>();
        List<Member> members = new ArrayList<>();
        members.addAll(Arrays.asList(type.getDeclaredFields()));
        members.addAll(Arrays.asList(type.getDeclaredConstructors()));
        members.addAll(Arrays.asList(type.getDeclaredMethods()));
        for (Member m : members) {
            if (Modifier.isPublic(m.getModifiers()) && !m.isSynthetic()) {
                out.add(signature(m));
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "org.fusesource.leveldbjni.JniDBFactory, leveldbjni-all",
        "org.fusesource.leveldbjni.internal.NativeDB$DBException, leveldbjni-all",
        "org.iq80.leveldb.impl.Iq80DBFactory, leveldb leveldb-api",
        "org.iq80.leveldb.util.FileUtils, leveldb leveldb-api",
    })
    void everyPublicMemberOfTheOriginalExistsInOurs(String name, String jars) throws Exception {
        Class<?> original = Class.forName(name, false, originals(jars.split(" ")));
        Class<?> ours = Class.forName(name);
        assertTrue(Modifier.isPublic(ours.getModifiers()), name + " is not public");
        assertEquals(original.getSuperclass().getName(), ours.getSuperclass().getName(), name + "'s superclass");
        Set<String> expectedInterfaces = Arrays.stream(original.getInterfaces()).map(Class::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> ourInterfaces = Arrays.stream(ours.getInterfaces()).map(Class::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(expectedInterfaces, ourInterfaces, name + "'s interfaces");
        Set<String> missing = new TreeSet<>(publicMembers(original));
        missing.removeAll(publicMembers(ours));
        assertEquals(Set.of(), missing, name + ": public members of the original missing from ours");
    }
}
