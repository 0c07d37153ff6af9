package org.leveldbj.testing;

import java.io.PrintStream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The one rule for tests that need a peer: when test code throws
 * {@link PeerUnavailableException}, the test is skipped with a banner on standard error naming
 * the peer, the reason and the remedy, except when the environment variable {@code CI} is
 * {@code true}: there every peer must be present, and the test fails with the same text.
 *
 * <p>Use: {@code @ExtendWith(PeerExtension.class)} on the test class; a peer that cannot load is
 * reported by throwing {@link PeerUnavailableException} from the test or from a
 * {@code @BeforeAll}/{@code @BeforeEach} method.
 *
 * <p>Thread safety: stateless.
 */
public final class PeerExtension implements TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {
    private final boolean ci;
    private final PrintStream err;

    /** The extension as JUnit creates it: reads {@code CI} from the environment. */
    public PeerExtension() {
        this(isCi(), System.err);
    }

    PeerExtension(boolean ci, PrintStream err) {
        this.ci = ci;
        this.err = err;
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
        String bar = "!".repeat(100);
        err.println(bar + "\n!!! SKIPPED " + test + ": " + text
                + "\n!!! Under CI=true this test fails instead of being skipped.\n" + bar);
        return new TestAbortedException(text, missing);
    }
}
