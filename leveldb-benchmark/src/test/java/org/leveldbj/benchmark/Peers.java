package org.leveldbj.benchmark;

import org.leveldbj.testing.PeerExtension;
import org.leveldbj.testing.PeerUnavailableException;

/** Loads a peer for a test; one that cannot load is a {@link PeerUnavailableException} for {@link PeerExtension}. */
final class Peers {
    private Peers() {
    }

    static Impl loadOrSkip(String impl) {
        try {
            return Impls.load(impl);
        } catch (ImplUnavailableException e) {
            throw new PeerUnavailableException(impl, e.getMessage(),
                    "the peer's library for this platform (see doc/benchmarking.md)", e);
        }
    }
}
