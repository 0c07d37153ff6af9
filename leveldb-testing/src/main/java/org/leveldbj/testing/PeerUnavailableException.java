package org.leveldbj.testing;

/**
 * Thrown by test code when a peer it needs (C++ LevelDB built from Debian's package, a Go or
 * Python implementation, a native codec, another Java library) cannot be found or loaded.
 * {@link PeerExtension} turns it into a loudly reported skip, or into a failure under
 * {@code CI=true}; without the extension it simply fails the test.
 */
public final class PeerUnavailableException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String peer;
    private final String remedy;

    /**
     * @param peer what is missing, e.g. {@code "C++ LevelDB (g++ and libleveldb-dev)"}
     * @param reason why it is unavailable here
     * @param remedy how to provide it, e.g. {@code "apt-get install g++ libleveldb-dev"}
     * @param cause the failure that showed it, or {@code null}
     */
    public PeerUnavailableException(String peer, String reason, String remedy, Throwable cause) {
        super(peer + " is unavailable: " + reason, cause);
        this.peer = peer;
        this.remedy = remedy;
    }

    /** @return what is missing */
    public String peer() {
        return peer;
    }

    /** @return how to provide it */
    public String remedy() {
        return remedy;
    }
}
