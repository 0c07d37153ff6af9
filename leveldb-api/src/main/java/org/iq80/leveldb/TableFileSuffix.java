package org.iq80.leveldb;

/**
 * The suffix of the table files a database writes, set with
 * {@link Options#tableFileSuffix(TableFileSuffix)}. Table files hold the same format under
 * either name, and every reader this project knows opens both, except leveldbjni 1.8, C++
 * LevelDB before 1.14 and iq80 leveldb, which open only {@code .sst}.
 *
 * <p>This is an extension of the 0.12 API.
 */
public enum TableFileSuffix {
    /**
     * The default: {@code .sst} when the database already has table files and every one of them
     * is named {@code .sst} (it was written by leveldbjni, an old C++ LevelDB or iq80 leveldb,
     * which can then still open it after this library did), {@code .ldb} otherwise (a new or
     * empty database, or one that already has {@code .ldb} tables), as C++ LevelDB 1.23 does.
     */
    AUTO,

    /** Always {@code .ldb}, the name C++ LevelDB has written since 1.14. */
    LDB,

    /** Always {@code .sst}, the name every reader opens. */
    SST
}
