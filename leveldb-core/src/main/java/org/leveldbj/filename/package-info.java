/**
 * The names of the files in a database directory ({@code CURRENT}, {@code MANIFEST-NNNNNN},
 * {@code NNNNNN.log}, {@code NNNNNN.ldb} or {@code .sst}, {@code LOCK}, {@code LOG}, temporary
 * files): making them, parsing them, and writing {@code CURRENT}. A leaf: it uses only the API's
 * {@link org.iq80.leveldb.Env}, so every layer that names files can use it, as C++ LevelDB's
 * {@code db/filename.h} is used.
 */
package org.leveldbj.filename;
