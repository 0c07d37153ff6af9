package org.leveldbj.benchmark;

/** The text of {@code --help}. */
final class Usage {
    static final String TEXT = String.join("\n",
            "Usage: db-bench [--flag=value ...]   (db_bench's flags and workloads)",
            "",
            "  --benchmarks=a,b,...     workloads, in order (default: "
                    + String.join(",", Flags.DEFAULT_BENCHMARKS) + ")",
            "                           known: " + String.join(",", Workload.names()),
            "  --num=N                  entries (1000000)",
            "  --reads=N                reads per read workload; -1 means --num (-1)",
            "  --threads=N              threads per workload, each doing the full count (1)",
            "  --value_size=N           bytes per value (100)",
            "  --compression_ratio=F    compressed size of values over raw size (0.5)",
            "  --histogram=0|1          latency histogram and percentiles per workload and kind of",
            "                           operation, microseconds (0)",
            "  --use_existing_db=0|1    keep and reuse the database at --db (0)",
            "  --db=PATH                database directory (default: a temporary directory,"
                    + " deleted at the end)",
            "  --write_buffer_size=N    memtable size in bytes (4194304)",
            "  --max_file_size=N        table file size in bytes (2097152)",
            "  --block_size=N           block size in bytes (4096)",
            "  --cache_size=N           block cache bytes; -1 for the default (-1)",
            "  --open_files=N           maximum open files (1000)",
            "  --bloom_bits=N           bloom filter bits per key; -1 for none (-1)",
            "  --large_value_percent=P  percentage of writes with a value of --large_value_size",
            "                           bytes instead (0)",
            "  --large_value_size=N     the size of those values (100000)",
            "  --value_threshold=N      keep values of N bytes or more in value files (leveldbj);",
            "                           0 for none (0)",
            "  --verify_checksums=0|1   check every block's checksum when reading it; 0 is",
            "                           C++ LevelDB's default (its ReadOptions) (0)",
            "  --compression=none|snappy|zstd   block compression (snappy)",
            "  --key_size=N             digits of a key, the key number zero-padded (16)",
            "  --readwritepercent=P     readrandomwriterandom's share of reads, in percent (90)",
            "  --duration=S             stop readrandomwriterandom and readwhilewriting's readers",
            "                           after S seconds; 0 for no limit (0)",
            "  --memory=0|1             a memory line after each workload: resident set (now and",
            "                           peak), heap, direct and mapped buffers (0)",
            "  --memory_interval=S      print that line to standard error every S seconds; 0 for",
            "                           never (0)",
            "  --slow_op_micros=N       with --histogram=1, report each operation of N micros or",
            "                           more to standard error, with when it ended (0: none) (0)",
            "  --scan=entries|buffers   how readseq and readreverse read: entries makes the 0.12",
            "                           API's next() entries, new arrays each; buffers copies each",
            "                           key and value into reused buffers (ExtendedDBIterator,",
            "                           leveldbj only) (entries)",
            "  --impl=leveldbj|iq80|leveldbjni|rocksdb|h2   implementation (leveldbj)",
            "  --warmup=N               before measuring, run the same workloads on N entries in a",
            "                           scratch database so the JIT has compiled the code paths;",
            "                           0 measures a cold JVM; -1 is --num/5, at most "
                    + Flags.MAX_AUTO_WARMUP + " (-1)",
            "",
            "Options an implementation lacks (bloom filters, block cache, file size, reverse",
            "iteration) are left out with a WARNING in the header; --compression=zstd is refused",
            "where the implementation cannot write zstd.",
            "");

    private Usage() {
    }
}
