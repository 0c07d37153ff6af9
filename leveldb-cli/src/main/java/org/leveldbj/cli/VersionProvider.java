package org.leveldbj.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * The {@code --version} text: the tool's version as the build recorded it, and the JVM.
 *
 * <p>Thread safety: stateless.
 */
final class VersionProvider implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {
            "leveldb (leveldbj) " + version(),
            "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")",
        };
    }

    /** @return the project version, or {@code (unknown version)} outside a build */
    static String version() {
        Properties properties = new Properties();
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            return "(unknown version)";
        }
        return properties.getProperty("version", "(unknown version)");
    }
}
