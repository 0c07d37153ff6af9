package org.leveldbj.util;

import java.util.concurrent.TimeUnit;

/**
 * A reentrant lock with a place in the engine's lock order ({@link LockRank}). With
 * {@link LockOrder#ENABLED} off (production) it is a plain {@link java.util.concurrent.locks.ReentrantLock}:
 * the checks sit behind a constant the JIT folds away. With it on (every test, the crash test),
 * {@link #lock()} first checks the order and throws {@link LockOrderViolation} instead of
 * acquiring against it; {@link #tryLock()} cannot deadlock and is not checked, but the lock it
 * takes counts as held. Waiting on a {@link java.util.concurrent.locks.Condition} of this lock
 * keeps it counted as held: the waiting thread takes nothing meanwhile.
 *
 * <p>Thread safety: as {@code ReentrantLock}.
 */
public final class OrderedLock extends java.util.concurrent.locks.ReentrantLock {
    private static final long serialVersionUID = 1L;

    private final LockRank rank;

    /**
     * @param rank the lock's place in the order
     */
    public OrderedLock(LockRank rank) {
        this.rank = rank;
    }

    /** @return the lock's place in the order */
    public LockRank rank() {
        return rank;
    }

    @Override
    public void lock() {
        if (LockOrder.ENABLED && !isHeldByCurrentThread()) {
            LockOrder.check(this);
            super.lock();
            LockOrder.acquired(this);
        } else {
            super.lock();
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        if (LockOrder.ENABLED && !isHeldByCurrentThread()) {
            LockOrder.check(this);
            super.lockInterruptibly();
            LockOrder.acquired(this);
        } else {
            super.lockInterruptibly();
        }
    }

    @Override
    public boolean tryLock() {
        boolean first = LockOrder.ENABLED && !isHeldByCurrentThread();
        boolean locked = super.tryLock();
        if (first && locked) {
            LockOrder.acquired(this);
        }
        return locked;
    }

    @Override
    public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
        boolean first = LockOrder.ENABLED && !isHeldByCurrentThread();
        boolean locked = super.tryLock(timeout, unit);
        if (first && locked) {
            LockOrder.acquired(this);
        }
        return locked;
    }

    @Override
    public void unlock() {
        super.unlock();
        if (LockOrder.ENABLED && !isHeldByCurrentThread()) {
            LockOrder.released(this);
        }
    }

    @Override
    public String toString() {
        return rank + "@" + Integer.toHexString(System.identityHashCode(this));
    }
}
