package org.leveldbj.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ResourcePoolTest {

    @Test
    void reusesReturnedObjectsAndDisposesOverflow() {
        AtomicInteger made = new AtomicInteger();
        List<Object> disposed = new ArrayList<>();
        ResourcePool<Object> pool = new ResourcePool<>(2, () -> made.incrementAndGet(), disposed::add);
        Object a = pool.acquire();
        pool.release(a);
        assertSame(a, pool.acquire());
        Object b = pool.acquire();
        Object c = pool.acquire();
        assertEquals(3, made.get());
        pool.release(a);
        pool.release(b);
        pool.release(c);
        assertEquals(2, pool.idle());
        assertEquals(List.of(c), disposed);
    }

    @Test
    void neverHandsOneObjectToTwoBorrowers() throws InterruptedException {
        Set<Object> inUse = ConcurrentHashMap.newKeySet();
        AtomicInteger violations = new AtomicInteger();
        ResourcePool<Object> pool = new ResourcePool<>(3, Object::new, o -> {});
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(new Thread(() -> {
                for (int i = 0; i < 20_000; i++) {
                    Object o = pool.acquire();
                    if (!inUse.add(o)) {
                        violations.incrementAndGet();
                    }
                    inUse.remove(o);
                    pool.release(o);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(0, violations.get());
        assertTrue(pool.idle() <= 3);
    }
}
