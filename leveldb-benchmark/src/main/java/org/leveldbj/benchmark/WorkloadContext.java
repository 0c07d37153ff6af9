package org.leveldbj.benchmark;

import org.iq80.leveldb.DB;
import org.iq80.leveldb.WriteOptions;

/** What the threads of one workload share: the database and the workload's parameters. */
final class WorkloadContext {
    final DB db;
    /** Operations each thread performs for a write or delete workload. */
    final int num;
    /** The number of keys in the key space ({@code --num}), which random keys are drawn from. */
    final int keySpace;
    /** Operations each thread performs for a read workload. */
    final int reads;
    final int valueSize;
    /** The percentage of writes whose value has {@link #largeValueSize} bytes instead. */
    final int largeValuePercent;
    final int largeValueSize;
    final int entriesPerBatch;
    final WriteOptions writeOptions;
    final ValueGenerator values;
    /** The database's directory. */
    final java.io.File dir;
    /** The keys' format ({@code --key_size}). */
    final Keys keys;
    /** The percentage of a mixed workload's operations that are reads ({@code --readwritepercent}). */
    final int readWritePercent;
    /** How long a thread of a timed-out workload may run, in nanoseconds; 0 for no limit ({@code --duration}). */
    final long durationNanos;
    /** Whether scans read entries into reused buffers ({@code --scan=buffers}) rather than as new arrays. */
    final boolean scanIntoBuffers;
    /** Set when the foreground threads of a workload have finished: its background writer stops. */
    final java.util.concurrent.atomic.AtomicBoolean foregroundDone =
            new java.util.concurrent.atomic.AtomicBoolean();

    WorkloadContext(DB db, java.io.File dir, Workload workload, Flags flags, ValueGenerator values) {
        this.db = db;
        this.dir = dir;
        this.num = workload.num(flags.num);
        this.keySpace = flags.num;
        this.reads = workload.reads(flags.effectiveReads());
        this.valueSize = workload.valueSize(flags.valueSize);
        this.largeValuePercent = flags.largeValuePercent;
        this.largeValueSize = flags.largeValueSize;
        this.entriesPerBatch = workload.entriesPerBatch();
        this.writeOptions = new WriteOptions().sync(workload.sync());
        this.values = values;
        this.keys = new Keys(flags.keySize);
        this.readWritePercent = flags.readWritePercent;
        this.durationNanos = flags.durationSeconds * 1_000_000_000L;
        this.scanIntoBuffers = flags.scanIntoBuffers;
    }
}
