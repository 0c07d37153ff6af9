package org.leveldbj.testing;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.AssertionFailedError;

/**
 * Fails a test during which the engine took a lock against its documented order, on any thread:
 * the engine's checker ({@code org.leveldbj.util.LockOrder}, on with the system property
 * {@code leveldbj.lockOrderCheck=true}) throws at the acquisition, but a background thread's
 * failure might otherwise only show as a later, vaguer error. The reports carry both stacks.
 *
 * <p>Registered for automatic detection ({@code META-INF/services}): the build turns detection on
 * for every module's tests. The checker is reached by name, since this artifact does not depend
 * on the engine (whose own tests depend on this artifact); without the engine on the class path,
 * or with the checker off, the extension does nothing.
 *
 * <p>Thread safety: the callbacks run on the test's thread.
 */
public final class LockOrderCheck implements BeforeEachCallback, AfterEachCallback {
    private static final MethodHandle TAKE_VIOLATIONS = find();

    private static MethodHandle find() {
        try {
            Class<?> checker = Class.forName("org.leveldbj.util.LockOrder");
            if (!checker.getField("ENABLED").getBoolean(null)) {
                return null;
            }
            return MethodHandles.publicLookup().findStatic(checker, "takeViolations", MethodType.methodType(List.class));
        } catch (ClassNotFoundException e) {
            return null; // no engine here
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the engine's lock-order checker has an unexpected shape", e);
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        List<String> earlier = take();
        if (!earlier.isEmpty()) {
            throw new AssertionFailedError("the engine took locks against their order before this test started "
                    + "(a thread left behind by an earlier test?):\n" + String.join("\n", earlier));
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<String> violations = take();
        if (!violations.isEmpty()) {
            throw new AssertionFailedError(violations.size() + " lock order violation(s) during this test:\n"
                    + String.join("\n", violations));
        }
    }

    @SuppressWarnings("unchecked")
    private static List<String> take() {
        if (TAKE_VIOLATIONS == null) {
            return List.of();
        }
        try {
            return (List<String>) TAKE_VIOLATIONS.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
