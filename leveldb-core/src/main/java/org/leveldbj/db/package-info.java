/**
 * The entry point, and the only package the {@code org.leveldbj.core} module exports:
 * {@link org.leveldbj.db.LevelDbFactory}, whose {@code open} returns an
 * {@link org.iq80.leveldb.ExtendedDB}. Everything else of leveldb-core is the engine, in
 * packages applications do not use; the API is the {@code org.iq80.leveldb} package of
 * leveldb-api.
 *
 * <pre>{@code
 * import static org.leveldbj.db.LevelDbFactory.*;
 *
 * try (ExtendedDB db = factory.open(new File("data"), new Options())) {
 *     db.put(bytes("key"), bytes("value"));
 * }
 * }</pre>
 */
package org.leveldbj.db;
