package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;

/** Loads a peer for a test: a peer that cannot load skips the test loudly, and fails it under CI. */
final class Peers {
    private Peers() {
    }

    static Impl loadOrSkip(String impl) {
        try {
            return Impls.load(impl);
        } catch (ImplUnavailableException e) {
            if ("true".equals(System.getenv("CI"))) {
                fail(impl + " must load under CI: " + e.getMessage(), e);
            }
            System.err.println("SKIPPED: " + e.getMessage());
            Assumptions.abort(impl + " cannot load here: " + e.getMessage());
            throw new AssertionError(e);
        }
    }
}
