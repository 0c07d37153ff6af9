// A db_bench-style runner on C++ LevelDB (the system's libleveldb), the counterpart of
// leveldbj's bin/db-bench: the same workloads, flags, keys, values and output lines, so that
// bin/compare can run both and set their numbers side by side.
//
// Keys are key numbers zero-padded to --key_size digits ("%016d" by default) drawn from a
// Park-Miller generator (multiplier 16807, modulus 2^31 - 1); benchmark thread number n
// (counted over the whole run, from 1) is seeded with 1000 + n, exactly as leveldbj's runner
// seeds its threads, so both visit the same keys and make the same read/write choices.
// readwhilewriting starts --threads readers and then one writer, which takes the next seed.
// Values are consecutive slices of one MiB of printable bytes seeded with 301, made of
// 100-byte pieces compressible to --compression_ratio.
//
// --histogram=1 records each latency (nanoseconds since the thread's previous operation) per
// kind of operation (read, write, or op for single-kind workloads) in a log-linear histogram
// of HdrHistogram's layout with 3 significant digits; db_bench's bucket text and the
// percentiles come from it, the count, sum, sum of squares, min and max are kept exactly.
// --memory=1 prints VmRSS, VmHWM, RssAnon, RssFile and RssShmem after each timed workload; --memory_interval=S prints them
// to standard error every S seconds while the program runs.
//
// Exit codes: 0 done, 1 a workload or the database failed, 2 bad flags.

#include <leveldb/cache.h>
#include <leveldb/db.h>
#include <leveldb/filter_policy.h>
#include <leveldb/iterator.h>
#include <leveldb/options.h>
#include <leveldb/write_batch.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

constexpr int kMaxKeySize = 16;

// ---------------------------------------------------------------------------------------------
// Flags

struct Flags {
  std::vector<std::string> benchmarks = {
      "fillseq",    "fillsync", "fillrandom",  "overwrite", "readrandom",
      "readrandom", "readseq",  "readreverse", "compact",   "readrandom",
      "readseq",    "readreverse", "fill100K"};
  int num = 1000000;
  int reads = -1;
  int threads = 1;
  int value_size = 100;
  double compression_ratio = 0.5;
  bool histogram = false;
  bool use_existing_db = false;
  long long write_buffer_size = leveldb::Options().write_buffer_size;
  long long max_file_size = leveldb::Options().max_file_size;
  long long block_size = leveldb::Options().block_size;
  long long cache_size = -1;
  int open_files = leveldb::Options().max_open_files;
  int bloom_bits = -1;
  bool verify_checksums = false;
  int value_threshold = 0;  // accepted for leveldbj's flag; C++ LevelDB has no value files
  // Accepted for leveldbj's --scan=entries|buffers: this runner's scans always read each key and
  // value in place, through the iterator's slices, as db_bench does.
  std::string scan = "entries";
  int slow_op_micros = 0;  // with histogram: each operation this long or longer goes to stderr
  int large_value_percent = 0;
  int large_value_size = 100000;
  std::string db;
  bool snappy = true;
  int key_size = 16;
  int readwritepercent = 90;
  int duration = 0;         // seconds; 0: no limit
  bool memory = false;
  int memory_interval = 0;  // seconds; 0: off

  int EffectiveReads() const { return reads < 0 ? num : reads; }
};

const std::vector<std::string>& KnownBenchmarks() {
  static const std::vector<std::string> names = {
      "fillseq",     "fillbatch",  "fillrandom",  "overwrite",   "fillsync",
      "fill100K",    "readseq",    "readreverse", "readrandom",  "readmissing",
      "readhot",     "readrandomsmall", "seekrandom", "seekordered", "deleteseq",
      "deleterandom", "compact",   "stats",       "sstables",    "readrandomwriterandom",
      "readwhilewriting"};
  return names;
}

struct FlagError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

long long ParseInteger(const std::string& arg, const std::string& value, long long min,
                       long long max) {
  if (value.empty()) throw FlagError("Invalid flag '" + arg + "' (not an integer)");
  char* end = nullptr;
  errno = 0;
  long long parsed = std::strtoll(value.c_str(), &end, 10);
  if (*end != '\0' || errno != 0) {
    throw FlagError("Invalid flag '" + arg + "' (not an integer)");
  }
  if (parsed < min || parsed > max) {
    throw FlagError("Invalid flag '" + arg + "' (out of range)");
  }
  return parsed;
}

int ParseInt(const std::string& arg, const std::string& value, int min) {
  return static_cast<int>(ParseInteger(arg, value, min, INT32_MAX));
}

bool ParseBool(const std::string& arg, const std::string& value) {
  if (value == "0") return false;
  if (value == "1") return true;
  throw FlagError("Invalid flag '" + arg + "' (0 or 1)");
}

