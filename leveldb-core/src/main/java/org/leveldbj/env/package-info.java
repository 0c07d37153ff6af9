/**
 * The environment through which the engine reaches the real file system,
 * {@link org.leveldbj.env.FileSystemEnv}, the default of every database. Test environments (an
 * in-memory one, one that injects I/O errors and simulates power failures, a forwarding base for
 * wrappers) ship separately, in the {@code leveldb-testing} artifact's {@code org.leveldbj.testing}
 * package, with the contract test below.
 *
 * <h2>The contract every environment keeps</h2>
 * The interface is {@link org.iq80.leveldb.Env}; its rules, as the engine relies on them, are:
 * <ul>
 *   <li><b>Errors name the path.</b> Every failure is an {@link java.io.IOException} whose message
 *       names the file; a missing file or directory is a
 *       {@link java.nio.file.NoSuchFileException}. Negative offsets, lengths and skips are
 *       programming errors: {@link java.lang.IllegalArgumentException} giving the numbers.</li>
 *   <li><b>Reads at any offset.</b> {@code RandomAccessFile.read(offset, length)} returns a
 *       read-only buffer (position 0) of {@code min(length, size - offset)} bytes, and an empty
 *       one when {@code offset >= size}; {@code size()} is fixed when the file is opened.
 *       Sequential reads return {@code 0} at the end, and a skip past the end stops there.</li>
 *   <li><b>Use after close is an exception, never a crash.</b> Every handle's {@code close()} is
 *       idempotent; any later call throws an {@link java.io.IOException} saying the file is
 *       closed. Buffers already returned by a memory-mapped file are the one exception: they
 *       must not be touched after its close, so the engine reference-counts open tables and
 *       closes a file only when no reader holds one of its buffers.</li>
 *   <li><b>Durability.</b> Appended bytes are visible to new readers after {@code flush()};
 *       they survive a machine crash only after {@code sync()}. A new file's name, a rename and a
 *       delete survive a crash only after {@code syncDir} of the directory.</li>
 *   <li><b>Renames are atomic</b> and replace the target: a reader opening the target finds the
 *       old file or the new one, never neither.</li>
 *   <li><b>Locks are exclusive</b> against other processes and against every other database in
 *       this JVM, fail at once with {@code "lock <path>: already held by process"}, and are
 *       released by closing them.</li>
 *   <li><b>Thread safety.</b> Environments and random-access files are safe for concurrent use;
 *       sequential and writable files are used by one thread at a time.</li>
 * </ul>
 * The abstract test {@code org.leveldbj.testing.EnvContractTest} checks these rules, and every
 * environment's test extends it.
 *
 * <h2>Memory mapping</h2>
 * {@link org.leveldbj.env.FileSystemEnv} maps table files whole, read-only, and reads them without
 * copying, up to a cap on live mappings per environment; past the cap it falls back to
 * positional reads. Closing a mapped file unmaps it at once, through the foreign memory API on
 * JDK 22 and later (where touching a stale buffer throws instead of crashing) or through
 * {@code sun.misc.Unsafe.invokeCleaner} on older JDKs, found by reflection
 * ({@link org.leveldbj.util.NativeMemory} chooses, once per JVM).
 *
 * <h2>Reserved space</h2>
 * Value files ({@code *.vlog}) written through {@link org.leveldbj.env.FileSystemEnv} reserve
 * disk blocks past their end, 8 MiB at a time, before a write reaches past what is reserved
 * ({@code fallocate} with {@code FALLOC_FL_KEEP_SIZE}, through JNA, on Linux; see
 * {@code FileSpace}); the file's length stays the bytes written, so readers and recovery see
 * nothing of it, and closing the file gives back what was not written. Where JNA cannot load,
 * or would make a JDK of 24 or later warn (native access not enabled), value files are written
 * without; the system property {@code leveldbj.reserve=false} turns it off.
 */
package org.leveldbj.env;
