/**
 * The {@code leveldb} command-line tool: one class per command, for inspecting, querying,
 * verifying, repairing and moving the data of a database written by any LevelDB implementation.
 *
 * <p>{@link org.leveldbj.cli.Main} wires the commands (picocli) to the streams, turns failures
 * into one line on standard error and an exit code ({@code Errors}, {@code ExitCode}). Commands
 * that only read open the database with the engine's read-only mode and change no file;
 * {@code verify} and {@code dump} read the files directly through the engine's readers
 * ({@code TableWalker}, {@code LogFile}, {@code Manifest}), never opening the database.
 */
package org.leveldbj.cli;