Flags ParseFlags(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; i++) {
    std::string arg = argv[i];
    size_t eq = arg.find('=');
    if (arg.rfind("--", 0) != 0 || eq == std::string::npos) {
      throw FlagError("Invalid flag '" + arg + "' (flags are --name=value)");
    }
    std::string name = arg.substr(2, eq - 2);
    std::string value = arg.substr(eq + 1);
    if (name == "benchmarks") {
      flags.benchmarks.clear();
      size_t start = 0;
      while (start <= value.size()) {
        size_t comma = value.find(',', start);
        if (comma == std::string::npos) comma = value.size();
        if (comma > start) flags.benchmarks.push_back(value.substr(start, comma - start));
        start = comma + 1;
      }
    } else if (name == "num") {
      flags.num = ParseInt(arg, value, 0);
    } else if (name == "reads") {
      flags.reads = ParseInt(arg, value, INT32_MIN);
    } else if (name == "threads") {
      flags.threads = ParseInt(arg, value, 1);
    } else if (name == "value_size") {
      flags.value_size = ParseInt(arg, value, 0);
    } else if (name == "compression_ratio") {
      char* end = nullptr;
      double parsed = std::strtod(value.c_str(), &end);
      if (value.empty() || *end != '\0' || !std::isfinite(parsed)) {
        throw FlagError("Invalid flag '" + arg + "' (not a number)");
      }
      flags.compression_ratio = parsed;
    } else if (name == "histogram") {
      flags.histogram = ParseBool(arg, value);
    } else if (name == "use_existing_db") {
      flags.use_existing_db = ParseBool(arg, value);
    } else if (name == "write_buffer_size") {
      flags.write_buffer_size = ParseInt(arg, value, 1);
    } else if (name == "max_file_size") {
      flags.max_file_size = ParseInt(arg, value, 1);
    } else if (name == "block_size") {
      flags.block_size = ParseInt(arg, value, 1);
    } else if (name == "cache_size") {
      flags.cache_size = ParseInteger(arg, value, INT64_MIN, INT64_MAX);
    } else if (name == "open_files") {
      flags.open_files = ParseInt(arg, value, 1);
    } else if (name == "large_value_percent") {
      flags.large_value_percent = ParseInt(arg, value, 0);
      if (flags.large_value_percent > 100) throw FlagError("Invalid flag '" + arg + "' (a percentage, 0 to 100)");
    } else if (name == "large_value_size") {
      flags.large_value_size = ParseInt(arg, value, 0);
    } else if (name == "slow_op_micros") {
      flags.slow_op_micros = ParseInt(arg, value, 0);
    } else if (name == "scan") {
      if (value != "entries" && value != "buffers") {
        throw FlagError("Invalid flag '" + arg + "' (entries or buffers)");
      }
      flags.scan = value;
    } else if (name == "value_threshold") {
      flags.value_threshold = ParseInt(arg, value, 0);
    } else if (name == "verify_checksums") {
      flags.verify_checksums = ParseBool(arg, value);
    } else if (name == "bloom_bits") {
      flags.bloom_bits = ParseInt(arg, value, INT32_MIN);
    } else if (name == "warmup") {
      ParseInt(arg, value, -1);  // accepted for bin/compare; native code needs no JIT warm-up
    } else if (name == "key_size") {
      flags.key_size = static_cast<int>(ParseInteger(arg, value, 1, kMaxKeySize));
    } else if (name == "readwritepercent") {
      flags.readwritepercent = static_cast<int>(ParseInteger(arg, value, 0, 100));
    } else if (name == "duration") {
      flags.duration = ParseInt(arg, value, 0);
    } else if (name == "memory") {
      flags.memory = ParseBool(arg, value);
    } else if (name == "memory_interval") {
      flags.memory_interval = ParseInt(arg, value, 0);
    } else if (name == "db") {
      if (value.empty()) throw FlagError("Invalid flag '" + arg + "' (empty path)");
      flags.db = value;
    } else if (name == "compression") {
      if (value == "none") {
        flags.snappy = false;
      } else if (value == "snappy") {
        flags.snappy = true;
      } else if (value == "zstd") {
        throw FlagError("--compression=zstd: C++ LevelDB " +
                        std::to_string(leveldb::kMajorVersion) + "." +
                        std::to_string(leveldb::kMinorVersion) + " cannot write zstd blocks");
      } else {
        throw FlagError("Invalid flag '" + arg + "' (none or snappy)");
      }
    } else {
      throw FlagError("Invalid flag '" + arg + "'");
    }
  }
  if (flags.bloom_bits == 0 || flags.bloom_bits < -1) {
    throw FlagError("Invalid flag '--bloom_bits=" + std::to_string(flags.bloom_bits) +
                    "' (-1 for none, or at least 1)");
  }
  long long key_limit = 1;  // 10^key_size: the first key number with more digits
  for (int i = 0; i < flags.key_size; i++) key_limit *= 10;
  if (static_cast<long long>(flags.num) - 1 >= key_limit) {
    throw FlagError("Invalid flag '--key_size=" + std::to_string(flags.key_size) + "' (--num=" +
                    std::to_string(flags.num) + " needs more digits)");
  }
  if (flags.compression_ratio <= 0 || flags.compression_ratio > 1) {
    throw FlagError("Invalid flag '--compression_ratio' (above 0, at most 1)");
  }
  for (const std::string& name : flags.benchmarks) {
    const auto& known = KnownBenchmarks();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += (list.empty() ? "" : ",") + k;
      throw FlagError("unknown benchmark '" + name + "' (known: " + list + ")");
    }
  }
  if (flags.use_existing_db && flags.db.empty()) {
    throw FlagError("--use_existing_db=1 needs --db=PATH");
  }
  return flags;
}

// ---------------------------------------------------------------------------------------------
// Keys, random numbers, values

// Park-Miller "minimal standard" generator: seed' = seed * 16807 mod (2^31 - 1).
class ParkMiller {
 public:
  explicit ParkMiller(uint32_t seed) : seed_(seed & 0x7fffffffu) {
    if (seed_ == 0 || seed_ == 2147483647u) seed_ = 1;
  }
  uint32_t Next() {
    seed_ = static_cast<uint32_t>((static_cast<uint64_t>(seed_) * 16807u) % 2147483647u);
    return seed_;
  }
  uint32_t Uniform(uint32_t n) { return Next() % n; }

 private:
  uint32_t seed_;
};

// Key number k zero-padded to size digits.
std::string Key(int k, int size) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%0*d", size, k);
  return buffer;
}

std::string MissingKey(int k, int size) { return Key(k, size) + "."; }

// One MiB (rounded up to whole pieces) of printable bytes in 100-byte pieces; each piece is a
// random run of 100 * ratio bytes repeated to fill it.
class ValueData {
 public:
  explicit ValueData(double ratio) {
    ParkMiller random(301);
    const int piece = 100;
    int raw = std::max(1, static_cast<int>(piece * ratio));
    while (data_.size() < (1u << 20)) {
      size_t at = data_.size();
      data_.resize(at + piece);
      for (int i = 0; i < raw && i < piece; i++) {
        data_[at + i] = static_cast<char>(' ' + random.Uniform(95));
      }
      for (int i = raw; i < piece; i++) data_[at + i] = data_[at + i - raw];
    }
  }
  const std::string& data() const { return data_; }

