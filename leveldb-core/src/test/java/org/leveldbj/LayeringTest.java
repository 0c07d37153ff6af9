package org.leveldbj;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The engine's packages depend one way only: every dependency of a production class on another
 * package of the engine goes to a lower layer, as the list in the module's javadoc overview
 * ({@code src/main/javadoc/overview.html}, read here, so the layering is written once) orders
 * them. A package missing from the
 * list fails too, so a new package must be placed.
 */
class LayeringTest {
    private static final String ROOT = "org.leveldbj";
    private static final Path OVERVIEW = Path.of("src", "main", "javadoc", "overview.html");
    private static final Pattern LAYER = Pattern.compile("<li>layer: ([a-z, ]+)</li>");

    /** Package (the part after {@code org.leveldbj.}) to its layer, from the overview. */
    private static Map<String, Integer> layers() throws IOException {
        Map<String, Integer> layers = new HashMap<>();
        Matcher m = LAYER.matcher(Files.readString(OVERVIEW));
        int layer = 0;
        while (m.find()) {
            layer++;
            for (String name : m.group(1).split(",")) {
                layers.put(name.trim(), layer);
            }
        }
        assertTrue(layer >= 2, "no layers found in " + OVERVIEW.toAbsolutePath());
        return layers;
    }

    /** The engine package of a class ({@code db} for {@code org.leveldbj.engine.DbImpl}), or null. */
    private static String enginePackage(JavaClass c) {
        String name = c.getPackageName();
        if (!name.startsWith(ROOT + ".")) {
            return null;
        }
        String rest = name.substring(ROOT.length() + 1);
        int dot = rest.indexOf('.');
        return dot < 0 ? rest : rest.substring(0, dot);
    }

    /** The directory or jar holding this module's main classes. */
    private static Path mainClasses() {
        try {
            return Path.of(org.leveldbj.db.LevelDbFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void everyDependencyGoesToALowerLayer() throws IOException {
        Map<String, Integer> layers = layers();
        // This module's classes only: test dependencies (the testing artifact) also live under
        // the root package but are not engine layers.
        // Read from where this module's main classes are, whether the testing artifact is on
        // the class path as a jar (verify) or as a directory (test).
        JavaClasses classes = new ClassFileImporter()
                .importPath(mainClasses());
        Set<String> unplaced = new TreeSet<>();
        Set<String> violations = new TreeSet<>();
        int checked = 0;
        for (JavaClass c : classes) {
            String from = enginePackage(c);
            if (from == null) {
                continue;
            }
            if (!layers.containsKey(from)) {
                unplaced.add(from);
                continue;
            }
            for (Dependency d : c.getDirectDependenciesFromSelf()) {
                String to = enginePackage(d.getTargetClass());
                if (to == null || to.equals(from)) {
                    continue;
                }
                checked++;
                Integer target = layers.get(to);
                if (target == null) {
                    unplaced.add(to);
                } else if (target >= layers.get(from)) {
                    violations.add(from + " -> " + to + ": " + c.getName() + " uses " + d.getTargetClass().getName());
                }
            }
        }
        assertEquals(Set.of(), unplaced, "packages missing from the layer list in " + OVERVIEW);
        assertEquals(Set.of(), violations, "dependencies that do not go to a lower layer");
        assertTrue(checked > 100, "too few dependencies checked: " + checked + " (did the classes load?)");
    }
}
