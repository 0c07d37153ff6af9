package org.leveldbj.benchmark;

/** A workload that failed; the message names the workload and the error. */
final class BenchmarkException extends Exception {
    private static final long serialVersionUID = 1L;

    BenchmarkException(String message, Throwable cause) {
        super(message, cause);
    }
}
