package org.leveldbj.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class PeerExtensionTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Set<String> announced = new HashSet<>();
    private final PeerUnavailableException missing = new PeerUnavailableException(
            "C++ LevelDB", "g++ not found", "apt-get install g++ libleveldb-dev", null);

    private PeerExtension extension(boolean ci) {
        return new PeerExtension(ci, new PrintStream(err, true, StandardCharsets.UTF_8), announced, false);
    }

    @Test
    void aMissingPeerSkipsLoudlyOutsideCi() {
        Throwable t = extension(false).translate("interop()", missing);
        assertInstanceOf(TestAbortedException.class, t);
        assertSame(missing, t.getCause());
        String banner = err.toString(StandardCharsets.UTF_8);
        assertTrue(banner.contains("!!! NOT TESTED HERE: C++ LevelDB is unavailable: g++ not found"), banner);
        assertTrue(banner.contains("!!!     to run these tests: apt-get install g++ libleveldb-dev"), banner);
        assertTrue(banner.contains("Under CI=true these tests fail"), banner);
        assertTrue(banner.contains("!!! SKIPPED interop(): C++ LevelDB is unavailable (see the banner above)"), banner);
    }

    @Test
    void laterSkipsOfThePeerPrintOneLine() {
        PeerExtension extension = extension(false);
        extension.translate("first()", missing);
        err.reset();
        assertInstanceOf(TestAbortedException.class, extension.translate("second()", missing));
        assertEquals("!!! SKIPPED second(): C++ LevelDB is unavailable (see the banner above)\n",
                err.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    @Test
    void aMissingPeerFailsUnderCi() {
        Throwable t = extension(true).translate("interop()", missing);
        assertInstanceOf(AssertionFailedError.class, t);
        assertEquals("CI=true and C++ LevelDB is unavailable: g++ not found\n"
                + "    to run these tests: apt-get install g++ libleveldb-dev", t.getMessage());
        assertEquals("", err.toString(StandardCharsets.UTF_8), "no skip banner under CI");
    }

    @Test
    void otherFailuresPassThroughUnchanged() {
        IllegalStateException other = new IllegalStateException("bug");
        assertSame(other, extension(false).translate("t()", other));
        assertSame(other, extension(true).translate("t()", other));
    }
}
