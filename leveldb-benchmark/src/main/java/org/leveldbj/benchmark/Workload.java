package org.leveldbj.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The workloads, by db_bench's names, with what each changes from the flags: a fresh database,
 * fewer operations, bigger values, synchronous writes or batches.
 */
enum Workload {
    FILLSEQ("fillseq", true, Operations::writeSequential),
    FILLBATCH("fillbatch", true, Operations::writeSequential) {
        @Override
        int entriesPerBatch() {
            return 1000;
        }
    },
    /**
     * fillseq's entries loaded in bulk: written with a table writer into files of at most
     * {@link Operations#INGEST_FILE_ENTRIES} entries beside the database, then added with one
     * ingest that moves them in (leveldbj only).
     */
    FILLINGEST("fillingest", true, Operations::writeByIngest),
    FILLRANDOM("fillrandom", true, Operations::writeRandom),
    OVERWRITE("overwrite", false, Operations::writeRandom),
    FILLSYNC("fillsync", true, Operations::writeRandom) {
        @Override
        int num(int flagsNum) {
            return flagsNum / 1000;
        }

        @Override
        boolean sync() {
            return true;
        }
    },
    FILL100K("fill100K", true, Operations::writeRandom) {
        @Override
        int num(int flagsNum) {
            return flagsNum / 1000;
        }

        @Override
        int valueSize(int flagsValueSize) {
            return 100 * 1000;
        }

        @Override
        int warmupRuns(int runsForAllWrites) {
            return runsForAllWrites;
        }
    },
    READSEQ("readseq", false, Operations::readSequential) {
        @Override
        int warmupRuns(int runsForAllWrites) {
            return SCAN_WARMUP_RUNS;
        }
    },
    READREVERSE("readreverse", false, Operations::readReverse) {
        @Override
        int warmupRuns(int runsForAllWrites) {
            return SCAN_WARMUP_RUNS;
        }
    },
    READRANDOM("readrandom", false, Operations::readRandom),
    READMISSING("readmissing", false, Operations::readMissing),
    READHOT("readhot", false, Operations::readHot),
    READRANDOMSMALL("readrandomsmall", false, Operations::readRandom) {
        @Override
        int reads(int flagsReads) {
            return flagsReads / 1000;
        }
    },
    /**
     * Random reads and random writes in one stream: each operation is a read with probability
     * {@code --readwritepercent}, else a write; {@code --reads} operations per thread, cut short by
     * {@code --duration}.
     */
    READRANDOMWRITERANDOM("readrandomwriterandom", false, Operations::readRandomWriteRandom),
    /**
     * readrandom in {@code --threads} threads while one more thread writes random keys until they
     * finish; the line is the readers', the writer's latencies print as {@code write}.
     */
    READWHILEWRITING("readwhilewriting", false, Operations::readWhileWriting) {
        @Override
        Operation background() {
            return Operations::writeUntilForegroundDone;
        }
    },
    SEEKRANDOM("seekrandom", false, Operations::seekRandom),
    SEEKORDERED("seekordered", false, Operations::seekOrdered),
    DELETESEQ("deleteseq", false, Operations::deleteSequential),
    DELETERANDOM("deleterandom", false, Operations::deleteRandom),
    COMPACT("compact", false, Operations::compact),
    /** Prints the database's "leveldb.stats" property; not timed. */
    STATS("stats", false, null),
    /** Prints the database's "leveldb.sstables" property; not timed. */
    SSTABLES("sstables", false, null);

    /** One thread's part of a workload. */
    @FunctionalInterface
    interface Operation {
        void run(WorkloadContext context, ThreadState thread);
    }

    private final String benchmarkName;
    private final boolean freshDb;
    private final Operation operation;

    Workload(String benchmarkName, boolean freshDb, Operation operation) {
        this.benchmarkName = benchmarkName;
        this.freshDb = freshDb;
        this.operation = operation;
    }

    String benchmarkName() {
        return benchmarkName;
    }

    /** Whether the workload starts from an empty database. */
    boolean freshDb() {
        return freshDb;
    }

    /** The timed operation, or {@code null} for a workload that only prints. */
    Operation operation() {
        return operation;
    }

    int num(int flagsNum) {
        return flagsNum;
    }

    /**
     * The operation of one extra thread that runs beside the workload's threads until they
     * finish ({@link WorkloadContext#foregroundDone}), outside the report line; {@code null} for
     * none.
     */
    Operation background() {
        return null;
    }

    int reads(int flagsReads) {
        return flagsReads;
    }

    int valueSize(int flagsValueSize) {
        return flagsValueSize;
    }

    boolean sync() {
        return false;
    }

    /**
     * How many times the JIT warm-up runs this workload ({@link Flags#forWarmup}): once, but
     * fill100K until it made as many writes as the measured run (its few, large writes run the
     * per-block code of flushes and compactions too rarely in a fifth of them to compile it), and
     * the scans {@value #SCAN_WARMUP_RUNS} times. A scan is one call of a long loop: the JIT
     * compiles the loop while it runs, but the method holding it only from a later call on, which
     * with one or two warm-up scans was the measured scan, so that the compiler ran beside it
     * ({@code -XX:+PrintCompilation}; on a busy machine it took the scan's processor time).
     *
     * @param runsForAllWrites the runs that make as many writes as the measured run
     * @return the number of runs, at least 1
     */
    int warmupRuns(int runsForAllWrites) {
        return 1;
    }

    /** How many times the warm-up runs a scan ({@link #warmupRuns}). */
    static final int SCAN_WARMUP_RUNS = 3;

    int entriesPerBatch() {
        return 1;
    }

    /** The database property a printing workload shows. */
    String property() {
        return "leveldb." + benchmarkName.toLowerCase(Locale.ROOT);
    }

    static Workload named(String name) {
        for (Workload workload : values()) {
            if (workload.benchmarkName.equals(name)) {
                return workload;
            }
        }
        throw new IllegalArgumentException("unknown benchmark '" + name + "'");
    }

    static boolean isKnown(String name) {
        for (Workload workload : values()) {
            if (workload.benchmarkName.equals(name)) {
                return true;
            }
        }
        return false;
    }

    static List<String> names() {
        List<String> names = new ArrayList<>();
        for (Workload workload : values()) {
            names.add(workload.benchmarkName);
        }
        return names;
    }
}
