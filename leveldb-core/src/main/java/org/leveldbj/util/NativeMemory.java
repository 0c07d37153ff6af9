package org.leveldbj.util;


/**
 * Off-heap memory that is released when its owner says so, not when the garbage collector gets
 * round to it: direct buffers (the memtable's arena) and read-only file mappings (table files).
 * {@link #open()} returns a {@link MemoryScope}; everything allocated or mapped through a scope is
 * released together by {@link MemoryScope#close()}.
 *
 * <p>The JDK offers no single supported way to do this on every version the library runs on, so
 * the mechanism is chosen once per JVM, in this order:
 * <ol>
 *   <li><b>JDK 22 and later</b>: the foreign memory API. Each scope owns a shared
 *       {@code java.lang.foreign.Arena}; closing the scope closes it. A buffer touched after the
 *       close throws {@link IllegalStateException} instead of reading freed memory. The API is
 *       reached through method handles so that the library compiles for and runs on JDK 17; it
 *       is not tried on JDK 19 to 21, where it was a preview.</li>
 *   <li><b>JDK 17 to 23</b>, when the first is missing: {@code sun.misc.Unsafe.invokeCleaner},
 *       reached by reflection (a direct reference draws a javac warning that no annotation
 *       suppresses). A buffer touched after the close reads freed or unmapped memory and may
 *       crash the JVM. Never used from JDK 24 on, where it prints a deprecation warning.</li>
 *   <li><b>Otherwise</b>: the garbage collector. Closing a scope only drops its references; the
 *       memory goes when the buffers become unreachable. This choice is logged once at debug
 *       level.</li>
 * </ol>
 * There is no switch to force a mechanism; tests reach each one through the package-private
 * {@link #open(Mechanism)}.
 *
 * <p>Thread safety: stateless apart from the choice, which is made during class initialization
 * and never changes; safe for concurrent use.
 */
public final class NativeMemory {
    private static final System.Logger LOG = System.getLogger(NativeMemory.class.getName());

    private static final Mechanism CHOSEN = choose();

    private NativeMemory() {
    }

    /**
     * Opens a scope that allocates and maps with this JVM's mechanism.
     *
     * @return a new, open scope owning nothing yet
     */
    public static MemoryScope open() {
        return new MemoryScope(CHOSEN);
    }

    /**
     * Names the mechanism this JVM uses, for log messages and tests.
     *
     * @return {@code "java.lang.foreign shared arena"}, {@code "sun.misc.Unsafe.invokeCleaner"}
     *     or {@code "garbage collector"}
     */
    public static String mechanism() {
        return CHOSEN.description;
    }

    /**
     * Tells whether {@link MemoryScope#close()} releases memory at once on this JVM.
     *
     * @return {@code false} only when the garbage collector releases it
     */
    public static boolean releasesOnClose() {
        return CHOSEN != Mechanism.GARBAGE_COLLECTOR;
    }

    /**
     * Opens a scope with a given mechanism, for tests. Requires: {@code mechanism.available()}.
     *
     * @param mechanism how the scope allocates, maps and releases
     * @return a new, open scope
     */
    static MemoryScope open(Mechanism mechanism) {
        if (!mechanism.available()) {
            throw new IllegalArgumentException(mechanism.description + " is not available on this JVM");
        }
        return new MemoryScope(mechanism);
    }

    private static Mechanism choose() {
        for (Mechanism mechanism : Mechanism.values()) {
            if (mechanism.available()) {
                if (mechanism == Mechanism.GARBAGE_COLLECTOR) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "Neither java.lang.foreign nor sun.misc.Unsafe.invokeCleaner is available: off-heap memory and file mappings are released by the garbage collector, not when closed");
                }
                return mechanism;
            }
        }
        throw new AssertionError("the garbage collector is always available");
    }

    /** The ways of releasing memory, in order of preference. */
    enum Mechanism {
        FOREIGN("java.lang.foreign shared arena"),
        CLEANER("sun.misc.Unsafe.invokeCleaner"),
        GARBAGE_COLLECTOR("garbage collector");

        final String description;

        Mechanism(String description) {
            this.description = description;
        }

        /** Tells whether this JVM offers the mechanism (looking it up on first call). */
        boolean available() {
            switch (this) {
                case FOREIGN:
                    return ForeignMemory.available();
                case CLEANER:
                    return UnsafeCleaner.available();
                default:
                    return true;
            }
        }
    }
}
