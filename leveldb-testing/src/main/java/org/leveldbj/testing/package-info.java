/**
 * Tools for testing code that uses leveldbj, and leveldbj itself: the {@code leveldb-testing}
 * artifact, to be used in test scope.
 *
 * <h2>Environments</h2>
 * Databases reach files through an {@link org.iq80.leveldb.Env}, set with
 * {@code Options.env(...)}. {@link org.leveldbj.testing.MemEnv} keeps every file in memory (and
 * can lose what was not synced, as a power failure does);
 * {@link org.leveldbj.testing.FaultInjectionEnv} adds injected I/O errors, torn writes, a full
 * disk and {@link org.leveldbj.testing.FaultInjectionEnv#crash() crash()}, as C++ LevelDB's and
 * RocksDB's fault-injection environments do for their own crash tests;
 * {@link org.leveldbj.testing.ForwardingEnv} and
 * {@link org.leveldbj.testing.ForwardingWritableFile} are the bases for wrappers that change a few
 * calls. {@link org.leveldbj.testing.EnvContractTest} is the contract every environment keeps,
 * as a JUnit 5 test to extend for one's own environment.
 *
 * <p>Thread safety: each class states its own; the environments are safe for concurrent use.
 * Lifetime: the in-memory environments hold their files until they are dropped.
 */
package org.leveldbj.testing;
