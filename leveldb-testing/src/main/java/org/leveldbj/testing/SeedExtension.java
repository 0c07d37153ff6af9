package org.leveldbj.testing;

import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.LifecycleMethodExecutionExceptionHandler;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * One random seed per test, reproducible: the value of the system property {@value #PROPERTY}
 * when it is set, otherwise a fresh one; a failing test carries it in its report.
 *
 * <p>Use: {@code @ExtendWith(SeedExtension.class)} on the class, then a test method (or a
 * {@code @BeforeEach} method) declares a {@code @Seed long seed} parameter for the seed itself, or a
 * {@link Random} parameter for a generator seeded with it. Every such parameter of one test gets
 * the same seed. When the test (or its {@code @BeforeEach}) fails, the seed is attached to the failure as a suppressed
 * exception whose message reads {@code "seed N: replay with -Dleveldbj.seed=N"}, so the report
 * says how to run the same inputs again (the seed is not printed otherwise).
 *
 * <p>Thread safety: JUnit calls the extension from the test's thread; the seed lives in the
 * test's extension store.
 */
public final class SeedExtension
        implements BeforeEachCallback, ParameterResolver, TestExecutionExceptionHandler, LifecycleMethodExecutionExceptionHandler {
    /** The system property that fixes the seed of every test of a run. */
    public static final String PROPERTY = "leveldbj.seed";

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SeedExtension.class);
    private static final String KEY = "seed";

    @Override
    public void beforeEach(ExtensionContext context) {
        seed(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == Random.class || type == long.class && parameter.isAnnotated(Seed.class);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        long seed = seed(context);
        return parameter.getParameter().getType() == Random.class ? new Random(seed) : (Object) seed;
    }

    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        failure.addSuppressed(new SeedReport(seed(context)));
        throw failure;
    }

    @Override
    public void handleBeforeEachMethodExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        handleTestExecutionException(context, failure);
    }

    /**
     * The seed of the test {@code context} belongs to, chosen on first use.
     *
     * @param context a test's context (or a lifecycle method's)
     * @return the seed
     */
    private static long seed(ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(KEY, k -> chooseSeed(), Long.class);
    }

    /**
     * The seed a test uses: the property's value when set, else a fresh random one.
     *
     * @return the seed
     * @throws IllegalArgumentException if the property is set but is not a number
     */
    static long chooseSeed() {
        String given = System.getProperty(PROPERTY);
        if (given == null || given.isBlank()) {
            return ThreadLocalRandom.current().nextLong();
        }
        try {
            return Long.parseLong(given.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + PROPERTY + " must be a number, not \"" + given + "\"", e);
        }
    }

    /** The seed attached to a failure. */
    static final class SeedReport extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SeedReport(long seed) {
            super("seed " + seed + ": replay with -D" + PROPERTY + "=" + seed, null, false, false);
        }
    }
}
