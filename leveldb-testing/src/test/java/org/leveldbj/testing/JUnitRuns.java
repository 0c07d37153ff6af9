package org.leveldbj.testing;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.List;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/** Runs a fixture class's tests in JUnit and collects each test's outcome. */
final class JUnitRuns {
    private JUnitRuns() {
    }

    /** One finished test: its display name, status and failure (or {@code null}). */
    record Outcome(String test, TestExecutionResult.Status status, Throwable failure) {
    }

    static List<Outcome> run(Class<?> fixture) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectClass(fixture)).build();
        List<Outcome> outcomes = new ArrayList<>();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(request, new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) {
                    outcomes.add(new Outcome(id.getDisplayName(), result.getStatus(), result.getThrowable().orElse(null)));
                }
            }
        });
        return outcomes;
    }

    static Outcome only(List<Outcome> outcomes, String test) {
        return outcomes.stream().filter(o -> o.test().startsWith(test + "(")).findFirst()
                .orElseThrow(() -> new AssertionError("no outcome for " + test + " in " + outcomes));
    }
}
