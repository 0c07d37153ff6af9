package org.fusesource.leveldbjni.internal;

/**
 * leveldbjni 1.8's implementation class of {@link org.iq80.leveldb.DB}, present only so that
 * code compiled against leveldbjni which tests {@code db instanceof JniDB} links and runs: no
 * database is a {@code JniDB} here (the engine's {@code DB} is its own class), so such a test is
 * false and the code takes its path for other {@code DB} implementations. Everything leveldbjni
 * offered through {@code JniDB} beyond the interface ({@code compactRange},
 * {@code suspendCompactions}, {@code resumeCompactions}, properties, approximate sizes) is part
 * of the {@code DB} interface itself.
 */
public final class JniDB {
    private JniDB() {
    }
}
