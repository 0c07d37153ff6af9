/**
 * The database: the coordinator that ties the log, memtables, tables and versions together,
 * and the naming of the files in a database directory.
 *
 * <h2>Directory layout</h2>
 * <pre>
 * CURRENT            name of the live MANIFEST, followed by a newline
 * MANIFEST-NNNNNN    log of version edits (see org.leveldbj.version)
 * NNNNNN.log         write-ahead log of write batches
 * NNNNNN.ldb         sorted table (NNNNNN.sst is read too)
 * NNNNNN.dbtmp       temporary file
 * LOCK               locked while the database is open
 * LOG, LOG.old       human-readable info log
 * </pre>
 */
package org.leveldbj.db;