 private:
  std::string data_;
};

// Consecutive slices of the value data, starting over at the beginning when one would not fit.
class ValueCursor {
 public:
  explicit ValueCursor(const ValueData& data) : data_(data.data()) {}
  leveldb::Slice Next(size_t length) {
    if (length > data_.size()) throw std::runtime_error("value size above the value data");
    if (position_ + length > data_.size()) position_ = 0;
    position_ += length;
    return leveldb::Slice(data_.data() + position_ - length, length);
  }

 private:
  const std::string& data_;
  size_t position_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Measurements

int64_t NowNanos();

// When the process started, by NowNanos: the time slow operations are reported against.
int64_t ProgramStart() {
  static const int64_t start = NowNanos();
  return start;
}

int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Latencies in nanoseconds, in HdrHistogram's log-linear layout with 3 significant digits:
// values below 2048 have a bucket each; a larger value v with shift s = floor(log2 v) - 10
// (1 to 52) falls in sub-bucket v >> s (1024 to 2047) of its power of two. 2048 + 52 * 1024
// counters of 8 bytes: 432 KiB per histogram. The count, sum, sum of squares, min and max are
// kept exactly beside them; the percentiles and db_bench's bucket text (micro-second buckets
// 1..10, then 1.2, 1.4 ... 10 per decade) are read from the counters.
class Histogram {
 public:
  Histogram() : counts_(kExact + kShifts * kSubBuckets, 0) {}

  void Add(int64_t nanos) {
    uint64_t v = static_cast<uint64_t>(std::max<int64_t>(0, nanos));
    counts_[IndexOf(v)]++;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
    count_++;
    sum_ += v;
    sum_squares_ += static_cast<double>(v) * static_cast<double>(v);
  }

  void Merge(const Histogram& other) {
    min_ = std::min(min_, other.min_);
    max_ = std::max(max_, other.max_);
    count_ += other.count_;
    sum_ += other.sum_;
    sum_squares_ += other.sum_squares_;
    for (size_t i = 0; i < counts_.size(); i++) counts_[i] += other.counts_[i];
  }

  // The highest equivalent value of the first bucket at which the cumulative count reaches
  // ceil(p / 100 * count), at most the exact max, in microseconds (HdrHistogram's
  // getValueAtPercentile); 0 when empty.
  double Percentile(double p) const {
    if (count_ == 0) return 0;
    double rank = std::ceil(p / 100.0 * static_cast<double>(count_));
    uint64_t target = std::max<uint64_t>(1, static_cast<uint64_t>(rank));
    uint64_t seen = 0;
    for (size_t i = 0; i < counts_.size(); i++) {
      seen += counts_[i];
      if (seen >= target) return std::min(HighestEquivalent(i), max_) / 1000.0;
    }
    return max_ / 1000.0;
  }

  // "Percentiles: P50: ... Max: ..." in microseconds.
  std::string PercentileLine() const {
    char line[256];
    std::snprintf(line, sizeof(line),
                  "Percentiles: P50: %.2f P99: %.2f P99.9: %.2f P99.99: %.2f Max: %.2f\n",
                  Percentile(50), Percentile(99), Percentile(99.9), Percentile(99.99),
                  max_ / 1000.0);
    return line;
  }

  // db_bench's text: count, average and standard deviation; min, median and max; then the
  // non-empty micro-second buckets, each holding the counters whose lowest value falls in it.
  std::string ToString() const {
    const auto& limits = Limits();
    std::vector<uint64_t> buckets(limits.size(), 0);
    for (size_t i = 0; i < counts_.size(); i++) {
      if (counts_[i] == 0) continue;
      double micros = LowestEquivalent(i) / 1000.0;
      size_t b = std::upper_bound(limits.begin(), limits.end() - 1, micros) - limits.begin();
      buckets[b] += counts_[i];
    }
    std::string out;
    char line[256];
    double count = static_cast<double>(count_);
    double average = count_ == 0 ? 0 : static_cast<double>(sum_) / count;
    double sum = static_cast<double>(sum_);
    double variance = count_ == 0 ? 0 : (sum_squares_ * count - sum * sum) / (count * count);
    std::snprintf(line, sizeof(line), "Count: %" PRIu64 "  Average: %.4f  StdDev: %.2f\n",
                  count_, average / 1000.0, std::sqrt(std::max(0.0, variance)) / 1000.0);
    out += line;
    std::snprintf(line, sizeof(line), "Min: %.4f  Median: %.4f  Max: %.4f\n",
                  count_ == 0 ? 0.0 : min_ / 1000.0, Percentile(50), max_ / 1000.0);
    out += line;
    out += "------------------------------------------------------\n";
    uint64_t cumulative = 0;
    for (size_t b = 0; b < buckets.size(); b++) {
      if (buckets[b] == 0) continue;
      cumulative += buckets[b];
      double share = static_cast<double>(buckets[b]) / count;
      std::snprintf(line, sizeof(line), "[ %7.0f, %7.0f ) %7" PRIu64 " %7.3f%% %7.3f%% ",
                    b == 0 ? 0.0 : limits[b - 1], limits[b], buckets[b], 100.0 * share,
                    100.0 * static_cast<double>(cumulative) / count);
      out += line;
      out += std::string(static_cast<size_t>(20 * share + 0.5), '#');
      out += '\n';
    }
    return out;
  }

 private:
  static constexpr size_t kExact = 2048;      // values below have a counter each
  static constexpr size_t kSubBuckets = 1024;  // counters per power of two above
  static constexpr size_t kShifts = 52;        // s = 1 .. 52 covers values up to 2^63 - 1

  static size_t IndexOf(uint64_t v) {
    if (v < kExact) return static_cast<size_t>(v);
    int shift = 63 - __builtin_clzll(v) - 10;
    return kExact + (shift - 1) * kSubBuckets + static_cast<size_t>((v >> shift) - kSubBuckets);
  }

