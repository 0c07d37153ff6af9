package org.leveldbj.testing;

import java.io.PrintStream;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The one rule for tests that need a peer: when test code throws
 * {@link PeerUnavailableException}, the test is skipped with a banner on standard error naming
 * the peer, the reason and the remedy, except when the environment variable {@code CI} is
 * {@code true}: there every peer must be present, and the test fails with the same text. The
 * banner is printed in full for the first skip of each peer, and once more when the JVM exits so
 * that it is not lost in the output; later skips of the same peer print one line.
 *
 * <p>Use: {@code @ExtendWith(PeerExtension.class)} on the test class; a peer that cannot load is
 * reported by throwing {@link PeerUnavailableException} from the test or from a
 * {@code @BeforeAll}/{@code @BeforeEach} method.
 *
 * <p>Thread safety: stateless.
 */
public final class PeerExtension implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {
    /** The peers whose banner this JVM printed. */
    private static final Set<String> ANNOUNCED = ConcurrentHashMap.newKeySet();

    private final boolean ci;
    private final PrintStream err;
    private final Set<String> announced;
    private final boolean repeatAtExit;

    /** The extension as JUnit creates it: reads {@code CI} from the environment. */
    public PeerExtension() {
        this(isCi(), System.err, ANNOUNCED, true);
    }

    PeerExtension(boolean ci, PrintStream err, Set<String> announced, boolean repeatAtExit) {
        this.ci = ci;
        this.err = err;
        this.announced = announced;
        this.repeatAtExit = repeatAtExit;
    }

    /**
     * Whether this run is a CI run, where every peer must be present.
     *
     * @return {@code true} when the environment variable {@code CI} is {@code true} (any case)
     */
    public static boolean isCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        throw translate(context.getDisplayName(), failure);
    }

    @Override
    public void handleBeforeAllMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        throw translate(context.getDisplayName(), failure);
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        throw translate(context.getDisplayName(), failure);
    }

    /**
     * What a failure of test {@code test} becomes: a {@link PeerUnavailableException} becomes a
     * skip (with the banner) or, under CI, a failure; anything else stays as it is.
     */
    Throwable translate(String test, Throwable failure) {
        if (!(failure instanceof PeerUnavailableException)) {
            return failure;
        }
        PeerUnavailableException missing = (PeerUnavailableException) failure;
        String text = missing.getMessage() + "\n    to run these tests: " + missing.remedy();
        if (ci) {
            return new AssertionFailedError("CI=true and " + text, missing);
        }
        if (announced.add(missing.peer())) {
            String bar = "!".repeat(100);
            String banner = bar + "\n!!! NOT TESTED HERE: " + text.replace("\n", "\n!!! ")
                    + "\n!!! Under CI=true these tests fail instead of being skipped.\n" + bar;
            err.println(banner);
            if (repeatAtExit) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> System.err.println(banner)));
            }
        }
        err.println("!!! SKIPPED " + test + ": " + missing.peer() + " is unavailable (see the banner above)");
        return new TestAbortedException(text, missing);
    }
}
