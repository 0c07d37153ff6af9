package org.iq80.leveldb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Checks that every public type and member of leveldb-api 0.12 exists here with the same
 * signature, so that code compiled against 0.12 links and code written against it compiles.
 */
class ApiCompatibilityTest {

    @Test
    void everyPublicTypeOfTheReferenceMatchesOurs() throws IOException {
        SignatureComparator comparator = new SignatureComparator();
        List<String> compared = new ArrayList<>();
        try (URLClassLoader referenceLoader = ReferenceApi.isolatedLoader()) {
            for (String name : ReferenceApi.classNames()) {
                Class<?> ref = load(name, referenceLoader);
                if (!Modifier.isPublic(ref.getModifiers())) {
                    continue;
                }
                Class<?> ours;
                try {
                    ours = load(name, getClass().getClassLoader());
                } catch (AssertionError e) {
                    comparator.problems().add(name + ": missing");
                    continue;
                }
                assertNotSame(ref.getClassLoader(), ours.getClassLoader(),
                        name + " must come from our classes, not from the reference jar");
                comparator.compare(ref, ours);
                compared.add(ref.getSimpleName());
            }
        }
        System.out.println("API compatibility with leveldb-api 0.12: " + comparator.summary()
                + "; types: " + compared);
        assertEquals(13, compared.size(), "0.12 has 13 public types; compared " + compared);
        assertEquals(List.of(), comparator.problems(), comparator.summary());
    }

    /** Guards against a comparator that passes everything: a known-incompatible pair must fail. */
    @Test
    void theComparatorReportsIncompatibleChanges() {
        SignatureComparator comparator = new SignatureComparator();
        comparator.compare(Before.class, After.class);
        String report = String.join("\n", comparator.problems());
        assertTrue(report.contains("resize(int):void: missing"), report);
        assertTrue(report.contains("count():int: became final"), report);
        assertTrue(report.contains("open():void: throws [], declared [java.io.IOException]"),
                report);
        assertTrue(report.contains("LIMIT: value 2, was 1"), report);
        assertTrue(report.contains("helper():void: static-ness changed"), report);
        assertTrue(report.contains("Before.<init>(java.lang.String): missing"), report);
        assertTrue(report.contains("interfaces [], were [java.lang.Runnable]"), report);
        assertEquals(7, comparator.problems().size(), report);
    }

    @Test
    void theComparatorReportsNewAbstractMethodsInInterfaces() {
        SignatureComparator comparator = new SignatureComparator();
        comparator.compare(Callback.class, CallbackWithMore.class);
        assertEquals(List.of(
                Callback.class.getName() + ".extra():void: new abstract method"),
                comparator.problems());
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            return fail(name + " not found by " + loader, e);
        }
    }

    // The pairs below differ on purpose; they exist only to be compared.

    /** An old version of a class. */
    public static class Before implements Runnable {
        /** A constant. */
        public static final int LIMIT = 1;

        /** A constructor. */
        public Before(String name) {
        }

        @Override
        public void run() {
        }

        /** A method that will disappear. */
        public void resize(int size) {
        }

        /** A method that will become final. */
        public int count() {
            return 0;
        }

        /** A method that will stop declaring IOException. */
        public void open() throws IOException {
        }

        /** A method that will become static. */
        public void helper() {
        }
    }

    /** A new, incompatible version of {@link Before}. */
    public static class After {
        /** A constant with another value. */
        public static final int LIMIT = 2;

        /** Runs. */
        public void run() {
        }

        /** Resizes, with another parameter type. */
        public void resize(long size) {
        }

        /** Counts. */
        public final int count() {
            return 0;
        }

        /** Opens. */
        public void open() {
        }

        /** Helps. */
        public static void helper() {
        }
    }

    /** An old version of an interface. */
    public interface Callback {
        /** Calls back. */
        void call();
    }

    /** A new version of {@link Callback} with an abstract method added. */
    public interface CallbackWithMore {
        /** Calls back. */
        void call();

        /** A method old implementations lack. */
        void extra();
    }
}