  static uint64_t LowestEquivalent(size_t i) {
    if (i < kExact) return i;
    int shift = static_cast<int>((i - kExact) / kSubBuckets) + 1;
    uint64_t sub = (i - kExact) % kSubBuckets + kSubBuckets;
    return sub << shift;
  }

  static uint64_t HighestEquivalent(size_t i) {
    if (i < kExact) return i;
    int shift = static_cast<int>((i - kExact) / kSubBuckets) + 1;
    return LowestEquivalent(i) + ((uint64_t{1} << shift) - 1);
  }

  // db_bench's bucket limits in microseconds; the last one catches everything above.
  static const std::vector<double>& Limits() {
    static const std::vector<double> limits = [] {
      const double steps[] = {1.2, 1.4, 1.6, 1.8, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10};
      std::vector<double> l;
      for (int i = 1; i <= 10; i++) l.push_back(i);
      for (double decade = 10; decade <= 1e9; decade *= 10) {
        for (double step : steps) {
          if (step * decade < 1e10) l.push_back(std::rint(step * decade));
        }
      }
      l.push_back(1e200);
      return l;
    }();
    return limits;
  }

  std::vector<uint64_t> counts_;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  double sum_squares_ = 0;
};

// The kinds of operation whose latencies are kept apart, in the order they are printed.
enum Kind { kRead = 0, kWrite = 1, kOp = 2, kKinds = 3 };
const char* const kKindNames[kKinds] = {"read", "write", "op"};
constexpr unsigned kOpOnly = 1u << kOp;
constexpr unsigned kReadAndWrite = (1u << kRead) | (1u << kWrite);

// What one thread measured: operations, bytes, time, latencies per kind and a message. Merged
// threads report the sum of their times over the sum of their operations, and bytes over the
// wall-clock time from the first start to the last finish.
class Stats {
 public:
  // kinds: the bit set of Kinds whose latencies are kept (when histogram is true).
  // slow_op_micros: each operation at least this long is reported to standard error, with when
  // it ended (milliseconds since the process started); 0 for none.
  Stats(bool histogram, unsigned kinds, int slow_op_micros = 0)
      : slow_op_nanos_(static_cast<int64_t>(slow_op_micros) * 1000) {
    if (histogram) {
      for (int k = 0; k < kKinds; k++) {
        if (kinds & (1u << k)) histograms_[k].reset(new Histogram());
      }
    }
    Start();
  }

  void Start() {
    start_ = NowNanos();
    finish_ = start_;
    last_op_ = start_;
    elapsed_ = 0;
    done_ = 0;
    bytes_ = 0;
    message_.clear();
  }

  void Stop() {
    finish_ = NowNanos();
    elapsed_ = finish_ - start_;
  }

  void FinishedSingleOp(Kind kind = kOp) {
    Histogram* histogram = histograms_[kind].get();
    if (histogram != nullptr) {
      int64_t now = NowNanos();
      histogram->Add(now - last_op_);
      if (slow_op_nanos_ > 0 && now - last_op_ >= slow_op_nanos_) {
        std::fprintf(stderr, "slow %s: %.1f micros, ended at %lld ms of uptime\n", kKindNames[kind],
                     (now - last_op_) / 1000.0, static_cast<long long>((now - ProgramStart()) / 1000000));
      }
      last_op_ = now;
    }
    done_++;
  }

  // Whether duration_nanos (above 0) have passed since Start.
  bool Expired(int64_t duration_nanos) const {
    return duration_nanos > 0 && NowNanos() - start_ >= duration_nanos;
  }

  int64_t done() const { return done_; }

  void AddBytes(int64_t n) { bytes_ += n; }

  void AddMessage(const std::string& text) {
    if (text.empty()) return;
    message_ = message_.empty() ? text : message_ + " " + text;
  }

  // Adds the other's latencies, kind by kind, and nothing else.
  void MergeHistograms(const Stats& other) {
    for (int k = 0; k < kKinds; k++) {
      if (other.histograms_[k] == nullptr) continue;
      if (histograms_[k] == nullptr) histograms_[k].reset(new Histogram());
      histograms_[k]->Merge(*other.histograms_[k]);
    }
  }

  void Merge(const Stats& other) {
    MergeHistograms(other);
    done_ += other.done_;
    bytes_ += other.bytes_;
    elapsed_ += other.elapsed_;
    start_ = std::min(start_, other.start_);
    finish_ = std::max(finish_, other.finish_);
    if (message_.empty()) message_ = other.message_;
  }

  // "name : micros micros/op;[ rate MB/s][ message]", as db_bench prints it, then for each
  // kind kept "Microseconds per <kind>:", its bucket text and its percentile line, each
  // block followed by an empty line once the caller ends the report with a newline.
  std::string Report(const std::string& name) const {
    int64_t ops = std::max<int64_t>(1, done_);
    double micros_per_op = elapsed_ / 1000.0 / ops;
    std::string extra;
    char buffer[64];
    if (bytes_ > 0) {
      double seconds = std::max<int64_t>(1, finish_ - start_) * 1e-9;
      std::snprintf(buffer, sizeof(buffer), "%6.1f MB/s", bytes_ / 1048576.0 / seconds);
      extra = buffer;
    }
    if (!message_.empty()) extra += (extra.empty() ? "" : " ") + message_;
    char line[128];
    std::snprintf(line, sizeof(line), "%-12s : %11.3f micros/op;", name.c_str(),
                  micros_per_op);
    std::string out = line;
    if (!extra.empty()) out += " " + extra;
    for (int k = 0; k < kKinds; k++) {
      if (histograms_[k] == nullptr) continue;
      out += std::string("\nMicroseconds per ") + kKindNames[k] + ":\n" +
             histograms_[k]->ToString() + histograms_[k]->PercentileLine();
    }
    return out;
  }

