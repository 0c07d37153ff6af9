package org.leveldbj.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
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
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every public field, constructor and method of the original classes the compat artifacts
 * replace exists in ours with the same static-ness, type and parameter types, so code compiled
 * against leveldbjni 1.8 or iq80 leveldb 0.12 links against ours without recompiling; and none
 * of ours declares a checked exception the original does not, so code written against the
 * original compiles against ours (leveldbjni's {@code JniDB.close()} declares none). The
 * originals are read from their jars (copied by the build into {@code target/originals}) in a
 * class loader of their own, without initialising them (leveldbjni would load its native code).
 * The members left out on purpose, listed in {@link #LEFT_OUT}, hand out leveldbjni's native
 * handles.
 */
class CompatSignaturesTest {
    private static final Map<String, Set<String>> LEFT_OUT = Map.of(
            "org.fusesource.leveldbjni.internal.JniDB", Set.of("constructor(org.fusesource.leveldbjni.internal.NativeDB,"
                    + "org.fusesource.leveldbjni.internal.NativeCache,org.fusesource.leveldbjni.internal.NativeComparator,"
                    + "org.fusesource.leveldbjni.internal.NativeLogger)"),
            "org.fusesource.leveldbjni.internal.JniWriteBatch",
            Set.of("org.fusesource.leveldbjni.internal.NativeWriteBatch writeBatch()"));

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

    /** Checked exceptions {@code ours} declares that {@code original} does not. */
    private static List<String> extraCheckedExceptions(Executable original, Executable ours) {
        List<String> extra = new ArrayList<>();
        for (Class<?> thrown : ours.getExceptionTypes()) {
            if (RuntimeException.class.isAssignableFrom(thrown) || Error.class.isAssignableFrom(thrown)) {
                continue;
            }
            boolean declared = Arrays.stream(original.getExceptionTypes()).anyMatch(o -> isSubclass(thrown, o.getName()));
            if (!declared) {
                extra.add(signature(ours) + " throws " + thrown.getName());
            }
        }
        return extra;
    }

    /** Whether {@code type} is the class named {@code name} or one of its subclasses. */
    private static boolean isSubclass(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static Executable counterpart(Class<?> ours, Executable original) {
        Class<?>[] params = original.getParameterTypes();
        for (Executable e : original instanceof Method ? ours.getDeclaredMethods() : ours.getDeclaredConstructors()) {
            if (e.getName().equals(original.getName()) && e.getParameterCount() == params.length
                    && names(e.getParameterTypes()).equals(names(params)) && !e.isSynthetic()) {
                return e;
            }
        }
        return null;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "org.fusesource.leveldbjni.JniDBFactory, leveldbjni-all",
        "org.fusesource.leveldbjni.internal.NativeDB$DBException, leveldbjni-all",
        "org.fusesource.leveldbjni.internal.JniDB, leveldbjni-all",
        "org.fusesource.leveldbjni.internal.JniDBIterator, leveldbjni-all",
        "org.fusesource.leveldbjni.internal.JniWriteBatch, leveldbjni-all",
        "org.fusesource.leveldbjni.internal.JniSnapshot, leveldbjni-all",
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
        missing.removeAll(LEFT_OUT.getOrDefault(name, Set.of()));
        assertEquals(Set.of(), missing, name + ": public members of the original missing from ours");

        List<Executable> originals = new ArrayList<>(Arrays.asList(original.getDeclaredMethods()));
        originals.addAll(Arrays.asList(original.getDeclaredConstructors()));
        List<String> extra = new ArrayList<>();
        for (Executable e : originals) {
            Executable counterpart = Modifier.isPublic(e.getModifiers()) && !e.isSynthetic() ? counterpart(ours, e) : null;
            if (counterpart != null) {
                extra.addAll(extraCheckedExceptions(e, counterpart));
            }
        }
        assertEquals(List.of(), extra, name + ": checked exceptions the original does not declare");
    }
}
