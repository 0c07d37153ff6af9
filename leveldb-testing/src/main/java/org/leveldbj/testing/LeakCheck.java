package org.leveldbj.testing;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.Env;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.opentest4j.AssertionFailedError;

/**
 * Fails a test that leaks an open file, database, iterator or snapshot. Register it per test
 * instance ({@code @RegisterExtension final LeakCheck leaks = new LeakCheck();}), open databases
 * with an environment from {@link #env(Env)} and pass each database through {@link #watch(DB)}:
 * <ul>
 *   <li>a watched database that the test closes is asked, just before it closes, how many
 *       snapshots and iterators are still open (the {@code leveldbj.num-snapshots} and
 *       {@code leveldbj.num-iterators} properties): any is a leak;</li>
 *   <li>a watched database the test never closes is a leak (the check closes it);</li>
 *   <li>after the test, every handle still open in an environment from {@link #env(Env)} is a
 *       leak, reported with the stack that opened it (an iterator left open after its
 *       database closed still holds its table files).</li>
 * </ul>
 * The leaks found fail the test after it ran, in one {@link AssertionFailedError} listing them;
 * the records are then cleared for the next test.
 *
 * <p>Thread safety: databases and environments may be used from any thread; registration and
 * the check run on the test's thread.
 */
public final class LeakCheck implements AfterEachCallback {
    /** The property naming a database's open snapshots. */
    public static final String SNAPSHOTS = "leveldbj.num-snapshots";
    /** The property naming a database's open iterators. */
    public static final String ITERATORS = "leveldbj.num-iterators";

    private final List<LeakCheckingEnv> envs = new ArrayList<>();
    private final List<Watched> databases = new ArrayList<>();
    // Guarded by this: leaks found when watched databases closed.
    private final List<String> leaks = new ArrayList<>();

    /**
     * Wraps an environment so that handles left open after the test fail it.
     *
     * @param target the environment the database really uses
     * @return the environment to put in the database's {@code Options}
     */
    public synchronized LeakCheckingEnv env(Env target) {
        LeakCheckingEnv env = new LeakCheckingEnv(target);
        envs.add(env);
        return env;
    }

    /**
     * Watches a database: its open snapshots and iterators are counted when it closes, and not
     * closing it fails the test.
     *
     * @param db a database just opened
     * @return the database to use in its place (the same object behind every interface it
     *     implements)
     */
    public synchronized DB watch(DB db) {
        Watched w = new Watched(db);
        databases.add(w);
        Set<Class<?>> interfaces = new LinkedHashSet<>();
        for (Class<?> c = db.getClass(); c != null; c = c.getSuperclass()) {
            collectInterfaces(c, interfaces);
        }
        return (DB) Proxy.newProxyInstance(db.getClass().getClassLoader(), interfaces.toArray(new Class<?>[0]), w);
    }

    private static void collectInterfaces(Class<?> c, Set<Class<?>> into) {
        for (Class<?> i : c.getInterfaces()) {
            if (into.add(i)) {
                collectInterfaces(i, into);
            }
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        List<String> found = new ArrayList<>();
        List<Watched> dbs;
        List<LeakCheckingEnv> es;
        synchronized (this) {
            found.addAll(leaks);
            leaks.clear();
            dbs = new ArrayList<>(databases);
            databases.clear();
            es = new ArrayList<>(envs);
            envs.clear();
        }
        for (Watched w : dbs) {
            if (!w.isClosed()) {
                found.add("database " + w.db + " was never closed");
                w.closeNow();
            }
        }
        for (LeakCheckingEnv env : es) {
            found.addAll(env.openHandles());
        }
        if (!found.isEmpty()) {
            throw new AssertionFailedError(context.getDisplayName() + " leaked " + found.size() + ":\n"
                    + String.join("\n", found));
        }
    }

    private synchronized void leak(String what) {
        leaks.add(what);
    }

    /** A watched database: counts what is open when its {@code close} is called. */
    private final class Watched implements InvocationHandler {
        private final DB db;
        private boolean closed;

        Watched(DB db) {
            this.db = db;
        }

        synchronized boolean isClosed() {
            return closed;
        }

        synchronized void closeNow() throws Exception {
            if (!closed) {
                closed = true;
                db.close();
            }
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            if (method.getName().equals("close") && method.getParameterCount() == 0) {
                synchronized (this) {
                    if (!closed) {
                        count(SNAPSHOTS, "snapshot");
                        count(ITERATORS, "iterator");
                        closed = true;
                    }
                }
            }
            if (method.getDeclaringClass() == Object.class) {
                switch (method.getName()) {
                    case "equals":
                        return proxy == args[0];
                    case "hashCode":
                        return System.identityHashCode(proxy);
                    default:
                        break;
                }
            }
            try {
                return method.invoke(db, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        private void count(String property, String what) {
            String value;
            try {
                value = db.getProperty(property);
            } catch (RuntimeException e) {
                return; // closed already by another path: nothing left to count
            }
            int n = value == null ? 0 : Integer.parseInt(value);
            if (n > 0) {
                leak("database " + db + " closed with " + n + " " + what + (n == 1 ? "" : "s") + " still open");
            }
        }
    }
}