 private:
  std::unique_ptr<Histogram> histograms_[kKinds];  // null: kind not kept
  int64_t slow_op_nanos_;
  int64_t start_ = 0;
  int64_t finish_ = 0;
  int64_t last_op_ = 0;
  int64_t elapsed_ = 0;
  int64_t done_ = 0;
  int64_t bytes_ = 0;
  std::string message_;
};

// "rss=%.1f MB hwm=%.1f MB anon=%.1f MB file=%.1f MB shmem=%.1f MB": VmRSS, VmHWM, RssAnon,
// RssFile and RssShmem of /proc/self/status (the resident set now and at its peak, its
// anonymous, file and shared pages), as
// leveldbj's runner prints them before its JVM's own fields; 0 where missing.
std::string MemoryUsage() {
  const char* names[] = {"VmRSS:", "VmHWM:", "RssAnon:", "RssFile:", "RssShmem:"};
  double kb[5] = {0, 0, 0, 0, 0};
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    for (int i = 0; i < 5; i++) {
      size_t length = std::strlen(names[i]);
      if (line.compare(0, length, names[i]) == 0) kb[i] = std::strtod(line.c_str() + length, nullptr);
    }
  }
  char buffer[128];
  std::snprintf(buffer, sizeof(buffer), "rss=%.1f MB hwm=%.1f MB anon=%.1f MB file=%.1f MB shmem=%.1f MB",
                kb[0] / 1024, kb[1] / 1024, kb[2] / 1024, kb[3] / 1024, kb[4] / 1024);
  return buffer;
}

// Prints "memory at <s> s: <MemoryUsage>" to standard error every interval seconds from
// program_start (steady clock, nanoseconds) until destroyed; the destructor wakes and joins
// the thread, so it never delays the exit by more than the line it may be printing.
class MemoryReporter {
 public:
  MemoryReporter(int interval_seconds, int64_t program_start) {
    if (interval_seconds <= 0) return;
    thread_ = std::thread([this, interval_seconds, program_start] {
      auto start = std::chrono::steady_clock::time_point(std::chrono::nanoseconds(program_start));
      std::unique_lock<std::mutex> lock(mutex_);
      for (int64_t tick = 1;; tick++) {
        auto at = start + std::chrono::seconds(interval_seconds * tick);
        if (stop_changed_.wait_until(lock, at, [this] { return stop_; })) return;
        long long seconds = static_cast<long long>((NowNanos() - program_start) / 1000000000);
        std::fprintf(stderr, "memory at %lld s: %s\n", seconds, MemoryUsage().c_str());
        std::fflush(stderr);
      }
    });
  }

