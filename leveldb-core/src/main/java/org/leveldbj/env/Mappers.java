package org.leveldbj.env;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Chooses, once per JVM, how files are mapped and unmapped: the foreign memory API on JDK 22 and
 * later ({@link ForeignMapper}), else {@code sun.misc.Unsafe.invokeCleaner}
 * ({@link CleanerMapper}), else the garbage collector ({@link GcMapper}), the last choice being
 * logged once at debug level.
 *
 * <p>Thread safety: the choice is made during class initialization and never changes.
 */
final class Mappers {
    private static final Logger LOG = LoggerFactory.getLogger(Mappers.class);

    private static final Mapper BEST = choose();

    private Mappers() {
    }

    /**
     * Returns the mechanism this JVM maps files with.
     *
     * @return the preferred available mapper; never {@code null}
     */
    static Mapper best() {
        return BEST;
    }

    private static Mapper choose() {
        Mapper foreign = ForeignMapper.create();
        if (foreign != null) {
            return foreign;
        }
        Mapper cleaner = CleanerMapper.create();
        if (cleaner != null) {
            return cleaner;
        }
        LOG.debug("Neither java.lang.foreign nor sun.misc.Unsafe.invokeCleaner is available: memory-mapped "
                + "files are unmapped by the garbage collector, not when they are closed");
        return GcMapper.INSTANCE;
    }
}
