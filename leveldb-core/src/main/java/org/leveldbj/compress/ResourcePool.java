package org.leveldbj.compress;

import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A small bounded set of reusable objects (decoder state, native contexts) that one call borrows
 * and returns. When every slot is empty a new object is made; when every slot is full a returned
 * object is disposed of, so at most {@code capacity} objects stay alive between calls whatever the
 * number of threads (unlike a thread-local, which keeps one per thread and never frees native
 * memory of threads that end).
 *
 * <p>Thread safety: lock-free; {@link #acquire()} and {@link #release(Object)} may be called from
 * any thread. An object is used by one borrower at a time.
 *
 * <p>Lifetime: pooled objects live as long as the pool; codecs keep their pools for the life of
 * the process.
 */
final class ResourcePool<T> {
    private final AtomicReferenceArray<T> slots;
    private final Supplier<? extends T> factory;
    private final Consumer<? super T> disposer;

    /**
     * @param capacity how many idle objects to keep, at least 1
     * @param factory makes a new object when none is idle
     * @param disposer frees an object the pool has no room for
     */
    ResourcePool(int capacity, Supplier<? extends T> factory, Consumer<? super T> disposer) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity " + capacity + " < 1");
        }
        this.slots = new AtomicReferenceArray<>(capacity);
        this.factory = factory;
        this.disposer = disposer;
    }

    /** A capacity suited to the machine: two idle objects per processor, at least four. */
    static int defaultCapacity() {
        return Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    }

    /** Takes an idle object, or makes one. The caller must {@link #release} it when done. */
    T acquire() {
        int n = slots.length();
        int start = startSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (start + i) % n;
            T candidate = slots.get(slot);
            if (candidate != null && slots.compareAndSet(slot, candidate, null)) {
                return candidate;
            }
        }
        return factory.get();
    }

    /** Gives back an object taken with {@link #acquire()}; it must not be used afterwards. */
    void release(T object) {
        int n = slots.length();
        int start = startSlot(n);
        for (int i = 0; i < n; i++) {
            int slot = (start + i) % n;
            if (slots.get(slot) == null && slots.compareAndSet(slot, null, object)) {
                return;
            }
        }
        disposer.accept(object);
    }

    /** The number of idle objects held, for tests. */
    int idle() {
        int count = 0;
        for (int i = 0; i < slots.length(); i++) {
            count += slots.get(i) != null ? 1 : 0;
        }
        return count;
    }

    /** Spreads threads over the slots so that they rarely contend for the same one. */
    private static int startSlot(int n) {
        long id = Thread.currentThread().getId();
        return (int) ((id ^ (id >>> 16)) & Integer.MAX_VALUE) % n;
    }
}
