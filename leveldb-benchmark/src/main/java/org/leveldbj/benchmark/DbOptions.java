package org.leveldbj.benchmark;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.iq80.leveldb.CompressionType;
import org.iq80.leveldb.FilterPolicy;
import org.iq80.leveldb.Options;

/**
 * The database options of a run: the flags translated for one implementation. An option the
 * implementation lacks is handled in one of two ways:
 * <ul>
 *   <li>a bloom filter, a block cache size or a file size it cannot honour is left out, and the
 *       header says so in a WARNING line: the run still compares the rest; so is readreverse
 *       on an implementation that cannot iterate backwards;
 *   <li>zstd compression it cannot write is refused ({@link FlagException}): without it the
 *       files and the timings would be of a different kind altogether.
 * </ul>
 */
final class DbOptions {
    private final Options options;
    private final List<String> warnings;

    private DbOptions(Options options, List<String> warnings) {
        this.options = options;
        this.warnings = Collections.unmodifiableList(warnings);
    }

    static DbOptions of(Flags flags, Impl impl) throws FlagException {
        List<String> warnings = new ArrayList<>();
        Options options = new Options()
                .createIfMissing(!flags.useExistingDb)
                .writeBufferSize(flags.writeBufferSize)
                .blockSize(flags.blockSize)
                .maxOpenFiles(flags.openFiles)
                .compressionType(flags.compression)
                // C++ LevelDB checks block checksums only when a read asks; the API's default
                // (true, from leveldb-api 0.12) would check every block.
                .verifyChecksums(flags.verifyChecksums);
        if (flags.compression == CompressionType.ZSTD && !impl.supports(Impl.Feature.ZSTD)) {
            throw new FlagException("--compression=zstd: " + impl + " cannot write zstd blocks"
                    + " (leveldbj and rocksdb can)");
        }
        if (flags.valueThreshold > 0) {
            if (impl.name().equals("leveldbj")) {
                options.valueThreshold(flags.valueThreshold);
            } else {
                warnings.add(impl + " keeps every value in its tables: --value_threshold ignored");
            }
        }
        if (flags.maxFileSize != new Options().maxFileSize()) {
            if (impl.supports(Impl.Feature.MAX_FILE_SIZE)) {
                options.maxFileSize(flags.maxFileSize);
            } else {
                warnings.add(impl + " has a fixed table file size: --max_file_size ignored");
            }
        }
        if (flags.cacheSize >= 0) {
            if (impl.supports(Impl.Feature.BLOCK_CACHE)) {
                options.cacheSize(flags.cacheSize);
                if (flags.cacheSize == 0) {
                    warnings.add(impl + " reads a cache size of 0 as its default (8 MiB),"
                            + " unlike db_bench's --cache_size=0 (no cache)");
                }
            } else {
                warnings.add(impl + " has no block cache: --cache_size ignored");
            }
        }
        if (flags.bloomBits > 0) {
            if (impl.supports(Impl.Feature.BLOOM_FILTER)) {
                options.filterPolicy(FilterPolicy.bloom(flags.bloomBits));
            } else {
                warnings.add(impl + " has no bloom filters: --bloom_bits ignored");
            }
        }
        if (!impl.supports(Impl.Feature.REVERSE_ITERATION)
                && flags.benchmarks.contains(Workload.READREVERSE.benchmarkName())) {
            warnings.add(impl + " cannot iterate backwards: readreverse is skipped");
        }
        if (impl.name().equals("h2")) {
            warnings.add("h2 is an MVStore, not an LSM tree: one file (data.mv.db), "
                    + (flags.compression == CompressionType.NONE ? "no compression" : "LZF-compressed pages")
                    + ", a page cache of --cache_size (8 MiB by default); no write-ahead log: writes are"
                    + " committed by MVStore's auto-commit (every second or 1 MiB), a sync write commits and"
                    + " fsyncs; --write_buffer_size and --block_size do not apply");
        }
        return new DbOptions(options, warnings);
    }

    /** Options for opening the database; a fresh copy each time. */
    Options options() {
        return new Options(options);
    }

    /** What the implementation left out, one line each. */
    List<String> warnings() {
        return warnings;
    }
}
