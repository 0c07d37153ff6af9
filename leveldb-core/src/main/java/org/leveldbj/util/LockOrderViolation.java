package org.leveldbj.util;

/**
 * Thrown by {@link OrderedLock} when a thread takes a lock against the engine's lock order, with
 * the checker on ({@link LockOrder#ENABLED}). An {@code Error}, like an assertion failure: it
 * reports a bug in the engine, which no caller should catch and carry on from. Its stack is
 * where the lock was being taken; its cause's is where the lock held was taken.
 */
public final class LockOrderViolation extends Error {
    private static final long serialVersionUID = 1L;

    /**
     * @param message the two locks, their ranks and the thread
     * @param heldTakenAt where the lock held was taken
     */
    LockOrderViolation(String message, Throwable heldTakenAt) {
        super(message, heldTakenAt);
    }
}