  ~MemoryReporter() {
    if (!thread_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    stop_changed_.notify_all();
    thread_.join();
  }

  MemoryReporter(const MemoryReporter&) = delete;
  MemoryReporter& operator=(const MemoryReporter&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable stop_changed_;
  bool stop_ = false;
  std::thread thread_;
};

// ---------------------------------------------------------------------------------------------
// Workloads

struct BenchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void Check(const leveldb::Status& status, const char* what) {
  if (!status.ok()) throw BenchError(std::string(what) + ": " + status.ToString());
}

std::string FoundMessage(int found, int num) {
  return "(" + std::to_string(found) + " of " + std::to_string(num) + " found)";
}

// The parameters a workload's threads share.
struct Context {
  leveldb::DB* db;
  const ValueData* values;
  int num;        // operations per thread of a write or delete workload
  int key_space;  // --num: random keys are drawn from [0, key_space)
  int reads;      // operations per thread of a read workload
  int value_size;
  int large_value_percent;
  int large_value_size;
  int entries_per_batch;
  int key_size;
  int readwritepercent;     // readrandomwriterandom: the share of reads
  int64_t duration_nanos;   // above 0: a time limit per thread of the workloads that honour it
  Kind read_kind;           // the kind random reads' latencies are kept as
  const std::atomic<bool>* readers_done;  // readwhilewriting: the writer stops once true
  leveldb::WriteOptions write_options;
  leveldb::ReadOptions read_options;
};

struct Thread {
  ParkMiller random;
  Stats stats;
  int64_t reads = 0;  // readrandomwriterandom's counts
  int64_t writes = 0;
  int64_t found = 0;
};

using Operation = void (*)(const Context&, Thread&);

// A random write's value size, drawn after its key, as the Java runner draws it.
int ValueSize(const Context& c, Thread& t) {
  return c.large_value_percent > 0 &&
                 static_cast<int>(t.random.Uniform(100)) < c.large_value_percent
             ? c.large_value_size
             : c.value_size;
}

void Write(const Context& c, Thread& t, bool sequential) {
  if (c.num != c.key_space) t.stats.AddMessage("(" + std::to_string(c.num) + " ops)");
  ValueCursor values(*c.values);
  int64_t bytes = 0;
  leveldb::WriteBatch batch;
  for (int i = 0; i < c.num; i += c.entries_per_batch) {
    batch.Clear();
    for (int j = 0; j < c.entries_per_batch; j++) {
      int k = sequential ? i + j : static_cast<int>(t.random.Uniform(c.key_space));
      std::string key = Key(k, c.key_size);
      int size = ValueSize(c, t);
      batch.Put(key, values.Next(size));
      bytes += size + static_cast<int64_t>(key.size());
      t.stats.FinishedSingleOp();
    }
    Check(c.db->Write(c.write_options, &batch), "put error");
  }
  t.stats.AddBytes(bytes);
}

void WriteSequential(const Context& c, Thread& t) { Write(c, t, true); }
void WriteRandom(const Context& c, Thread& t) { Write(c, t, false); }

void ReadSequential(const Context& c, Thread& t) {
  std::unique_ptr<leveldb::Iterator> it(c.db->NewIterator(c.read_options));
  int64_t bytes = 0;
  it->SeekToFirst();
  for (int i = 0; i < c.reads && it->Valid(); i++, it->Next()) {
    bytes += it->key().size() + it->value().size();
    t.stats.FinishedSingleOp();
  }
  t.stats.AddBytes(bytes);
}

void ReadReverse(const Context& c, Thread& t) {
  std::unique_ptr<leveldb::Iterator> it(c.db->NewIterator(c.read_options));
  int64_t bytes = 0;
  it->SeekToLast();
  for (int i = 0; i < c.reads && it->Valid(); i++, it->Prev()) {
    bytes += it->key().size() + it->value().size();
    t.stats.FinishedSingleOp();
  }
  t.stats.AddBytes(bytes);
}

void ReadRandom(const Context& c, Thread& t) {
  leveldb::ReadOptions options = c.read_options;
  std::string value;
  int found = 0;
  for (int i = 0; i < c.reads && !t.stats.Expired(c.duration_nanos); i++) {
    std::string key = Key(static_cast<int>(t.random.Uniform(c.key_space)), c.key_size);
    if (c.db->Get(options, key, &value).ok()) found++;
    t.stats.FinishedSingleOp(c.read_kind);
  }
  t.stats.AddMessage(FoundMessage(found, c.num));
}

// reads operations, each a read with readwritepercent% odds, else a random write.
void ReadRandomWriteRandom(const Context& c, Thread& t) {
  ValueCursor values(*c.values);
  std::string value;
  int64_t bytes = 0;
  for (int i = 0; i < c.reads && !t.stats.Expired(c.duration_nanos); i++) {
    if (static_cast<int>(t.random.Uniform(100)) < c.readwritepercent) {
      std::string key = Key(static_cast<int>(t.random.Uniform(c.key_space)), c.key_size);
      if (c.db->Get(c.read_options, key, &value).ok()) t.found++;
      t.reads++;
      t.stats.FinishedSingleOp(kRead);
    } else {
      std::string key = Key(static_cast<int>(t.random.Uniform(c.key_space)), c.key_size);
      int size = ValueSize(c, t);
      Check(c.db->Put(c.write_options, key, values.Next(size)), "put error");
      bytes += size + static_cast<int64_t>(key.size());
      t.writes++;
      t.stats.FinishedSingleOp(kWrite);
    }
  }
  t.stats.AddBytes(bytes);
}

// readwhilewriting's writer: random puts until every reader has finished.
void WriteUntilReadersDone(const Context& c, Thread& t) {
  ValueCursor values(*c.values);
  while (!c.readers_done->load(std::memory_order_acquire)) {
    std::string key = Key(static_cast<int>(t.random.Uniform(c.key_space)), c.key_size);
    int size = ValueSize(c, t);
    Check(c.db->Put(c.write_options, key, values.Next(size)), "put error");
    t.stats.FinishedSingleOp(kWrite);
  }
}

void ReadMissing(const Context& c, Thread& t) {
  leveldb::ReadOptions options = c.read_options;
  std::string value;
  for (int i = 0; i < c.reads; i++) {
    c.db->Get(options, MissingKey(static_cast<int>(t.random.Uniform(c.key_space)), c.key_size),
              &value);
    t.stats.FinishedSingleOp();
  }
}

// Random reads from the first 1% of the key space.
void ReadHot(const Context& c, Thread& t) {
  leveldb::ReadOptions options = c.read_options;
  std::string value;
  uint32_t range = static_cast<uint32_t>((static_cast<int64_t>(c.key_space) + 99) / 100);
  for (int i = 0; i < c.reads; i++) {
    c.db->Get(options, Key(static_cast<int>(t.random.Uniform(range)), c.key_size), &value);
    t.stats.FinishedSingleOp();
  }
}

// A new iterator per operation, seeking a random key.
void SeekRandom(const Context& c, Thread& t) {
  int found = 0;
  for (int i = 0; i < c.reads; i++) {
    std::string key = Key(static_cast<int>(t.random.Uniform(c.key_space)), c.key_size);
    std::unique_ptr<leveldb::Iterator> it(c.db->NewIterator(c.read_options));
    it->Seek(key);
    if (it->Valid() && it->key() == key) found++;
    t.stats.FinishedSingleOp();
  }
  t.stats.AddMessage(FoundMessage(found, c.num));
}

// One iterator seeking keys in increasing order, a random stride of under 100 apart.
void SeekOrdered(const Context& c, Thread& t) {
  std::unique_ptr<leveldb::Iterator> it(c.db->NewIterator(c.read_options));
  int found = 0;
  int k = 0;
  for (int i = 0; i < c.reads; i++) {
    k = static_cast<int>((k + t.random.Uniform(100)) % static_cast<uint32_t>(c.key_space));
    std::string key = Key(k, c.key_size);
    it->Seek(key);
    if (it->Valid() && it->key() == key) found++;
    t.stats.FinishedSingleOp();
  }
  t.stats.AddMessage(FoundMessage(found, c.num));
}

void Delete(const Context& c, Thread& t, bool sequential) {
  for (int i = 0; i < c.num; i++) {
    int k = sequential ? i : static_cast<int>(t.random.Uniform(c.key_space));
    Check(c.db->Delete(c.write_options, Key(k, c.key_size)), "delete error");
    t.stats.FinishedSingleOp();
  }
}

void DeleteSequential(const Context& c, Thread& t) { Delete(c, t, true); }
void DeleteRandom(const Context& c, Thread& t) { Delete(c, t, false); }

void Compact(const Context& c, Thread&) { c.db->CompactRange(nullptr, nullptr); }

// What a workload changes from the flags.
struct Workload {
  const char* name;
  bool fresh_db;
  Operation operation;  // null: prints a database property
  int num_divisor = 1;
  int reads_divisor = 1;
  int value_size = -1;  // -1: --value_size
  bool sync = false;
  int entries_per_batch = 1;
  unsigned kinds = kOpOnly;  // the kinds of operation whose latencies are kept apart
  bool timed = false;        // stops at --duration
  bool with_writer = false;  // plus one thread writing until the others finish
};

const Workload* FindWorkload(const std::string& name) {
  static const Workload workloads[] = {
      {"fillseq", true, WriteSequential},
      {"fillbatch", true, WriteSequential, 1, 1, -1, false, 1000},
      {"fillrandom", true, WriteRandom},
      {"overwrite", false, WriteRandom},
      {"fillsync", true, WriteRandom, 1000, 1, -1, true},
      {"fill100K", true, WriteRandom, 1000, 1, 100 * 1000},
      {"readseq", false, ReadSequential},
      {"readreverse", false, ReadReverse},
      {"readrandom", false, ReadRandom},
      {"readmissing", false, ReadMissing},
      {"readhot", false, ReadHot},
      {"readrandomsmall", false, ReadRandom, 1, 1000},
      {"seekrandom", false, SeekRandom},
      {"seekordered", false, SeekOrdered},
      {"deleteseq", false, DeleteSequential},
      {"deleterandom", false, DeleteRandom},
      {"compact", false, Compact},
      {"stats", false, nullptr},
      {"sstables", false, nullptr},
      {"readrandomwriterandom", false, ReadRandomWriteRandom, 1, 1, -1, false, 1, kReadAndWrite,
       true},
      {"readwhilewriting", false, ReadRandom, 1, 1, -1, false, 1, kReadAndWrite, true, true},
  };
  for (const Workload& w : workloads) {
    if (name == w.name) return &w;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------------------------
// The run

class Benchmark {
 public:
  Benchmark(const Flags& flags, std::string dir)
      : flags_(flags), dir_(std::move(dir)), values_(flags.compression_ratio) {
    if (flags_.cache_size >= 0) {
      cache_.reset(leveldb::NewLRUCache(static_cast<size_t>(flags_.cache_size)));
    }
    if (flags_.bloom_bits > 0) {
      filter_.reset(leveldb::NewBloomFilterPolicy(flags_.bloom_bits));
    }
  }

  ~Benchmark() { delete db_; }

  void Run() {
    if (!flags_.use_existing_db) leveldb::DestroyDB(dir_, leveldb::Options());
    Open();
    for (const std::string& name : flags_.benchmarks) RunWorkload(*FindWorkload(name));
    delete db_;
    db_ = nullptr;
  }

 private:
  void Open() {
    leveldb::Options options;
    options.create_if_missing = !flags_.use_existing_db;
    options.write_buffer_size = static_cast<size_t>(flags_.write_buffer_size);
    options.max_file_size = static_cast<size_t>(flags_.max_file_size);
    options.block_size = static_cast<size_t>(flags_.block_size);
    options.max_open_files = flags_.open_files;
    options.compression = flags_.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    options.block_cache = cache_.get();
    options.filter_policy = filter_.get();
    Check(leveldb::DB::Open(options, dir_, &db_), "open error");
  }

  void RunWorkload(const Workload& w) {
    if (w.operation == nullptr) {
      std::string value;
      bool ok = db_->GetProperty(std::string("leveldb.") + w.name, &value);
      std::printf("\n%s\n", ok ? value.c_str() : "(failed)");
      std::fflush(stdout);
      return;
    }
    if (w.fresh_db) {
      if (flags_.use_existing_db) {
        std::printf("%-12s : skipped (--use_existing_db is true)\n", w.name);
        return;
      }
      delete db_;
      db_ = nullptr;
      leveldb::DestroyDB(dir_, leveldb::Options());
      Open();
    }
    Context context;
    context.db = db_;
    context.values = &values_;
    context.num = flags_.num / w.num_divisor;
    context.key_space = flags_.num;
    context.reads = flags_.EffectiveReads() / w.reads_divisor;
    context.value_size = w.value_size < 0 ? flags_.value_size : w.value_size;
    context.large_value_percent = flags_.large_value_percent;
    context.large_value_size = flags_.large_value_size;
    context.entries_per_batch = w.entries_per_batch;
    context.key_size = flags_.key_size;
    context.readwritepercent = flags_.readwritepercent;
    context.duration_nanos = w.timed ? flags_.duration * int64_t{1000000000} : 0;
    context.read_kind = (w.kinds & (1u << kRead)) ? kRead : kOp;
    std::atomic<bool> readers_done(false);
    context.readers_done = &readers_done;
    context.write_options.sync = w.sync;
    context.read_options.verify_checksums = flags_.verify_checksums;

    // The --threads workers, then (readwhilewriting) the writer, seeded in that order.
    int workers = flags_.threads;
    int total = workers + (w.with_writer ? 1 : 0);
    unsigned worker_kinds = w.with_writer ? w.kinds & ~(1u << kWrite) : w.kinds;
    std::vector<std::unique_ptr<Thread>> states;
    for (int i = 0; i < total; i++) {
      threads_started_++;
      unsigned kinds = i < workers ? worker_kinds : 1u << kWrite;
      states.emplace_back(
          new Thread{ParkMiller(1000 + threads_started_), Stats(flags_.histogram, kinds, flags_.slow_op_micros)});
    }
    std::mutex mutex;
    std::condition_variable go;
    bool started = false;
    std::atomic<int> workers_running(workers);
    std::vector<std::string> failures(total);
    std::vector<std::thread> threads;
    for (int i = 0; i < total; i++) {
      threads.emplace_back([&, i] {
        {
          std::unique_lock<std::mutex> lock(mutex);
          go.wait(lock, [&] { return started; });
        }
        Thread& state = *states[i];
        try {
          state.stats.Start();
          if (i < workers) {
            w.operation(context, state);
          } else {
            WriteUntilReadersDone(context, state);
          }
          state.stats.Stop();
        } catch (const std::exception& e) {
          failures[i] = e.what();
        }
        if (i < workers && workers_running.fetch_sub(1) == 1) {
          readers_done.store(true, std::memory_order_release);
        }
      });
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      started = true;
    }
    go.notify_all();
    for (auto& thread : threads) thread.join();
    for (const std::string& failure : failures) {
      if (!failure.empty()) throw BenchError(std::string(w.name) + " error: " + failure);
    }
    Stats& merged = states[0]->stats;
    for (int i = 1; i < workers; i++) merged.Merge(states[i]->stats);
    if (w.operation == ReadRandomWriteRandom) {
      int64_t reads = 0, writes = 0, found = 0;
      for (int i = 0; i < workers; i++) {
        reads += states[i]->reads;
        writes += states[i]->writes;
        found += states[i]->found;
      }
      merged.AddMessage("( reads:" + std::to_string(reads) + " writes:" + std::to_string(writes) +
                        " found:" + std::to_string(found) + " )");
    }
    if (w.with_writer) {
      const Stats& writer = states[workers]->stats;
      merged.MergeHistograms(writer);  // its latencies only: its time is not in micros/op
      merged.AddMessage("(writer: " + std::to_string(writer.done()) + " writes)");
    }
    std::printf("%s\n", merged.Report(w.name).c_str());
    if (flags_.memory) std::printf("memory: %s\n", MemoryUsage().c_str());
    std::fflush(stdout);
  }

  const Flags& flags_;
  std::string dir_;
  ValueData values_;
  std::unique_ptr<leveldb::Cache> cache_;
  std::unique_ptr<const leveldb::FilterPolicy> filter_;
  leveldb::DB* db_ = nullptr;
  int threads_started_ = 0;
};

void PrintEnvironment() {
  std::fprintf(stderr, "LevelDB:    version %d.%d (C++)\n", leveldb::kMajorVersion,
               leveldb::kMinorVersion);
  std::time_t now = std::time(nullptr);
  char date[64];
  std::strftime(date, sizeof(date), "%a %b %e %H:%M:%S %Y", std::localtime(&now));
  std::fprintf(stderr, "Date:       %s\n", date);
  std::ifstream cpuinfo("/proc/cpuinfo");
  if (cpuinfo) {
    int cpus = 0;
    std::string type, cache, line;
    while (std::getline(cpuinfo, line)) {
      size_t sep = line.find(':');
      if (sep == std::string::npos) continue;
      std::string key = line.substr(0, sep);
      key.erase(key.find_last_not_of(" \t") + 1);
      std::string value = line.substr(sep + 1);
      value.erase(0, value.find_first_not_of(" \t"));
      if (key == "model name") {
        cpus++;
        type = value;
      } else if (key == "cache size") {
        cache = value;
      }
    }
    std::fprintf(stderr, "CPU:        %d * %s\nCPUCache:   %s\n", cpus, type.c_str(),
                 cache.c_str());
  }
}

void PrintHeader(const Flags& flags) {
  std::printf("Impl:       leveldb %d.%d (C++)\n", leveldb::kMajorVersion,
              leveldb::kMinorVersion);
  std::printf("Keys:       %d bytes each\n", flags.key_size);
  std::printf("Values:     %d bytes each (%d bytes after compression)\n", flags.value_size,
              static_cast<int>(flags.value_size * flags.compression_ratio + 0.5));
  std::printf("Entries:    %d\n", flags.num);
  std::printf("RawSize:    %.1f MB (estimated)\n",
              static_cast<double>(flags.key_size + flags.value_size) * flags.num / 1048576.0);
  std::printf("FileSize:   %.1f MB (estimated)\n",
              (flags.key_size + flags.value_size * flags.compression_ratio) * flags.num / 1048576.0);
  std::string cache = flags.cache_size < 0 ? "default" : std::to_string(flags.cache_size);
  std::string bloom = flags.bloom_bits < 0 ? "none" : std::to_string(flags.bloom_bits);
  std::printf(
      "Options:    compression=%s write_buffer_size=%lld max_file_size=%lld block_size=%lld"
      " cache_size=%s bloom_bits=%s open_files=%d threads=%d verify_checksums=%d key_size=%d"
      " readwritepercent=%d\n",
      flags.snappy ? "snappy" : "none", flags.write_buffer_size, flags.max_file_size,
      flags.block_size, cache.c_str(), bloom.c_str(), flags.open_files, flags.threads,
      flags.verify_checksums ? 1 : 0, flags.key_size, flags.readwritepercent);
  if (flags.value_threshold > 0) {
    std::printf("WARNING: C++ LevelDB keeps every value in its tables: --value_threshold ignored\n");
  }
  std::printf("------------------------------------------------\n");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t program_start = ProgramStart();
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::printf(
        "db_bench_cpp: leveldbj's db-bench workloads on C++ LevelDB.\n"
        "Flags (--name=value): benchmarks num reads threads value_size compression_ratio\n"
        "  histogram use_existing_db db write_buffer_size max_file_size block_size cache_size\n"
        "  open_files bloom_bits verify_checksums value_threshold scan large_value_percent large_value_size\n"
        "  compression=none|snappy\n"
        "  key_size=1..16 (keys are the key number zero-padded to that many digits; default 16)\n"
        "  readwritepercent=0..100 (readrandomwriterandom's share of reads; default 90)\n"
        "  duration=S (readrandomwriterandom and readwhilewriting's readers stop after S seconds;\n"
        "    0, the default: no limit besides --reads)\n"
        "  memory=0|1 (print VmRSS, VmHWM, RssAnon, RssFile and RssShmem after each timed workload)\n"
        "  memory_interval=S (print them to standard error every S seconds; 0, the default: off)\n"
        "  slow_op_micros=N (with histogram=1: each operation of N micros or more goes to standard\n"
        "    error, with when it ended; 0, the default: none)\n"
        "Workloads besides db_bench's: readrandomwriterandom (--reads operations per thread, each a\n"
        "  read or a random write), readwhilewriting (--threads readers and one writer that writes\n"
        "  random keys until the readers finish). --histogram=1 prints latencies per kind of\n"
        "  operation (read, write or op) with P50/P99/P99.9/P99.99/Max.\n");
    return 0;
  }
  Flags flags;
  try {
    flags = ParseFlags(argc, argv);
  } catch (const FlagError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  std::string dir = flags.db;
  bool temporary = dir.empty();
  if (temporary) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "dbbench-cpp-XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (mkdtemp(buffer.data()) == nullptr) {
      std::perror("db error: mkdtemp");
      return 1;
    }
    dir = buffer.data();
  }
  int code = 0;
  try {
    MemoryReporter memory_reporter(flags.memory_interval, program_start);
    PrintEnvironment();
    PrintHeader(flags);
    Benchmark(flags, dir).Run();
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "%s\n", e.what());
    code = 1;
  }
  if (temporary) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  return code;
}
