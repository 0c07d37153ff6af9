package org.leveldbj.benchmark;

import java.util.EnumSet;
import java.util.Set;
import org.iq80.leveldb.DBFactory;

/** A database implementation the runner drives through the {@code org.iq80.leveldb} API. */
final class Impl {
    /** Options an implementation may lack. */
    enum Feature {
        /** Honours {@code Options.filterPolicy} (bloom filters). */
        BLOOM_FILTER,
        /** Writes zstd-compressed blocks. */
        ZSTD,
        /** Honours {@code Options.maxFileSize}. */
        MAX_FILE_SIZE,
        /** Honours {@code Options.cacheSize} with a block cache. */
        BLOCK_CACHE,
        /** Iterates backwards (seekToLast, prev). */
        REVERSE_ITERATION
    }

    private final String name;
    private final String version;
    private final DBFactory factory;
    private final Set<Feature> features;

    Impl(String name, String version, DBFactory factory, Set<Feature> features) {
        this.name = name;
        this.version = version;
        this.factory = factory;
        this.features = features.isEmpty() ? EnumSet.noneOf(Feature.class)
                : EnumSet.copyOf(features);
    }

    /** The name the {@code --impl} flag gives. */
    String name() {
        return name;
    }

    String version() {
        return version;
    }

    DBFactory factory() {
        return factory;
    }

    boolean supports(Feature feature) {
        return features.contains(feature);
    }

    @Override
    public String toString() {
        return name + " " + version;
    }
}
