package org.iq80.leveldb;

/**
 * The suffix of the table files a database writes, set with
 * {@link Options#tableFileSuffix(TableFileSuffix)}. Table files hold the same format under
 * either name. Every LevelDB reader opens {@code .sst}: C++ LevelDB (which has written
 * {@code .ldb} since 1.14 and still opens {@code .sst}), goleveldb, and leveldbjni 1.8, iq80
 * leveldb and C++ LevelDB before 1.14, which open nothing else. {@code .ldb} tables are
 * invisible to the last three: they fail to open such a database with
 * {@code "Corruption: N missing files"}.
 *
 * <p>This is an extension of the 0.12 API.
 */
public enum TableFileSuffix {
    /**
     * The default: {@code .ldb} when the directory already holds an {@code .ldb} table (a
     * database written by C++ LevelDB 1.14 or later, which the older readers cannot open
     * anyway), {@code .sst} otherwise: for a new database, for one with no table yet (leveldbjni
     * creates a database and keeps its first writes in the log), and for one whose tables are
     * all {@code .sst}. So every database that leveldbjni 1.8, iq80 leveldb or an old C++
     * LevelDB could open stays one they can open after this library wrote to it (zstd
     * compression aside, which they cannot decode).
     */
    AUTO,

    /** Always {@code .ldb}, the name C++ LevelDB has written since 1.14. */
    LDB,

    /** Always {@code .sst}, the name every reader opens. */
    SST
}
