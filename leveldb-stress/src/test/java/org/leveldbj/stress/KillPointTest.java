package org.leveldbj.stress;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Each kill point names an engine method that exists: a rename would silently disarm it. */
class KillPointTest {
    @Test
    void everyPointNamesAnExistingEngineMethod() throws ClassNotFoundException {
        for (KillPoint p : KillPoint.values()) {
            if (p.className() == null) {
                continue;
            }
            Class<?> c = Class.forName(p.className());
            assertTrue(Arrays.stream(c.getDeclaredMethods()).map(Method::getName).anyMatch(p.methodName()::equals),
                    p + ": no method " + p.methodName() + " in " + p.className());
        }
    }
}
