package org.leveldbj.cli;

import java.io.Console;
import java.lang.reflect.Method;

/**
 * Tells whether the process talks to a terminal. {@link System#console()} is {@code null} when
 * the standard streams are redirected up to JDK 21; from JDK 22 on it is a console object even
 * then, and {@code Console.isTerminal()} (JDK 22+, called reflectively so that the code still
 * compiles for 17) gives the answer.
 *
 * <p>Thread safety: stateless.
 */
final class Terminal {
    private Terminal() {
    }

    /** @return {@code true} when the process is attached to an interactive terminal */
    static boolean isTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException e) {
            return true; // JDK 17 to 21: a non-null console is a terminal
        }
    }
}
