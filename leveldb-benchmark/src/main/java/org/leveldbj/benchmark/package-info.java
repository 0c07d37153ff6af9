/**
 * Benchmarks of the engine: JMH classes, one per documented experiment, and a runner that
 * accepts db_bench's workloads and flags and prints its output format, for side-by-side runs
 * with C++ LevelDB and the Java peers.
 */
package org.leveldbj.benchmark;
