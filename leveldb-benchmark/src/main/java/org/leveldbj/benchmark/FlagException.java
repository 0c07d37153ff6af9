package org.leveldbj.benchmark;

/** A command line the runner cannot accept; its message is the one line shown to the user. */
final class FlagException extends Exception {
    private static final long serialVersionUID = 1L;

    FlagException(String message) {
        super(message);
    }
}
