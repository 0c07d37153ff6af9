package org.leveldbj.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

class PeerExtensionTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PeerUnavailableException missing = new PeerUnavailableException(
            "C++ LevelDB", "g++ not found", "apt-get install g++ libleveldb-dev", null);

    private PeerExtension extension(boolean ci) {
        return new PeerExtension(ci, new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aMissingPeerSkipsLoudlyOutsideCi() {
        Throwable t = extension(false).translate("interop()", missing);
        assertInstanceOf(TestAbortedException.class, t);
        assertSame(missing, t.getCause());
        String banner = err.toString(StandardCharsets.UTF_8);
        assertTrue(banner.contains("!!! SKIPPED interop(): C++ LevelDB is unavailable: g++ not found"), banner);
        assertTrue(banner.contains("to run these tests: apt-get install g++ libleveldb-dev"), banner);
        assertTrue(banner.contains("Under CI=true this test fails"), banner);
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
