package org.leveldbj.benchmark;

/** An implementation that cannot be loaded here; the message says why and what to do. */
final class ImplUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    ImplUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
