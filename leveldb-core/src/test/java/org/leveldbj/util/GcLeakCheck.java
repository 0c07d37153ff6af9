package org.leveldbj.util;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class when an iterator or snapshot was reclaimed without being closed while it,
 * or an earlier class, ran (the report carries the stack that created the leaked object, which
 * names the test). Registered for every test class of this module through JUnit's extension
 * auto-detection; does nothing unless {@link LeakDetector} is on, which the build turns on.
 * (Deterministic checks of one test, at the moment a database closes, are the testing
 * artifact's {@code org.leveldbj.testing.LeakCheck}.)
 */
public final class GcLeakCheck implements AfterAllCallback {
    private static final long GRACE_MILLIS = 30;

    @Override
    public void afterAll(ExtensionContext context) throws InterruptedException {
        if (!LeakDetector.enabled()) {
            return;
        }
        System.gc();
        Thread.sleep(GRACE_MILLIS); // the cleaner thread reports what the collection found
        List<String> leaks = new ArrayList<>(LeakDetector.takeReports());
        if (!leaks.isEmpty()) {
            fail(leaks.size() + " iterator(s) or snapshot(s) were never closed:\n" + String.join("\n", leaks));
        }
    }
}
