/**
 * The {@code leveldb} command-line tool: one class per command, for inspecting, querying,
 * verifying, repairing and moving the data of a database written by any LevelDB implementation.
 */
package org.leveldbj.cli;
