package org.leveldbj.fuzz;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Prepares the JVM for Jazzer before a fuzz test class runs: Jazzer installs its agent through a
 * jar it writes to {@code java.io.tmpdir}, which the build points at {@code target/tmp}, a
 * directory that may not exist yet.
 *
 * <p>Thread safety: stateless.
 */
public final class FuzzEnvironment implements BeforeAllCallback {
    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
    }
}
