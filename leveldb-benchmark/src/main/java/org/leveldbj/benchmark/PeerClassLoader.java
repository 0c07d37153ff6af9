package org.leveldbj.benchmark;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * The class loader of one peer implementation: its jars, behind the runner's class loader.
 * Delegation is parent-first, so the {@code org.iq80.leveldb} API always comes from the runner
 * (leveldbjni-all bundles an old copy of it that must not shadow ours) and the runner and the
 * peer share one set of interfaces. The one exception is an adapter package of the runner that
 * links against the peer's classes: those classes are defined here, child-first, so that they
 * see the peer.
 */
final class PeerClassLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final String childFirstPrefix;

    /**
     * @param urls the peer's jars, and for an adapter the location of the runner's classes
     * @param childFirstPackage the adapter's package, or {@code null}
     */
    PeerClassLoader(String name, URL[] urls, ClassLoader parent, String childFirstPackage) {
        super(name, urls, parent);
        this.childFirstPrefix = childFirstPackage == null ? null : childFirstPackage + ".";
    }

    @Override
    protected Class<?> loadClass(String className, boolean resolve)
            throws ClassNotFoundException {
        if (childFirstPrefix == null || !className.startsWith(childFirstPrefix)) {
            return super.loadClass(className, resolve);
        }
        synchronized (getClassLoadingLock(className)) {
            Class<?> loaded = findLoadedClass(className);
            if (loaded == null) {
                loaded = findClass(className);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }
}
