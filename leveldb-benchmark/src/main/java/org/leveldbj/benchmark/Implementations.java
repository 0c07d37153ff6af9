package org.leveldbj.benchmark;

import org.iq80.leveldb.DBFactory;

/**
 * The implementations the db_bench runner knows, by the names its {@code --impl} flag takes
 * ({@code leveldbj}, {@code leveldbjni}, {@code iq80}, {@code rocksdb}, {@code h2}), for the JMH
 * experiments that compare them: each peer loads from its jars under the build's
 * {@code target/peers/<name>/} in a class loader of its own, once per process.
 */
public final class Implementations {
    private Implementations() {
    }

    /**
     * The factory of an implementation.
     *
     * @param name the implementation's name, as {@code --impl} gives it
     * @return its factory
     * @throws IllegalStateException if a peer's jars are missing or do not load here
     * @throws IllegalArgumentException if the name is not an implementation's
     */
    public static DBFactory factory(String name) {
        try {
            return Impls.load(name).factory();
        } catch (ImplUnavailableException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /**
     * The version of an implementation, as its jar names it.
     *
     * @param name the implementation's name
     * @return its version
     * @throws IllegalStateException if a peer's jars are missing or do not load here
     */
    public static String version(String name) {
        try {
            return Impls.load(name).version();
        } catch (ImplUnavailableException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
