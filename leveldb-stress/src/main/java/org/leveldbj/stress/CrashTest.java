package org.leveldbj.stress;

/**
 * The entry point of {@code bin/crashtest}: parses the flags, runs the {@link Driver}, prints
 * the summary line and exits with {@code 0} when every round verified, {@code 1} after a
 * failure (described above the summary) and {@code 2} for bad flags.
 */
public final class CrashTest {
    private CrashTest() {
    }

    /**
     * Runs the crash test.
     *
     * @param args the flags ({@code --help} lists them)
     * @throws Exception if the working directory cannot be used
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(Config.USAGE);
            return;
        }
        Config config;
        try {
            config = Config.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("crashtest: " + e.getMessage());
            System.exit(2);
            return;
        }
        Summary summary = new Driver(config, System.out).run();
        if (!summary.ok()) {
            System.out.println("crashtest: FAILED in " + summary.failure);
        }
        System.out.println(summary.line());
        System.exit(summary.ok() ? 0 : 1);
    }
}
