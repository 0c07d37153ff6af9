// leveldb_peer: writes and verifies LevelDB databases described by a recipe,
// using the C++ LevelDB library. See interop/RECIPES.md for the recipe format.
//
//   leveldb_peer write  <dir> <recipe>
//   leveldb_peer verify [--count-reads] <dir> <recipe>
//   leveldb_peer dump   <file>
//   leveldb_peer stats  <dir> [<recipe>]
//   leveldb_peer logseq <dir>
//   leveldb_peer expand <recipe>

#include <dirent.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "leveldb/cache.h"
#include "leveldb/comparator.h"
#include "leveldb/db.h"
#include "leveldb/dumpfile.h"
#include "leveldb/env.h"
#include "leveldb/filter_policy.h"
#include "leveldb/write_batch.h"

namespace {

const char kReverseName[] = "leveldbj.ReverseBytewiseComparator";

[[noreturn]] void Die(int code, const std::string& msg) {
  std::fprintf(stderr, "leveldb_peer: %s\n", msg.c_str());
  std::exit(code);
}
[[noreturn]] void Fail(const std::string& msg) { Die(1, msg); }

void Check(const leveldb::Status& s, const std::string& what) {
  if (!s.ok()) Fail(what + ": " + s.ToString());
}

std::string Hex(const std::string& s, size_t limit = 32) {
  static const char* d = "0123456789abcdef";
  std::string r;
  for (size_t i = 0; i < s.size() && i < limit; i++) {
    r += d[(unsigned char)s[i] >> 4];
    r += d[(unsigned char)s[i] & 15];
  }
  if (s.empty()) r = "-";
  if (s.size() > limit) r += "...(" + std::to_string(s.size()) + " bytes)";
  return r;
}

// ---------------------------------------------------------------- comparator

class ReverseBytewise : public leveldb::Comparator {
 public:
  int Compare(const leveldb::Slice& a, const leveldb::Slice& b) const override {
    return -a.compare(b);
  }
  const char* Name() const override { return kReverseName; }
  void FindShortestSeparator(std::string*, const leveldb::Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

// ---------------------------------------------------------------- recipe

// splitmix64: the generator every peer implements identically.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t Next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t Uniform(uint64_t n) { return Next() % n; }
  std::string Bytes(size_t len) {
    std::string r(len, '\0');
    for (size_t i = 0; i < len; i += 8) {
      uint64_t v = Next();
      for (size_t j = 0; j < 8 && i + j < len; j++) r[i + j] = char(v >> (8 * j));
    }
    return r;
  }
};

struct Op {
  enum Kind { kPut, kDelete, kBatchBegin, kBatchEnd, kFlush, kCompact, kReopen,
              kSnapshot, kVerifySnapshot, kCheck } kind;
  std::string key, value;  // value is also the snapshot name
  int line;
};

struct Recipe {
  bool snappy = true, reverse = false;
  int block_size = 4096, restart_interval = 16, bloom_bits = 0;
  size_t write_buffer_size = 4 << 20, max_file_size = 2 << 20;
  std::vector<Op> ops;
};

struct LineError {
  std::string msg;
};

uint64_t ParseNum(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    throw LineError{"bad number '" + s + "'"};
  return std::strtoull(s.c_str(), nullptr, 10);
}

std::string ParseHex(const std::string& s) {
  if (s == "-") return "";
  if (s.size() % 2 != 0 || s.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
    throw LineError{"bad hex '" + s + "'"};
  std::string r;
  for (size_t i = 0; i < s.size(); i += 2) r += char(std::stoi(s.substr(i, 2), nullptr, 16));
  return r;
}

// A value token: hex, "-", rand:<seed>:<len> or repeat:<hexbyte>:<len>.
std::string ParseValue(const std::string& s) {
  size_t a = s.find(':');
  if (a == std::string::npos) return ParseHex(s);
  size_t b = s.find(':', a + 1);
  if (b == std::string::npos) throw LineError{"bad value '" + s + "'"};
  std::string kind = s.substr(0, a), arg = s.substr(a + 1, b - a - 1);
  uint64_t len = ParseNum(s.substr(b + 1));
  if (kind == "rand") return Rng(ParseNum(arg)).Bytes(len);
  if (kind == "repeat") {
    std::string c = ParseHex(arg);
    if (c.size() != 1) throw LineError{"repeat needs one byte"};
    return std::string(len, c[0]);
  }
  throw LineError{"bad value '" + s + "'"};
}

void Generate(const std::vector<std::string>& t, int line, std::vector<Op>* out) {
  if (t.size() < 4) throw LineError{"usage: gen <kind> <seed> <count> [param=value]..."};
  const std::string& kind = t[1];
  Rng rng(ParseNum(t[2]));
  uint64_t count = ParseNum(t[3]);
  std::map<std::string, std::string> p;
  if (kind == "seq") p = {{"start", "0"}, {"step", "1"}, {"vmin", "0"}, {"vmax", "100"}, {"prefix", "-"}, {"vkind", "rand"}};
  else if (kind == "binary") p = {{"kmin", "0"}, {"kmax", "24"}, {"vmin", "0"}, {"vmax", "64"}, {"vkind", "rand"}};
  else if (kind == "churn") p = {{"keys", "64"}, {"vmin", "1"}, {"vmax", "32"}, {"prefix", "63"}, {"vkind", "rand"}};
  else throw LineError{"unknown generator '" + kind + "'"};
  for (size_t i = 4; i < t.size(); i++) {
    size_t eq = t[i].find('=');
    if (eq == std::string::npos || !p.count(t[i].substr(0, eq)))
      throw LineError{"bad parameter '" + t[i] + "' for gen " + kind};
    p[t[i].substr(0, eq)] = t[i].substr(eq + 1);
  }
  auto num = [&](const char* k) { return ParseNum(p[k]); };
  uint64_t vmin = num("vmin"), vmax = num("vmax");
  if (vmax < vmin) throw LineError{"vmax < vmin"};
  if (p["vkind"] != "rand" && p["vkind"] != "half") throw LineError{"vkind must be rand or half"};
  bool half = p["vkind"] == "half";  // half: random first half, zero second half
  auto value = [&]() {
    uint64_t len = vmin + rng.Uniform(vmax - vmin + 1);
    return half ? rng.Bytes(len / 2) + std::string(len - len / 2, '\0') : rng.Bytes(len);
  };
  for (uint64_t i = 0; i < count; i++) {
    Op op{Op::kPut, "", "", line};
    char buf[32];
    if (kind == "seq") {
      std::snprintf(buf, sizeof buf, "%012" PRIu64, num("start") + i * num("step"));
      op.key = ParseHex(p["prefix"]) + buf;
      op.value = value();
    } else if (kind == "binary") {
      uint64_t kmin = num("kmin"), kmax = num("kmax");
      if (kmax < kmin) throw LineError{"kmax < kmin"};
      uint64_t klen = kmin + rng.Uniform(kmax - kmin + 1);
      for (uint64_t j = 0; j < klen; j++) {
        uint64_t c = rng.Uniform(4);
        op.key += char(c == 0 ? 0x00 : c == 1 ? 0xff : rng.Uniform(256));
      }
      op.value = value();
    } else {  // churn
      std::snprintf(buf, sizeof buf, "%06" PRIu64, rng.Uniform(num("keys")));
      op.key = ParseHex(p["prefix"]) + buf;
      uint64_t r = rng.Uniform(100);
      if (r < 30) op.kind = Op::kDelete;
      else if (r >= 40) op.value = value();
    }
    out->push_back(op);
  }
}

Recipe LoadRecipe(const std::string& path) {
  std::ifstream in(path);
  if (!in) Die(2, "cannot read recipe " + path);
  Recipe r;
  std::string text;
  int line = 0;
  bool in_batch = false;
  while (std::getline(in, text)) {
    line++;
    text = text.substr(0, text.find('#'));
    std::istringstream ss(text);
    std::vector<std::string> t;
    for (std::string w; ss >> w;) t.push_back(w);
    if (t.empty()) continue;
    try {
      const std::string& c = t[0];
      auto want = [&](size_t n) {
        if (t.size() != n) throw LineError{"'" + c + "' takes " + std::to_string(n - 1) + " argument(s)"};
      };
      auto simple = [&](Op::Kind k) { r.ops.push_back(Op{k, "", "", line}); };
      bool in_batch_ok = c == "put" || c == "delete" || c == "gen" || (c == "batch" && t.size() > 1 && t[1] == "end");
      if (in_batch && !in_batch_ok) throw LineError{"'" + c + "' inside a batch"};
      if (c == "option") {
        want(2);
        if (!r.ops.empty()) throw LineError{"options must come before the first step"};
        size_t eq = t[1].find('=');
        std::string k = t[1].substr(0, eq), v = eq == std::string::npos ? "" : t[1].substr(eq + 1);
        if (k == "compression" && (v == "snappy" || v == "none")) r.snappy = v == "snappy";
        else if (k == "comparator" && (v == "bytewise" || v == "reverse")) r.reverse = v == "reverse";
        else if (k == "block_size") r.block_size = ParseNum(v);
        else if (k == "restart_interval") r.restart_interval = ParseNum(v);
        else if (k == "bloom_bits") r.bloom_bits = ParseNum(v);
        else if (k == "write_buffer_size") r.write_buffer_size = ParseNum(v);
        else if (k == "max_file_size") r.max_file_size = ParseNum(v);
        else throw LineError{"unknown option '" + t[1] + "'"};
      } else if (c == "put") {
        want(3);
        r.ops.push_back(Op{Op::kPut, ParseHex(t[1]), ParseValue(t[2]), line});
      } else if (c == "delete") {
        want(2);
        r.ops.push_back(Op{Op::kDelete, ParseHex(t[1]), "", line});
      } else if (c == "gen") {
        Generate(t, line, &r.ops);
      } else if (c == "batch") {
        want(2);
        if (t[1] == "begin" && !in_batch) in_batch = true, simple(Op::kBatchBegin);
        else if (t[1] == "end" && in_batch) in_batch = false, simple(Op::kBatchEnd);
        else throw LineError{"unbalanced 'batch " + t[1] + "'"};
      } else if (c == "flush" || c == "compact" || c == "reopen" || c == "check") {
        want(1);
        simple(c == "flush" ? Op::kFlush : c == "compact" ? Op::kCompact : c == "reopen" ? Op::kReopen : Op::kCheck);
      } else if (c == "snapshot" || c == "verify-snapshot") {
        want(2);
        r.ops.push_back(Op{c == "snapshot" ? Op::kSnapshot : Op::kVerifySnapshot, "", t[1], line});
      } else {
        throw LineError{"unknown step '" + c + "'"};
      }
    } catch (const LineError& e) {
      Die(2, path + ":" + std::to_string(line) + ": " + e.msg);
    }
  }
  if (in_batch) Die(2, path + ": batch not ended");
  return r;
}

// ---------------------------------------------------------------- expected content

struct Model {
  using Less = std::function<bool(const std::string&, const std::string&)>;
  std::map<std::string, std::string, Less> live;
  std::set<std::string, Less> touched;
  explicit Model(const leveldb::Comparator* c)
      : live(Less([c](const std::string& a, const std::string& b) { return c->Compare(a, b) < 0; })),
        touched(live.key_comp()) {}
  void Apply(const Op& op) {
    touched.insert(op.key);
    if (op.kind == Op::kPut) live[op.key] = op.value;
    else live.erase(op.key);
  }
};

// ---------------------------------------------------------------- read counting

thread_local bool counting = false;
std::atomic<uint64_t> read_calls{0}, read_bytes{0};

class CountingFile : public leveldb::RandomAccessFile {
 public:
  explicit CountingFile(leveldb::RandomAccessFile* f) : f_(f) {}
  leveldb::Status Read(uint64_t off, size_t n, leveldb::Slice* result, char* scratch) const override {
    leveldb::Status s = f_->Read(off, n, result, scratch);
    if (counting) read_calls++, read_bytes += result->size();
    return s;
  }
 private:
  std::unique_ptr<leveldb::RandomAccessFile> f_;
};

// Counts reads (see CountingFile) and can hold back background work (compactions), so
// that the tables measured are the ones written, not ones a compaction rewrote.
class CountingEnv : public leveldb::EnvWrapper {
 public:
  bool hold = false;
  CountingEnv() : EnvWrapper(leveldb::Env::Default()) {}
  leveldb::Status NewRandomAccessFile(const std::string& f, leveldb::RandomAccessFile** r) override {
    leveldb::Status s = target()->NewRandomAccessFile(f, r);
    if (s.ok()) *r = new CountingFile(*r);
    return s;
  }
  void Schedule(void (*fn)(void*), void* arg) override {
    std::lock_guard<std::mutex> l(mu_);
    if (hold) held_.push_back({fn, arg});
    else target()->Schedule(fn, arg);
  }
  void Release() {
    std::lock_guard<std::mutex> l(mu_);
    hold = false;
    for (auto& [fn, arg] : held_) target()->Schedule(fn, arg);
    held_.clear();
  }
 private:
  std::mutex mu_;
  std::vector<std::pair<void (*)(void*), void*>> held_;
};

// ---------------------------------------------------------------- database access

struct Peer {
  Recipe recipe;
  ReverseBytewise reverse;
  const leveldb::Comparator* cmp;
  std::unique_ptr<const leveldb::FilterPolicy> filter;
  std::unique_ptr<leveldb::Cache> cache;
  CountingEnv env;
  leveldb::DB* db = nullptr;

  explicit Peer(Recipe r) : recipe(std::move(r)) {
    cmp = recipe.reverse ? &reverse : leveldb::BytewiseComparator();
    if (recipe.bloom_bits > 0) filter.reset(leveldb::NewBloomFilterPolicy(recipe.bloom_bits));
  }
  ~Peer() { delete db; }

  void Open(const std::string& dir, bool create) {
    leveldb::Options o;
    o.create_if_missing = create;
    o.error_if_exists = create;
    o.paranoid_checks = true;
    o.comparator = cmp;
    o.filter_policy = filter.get();
    o.compression = recipe.snappy ? leveldb::kSnappyCompression : leveldb::kNoCompression;
    o.block_size = recipe.block_size;
    o.block_restart_interval = recipe.restart_interval;
    o.write_buffer_size = recipe.write_buffer_size;
    o.max_file_size = recipe.max_file_size;
    o.block_cache = cache.get();
    o.env = &env;
    Check(leveldb::DB::Open(o, dir, &db), "open " + dir);
  }
};

// Compares the database (or a snapshot of it) with the model; returns "" or a mismatch.
std::string Compare(leveldb::DB* db, const Model& m, const leveldb::Snapshot* snap, std::string* summary) {
  leveldb::ReadOptions ro;
  ro.verify_checksums = true;
  ro.snapshot = snap;
  size_t absent = 0;
  for (const auto& [k, v] : m.live) {
    std::string got;
    leveldb::Status s = db->Get(ro, k, &got);
    if (!s.ok()) return "Get(" + Hex(k) + "): " + s.ToString() + ", expected value " + Hex(v);
    if (got != v) return "Get(" + Hex(k) + ") = " + Hex(got) + ", expected " + Hex(v);
  }
  for (const auto& k : m.touched) {
    if (m.live.count(k)) continue;
    absent++;
    std::string got;
    leveldb::Status s = db->Get(ro, k, &got);
    if (!s.IsNotFound()) return "Get(" + Hex(k) + ") of a deleted key: " + (s.ok() ? "found " + Hex(got) : s.ToString());
  }
  std::unique_ptr<leveldb::Iterator> it(db->NewIterator(ro));
  auto fwd = m.live.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++fwd) {
    if (fwd == m.live.end()) return "forward scan: extra key " + Hex(it->key().ToString());
    if (it->key() != fwd->first || it->value() != fwd->second)
      return "forward scan: got " + Hex(it->key().ToString()) + "=" + Hex(it->value().ToString()) +
             ", expected " + Hex(fwd->first) + "=" + Hex(fwd->second);
  }
  if (!it->status().ok()) return "forward scan: " + it->status().ToString();
  if (fwd != m.live.end()) return "forward scan: missing key " + Hex(fwd->first);
  auto bwd = m.live.rbegin();
  for (it->SeekToLast(); it->Valid(); it->Prev(), ++bwd) {
    if (bwd == m.live.rend()) return "backward scan: extra key " + Hex(it->key().ToString());
    if (it->key() != bwd->first || it->value() != bwd->second)
      return "backward scan: got " + Hex(it->key().ToString()) + ", expected " + Hex(bwd->first);
  }
  if (!it->status().ok()) return "backward scan: " + it->status().ToString();
  if (bwd != m.live.rend()) return "backward scan: missing key " + Hex(bwd->first);
  // Seek to every deleted key: lands on the next live key; Prev from there lands before it.
  for (const auto& k : m.touched) {
    if (m.live.count(k)) continue;
    auto next = m.live.upper_bound(k);
    it->Seek(k);
    if (next == m.live.end()) {
      if (it->Valid()) return "Seek(" + Hex(k) + ") landed on " + Hex(it->key().ToString()) + ", expected the end";
      continue;
    }
    if (!it->Valid() || it->key() != next->first)
      return "Seek(" + Hex(k) + ") landed on " + (it->Valid() ? Hex(it->key().ToString()) : "the end") +
             ", expected " + Hex(next->first);
    it->Prev();
    if (next == m.live.begin()) {
      if (it->Valid()) return "Prev after Seek(" + Hex(k) + ") landed on " + Hex(it->key().ToString()) + ", expected the start";
    } else if (!it->Valid() || it->key() != std::prev(next)->first) {
      return "Prev after Seek(" + Hex(k) + ") landed on " + (it->Valid() ? Hex(it->key().ToString()) : "the start") +
             ", expected " + Hex(std::prev(next)->first);
    }
  }
  if (!it->status().ok()) return "seek: " + it->status().ToString();
  *summary = std::to_string(m.live.size()) + " live keys, " + std::to_string(absent) +
             " deleted keys; gets, forward and backward scans, seeks match";
  return "";
}

// Reads per Get for keys that were never written (and for live keys), block cache disabled.
void CountReads(leveldb::DB* db, const Model& m) {
  std::vector<std::string> miss, hit;
  size_t stride = m.live.size() / 20000 + 1, i = 0;
  for (const auto& [k, v] : m.live) {
    if (i++ % stride) continue;
    hit.push_back(k);
    if (!m.touched.count(k + '\0')) miss.push_back(k + '\0');
  }
  auto run = [&](const std::vector<std::string>& keys, const char* what) {
    leveldb::ReadOptions ro;
    ro.verify_checksums = true;
    ro.fill_cache = false;
    std::string v;
    read_calls = 0, read_bytes = 0;
    counting = true;
    for (const auto& k : keys) db->Get(ro, k, &v);
    counting = false;
    std::printf("count-reads %s: probes=%zu reads=%" PRIu64 " bytes=%" PRIu64 " reads_per_probe=%.4f\n", what,
                keys.size(), read_calls.load(), read_bytes.load(),
                keys.empty() ? 0.0 : double(read_calls) / keys.size());
  };
  run(miss, "miss");
  run(hit, "hit");
}

// The log files left behind: their records are replayed by the next open.
std::string LogSummary(const std::string& dir) {
  std::vector<std::string> names;
  Check(leveldb::Env::Default()->GetChildren(dir, &names), "list " + dir);
  uint64_t total = 0, count = 0;
  for (const auto& n : names) {
    uint64_t size = 0;
    if (n.size() <= 4 || n.substr(n.size() - 4) != ".log") continue;
    Check(leveldb::Env::Default()->GetFileSize(dir + "/" + n, &size), "size of " + n);
    total += size, count++;
  }
  return "log files " + std::to_string(count) + ", log bytes " + std::to_string(total);
}

// write: creates the database. update (create = false): opens an existing one and performs the
// steps on top of what it holds; the model knows only the recipe's writes, so update refuses
// `check` and `verify-snapshot` steps.
int Write(const std::string& dir, const std::string& recipe_path, bool create) {
  Peer p(LoadRecipe(recipe_path));
  Model m(p.cmp);
  std::map<std::string, std::pair<const leveldb::Snapshot*, Model>> snaps;
  if (!create)
    for (const Op& op : p.recipe.ops)
      if (op.kind == Op::kCheck || op.kind == Op::kVerifySnapshot)
        Die(2, recipe_path + ":" + std::to_string(op.line) + ": update cannot check (the database holds more than the recipe)");
  p.Open(dir, create);
  leveldb::WriteOptions wo;
  leveldb::WriteBatch batch;
  bool in_batch = false;
  size_t max_key = 0;
  for (const Op& op : p.recipe.ops) {
    std::string at = recipe_path + ":" + std::to_string(op.line);
    switch (op.kind) {
      case Op::kPut:
      case Op::kDelete:
        max_key = std::max(max_key, op.key.size());
        m.Apply(op);
        if (in_batch) {
          op.kind == Op::kPut ? batch.Put(op.key, op.value) : batch.Delete(op.key);
        } else {
          Check(op.kind == Op::kPut ? p.db->Put(wo, op.key, op.value) : p.db->Delete(wo, op.key), at);
        }
        break;
      case Op::kBatchBegin: batch.Clear(); in_batch = true; break;
      case Op::kBatchEnd: Check(p.db->Write(wo, &batch), at); in_batch = false; break;
      case Op::kFlush: {
        // No public flush: CompactRange always flushes the memtable first; a range beyond
        // every key ever written (0xff repeated) overlaps no table, so nothing else moves.
        std::string beyond(max_key + 1, '\xff');
        leveldb::Slice b(beyond);
        p.db->CompactRange(&b, &b);
        break;
      }
      case Op::kCompact: p.db->CompactRange(nullptr, nullptr); break;
      case Op::kReopen:
        for (auto& [name, s] : snaps) p.db->ReleaseSnapshot(s.first);
        snaps.clear();
        delete p.db;
        p.db = nullptr;
        p.Open(dir, false);
        break;
      case Op::kSnapshot:
        if (snaps.count(op.value)) Die(2, at + ": snapshot '" + op.value + "' already exists");
        snaps.emplace(op.value, std::make_pair(p.db->GetSnapshot(), m));
        break;
      case Op::kVerifySnapshot:
      case Op::kCheck: {
        auto s = snaps.find(op.value);
        if (op.kind == Op::kVerifySnapshot && s == snaps.end())
          Fail(at + ": no snapshot '" + op.value + "' (never taken, or released by reopen)");
        std::string summary;
        std::string err = op.kind == Op::kCheck ? Compare(p.db, m, nullptr, &summary)
                                                : Compare(p.db, s->second.second, s->second.first, &summary);
        if (!err.empty()) Fail(at + ": " + err);
        break;
      }
    }
  }
  for (auto& [name, s] : snaps) p.db->ReleaseSnapshot(s.first);
  delete p.db;
  p.db = nullptr;
  std::printf("%s ok: %zu ops, %zu live keys; %s\n", create ? "write" : "update", p.recipe.ops.size(), m.live.size(),
              LogSummary(dir).c_str());
  return 0;
}

int Verify(const std::string& dir, const std::string& recipe_path, bool count_reads) {
  Peer p(LoadRecipe(recipe_path));
  Model m(p.cmp);
  for (const Op& op : p.recipe.ops)
    if (op.kind == Op::kPut || op.kind == Op::kDelete) m.Apply(op);
  if (count_reads) {
    p.cache.reset(leveldb::NewLRUCache(0));  // capacity 0: no block caching
    p.env.hold = true;  // no compactions until the end: measure the tables as written
  }
  p.Open(dir, false);  // replays the log into a new level-0 table
  std::string summary, err = Compare(p.db, m, nullptr, &summary);
  if (!err.empty()) Fail("verify " + dir + ": " + err);
  std::printf("verify ok: %s\n", summary.c_str());
  if (count_reads) CountReads(p.db, m);
  p.env.Release();
  return 0;
}

class StringFile : public leveldb::WritableFile {
 public:
  std::string* out;
  FILE* f;
  StringFile(std::string* o, FILE* file) : out(o), f(file) {}
  leveldb::Status Append(const leveldb::Slice& d) override {
    if (out) out->append(d.data(), d.size());
    if (f && std::fwrite(d.data(), 1, d.size(), f) != d.size()) return leveldb::Status::IOError("write to stdout");
    return leveldb::Status::OK();
  }
  leveldb::Status Close() override { return leveldb::Status::OK(); }
  leveldb::Status Flush() override { return leveldb::Status::OK(); }
  leveldb::Status Sync() override { return leveldb::Status::OK(); }
};

std::string DumpToString(const std::string& file) {
  std::string out;
  StringFile sf(&out, nullptr);
  Check(leveldb::DumpFile(leveldb::Env::Default(), file, &sf), "dump " + file);
  return out;
}

uint64_t LastNumberAfter(const std::string& text, const std::string& tag, bool* found) {
  uint64_t v = 0;
  *found = false;
  for (size_t pos = text.find(tag); pos != std::string::npos; pos = text.find(tag, pos + 1))
    v = std::strtoull(text.c_str() + pos + tag.size(), nullptr, 10), *found = true;
  return v;
}

// Relation between the MANIFEST's last sequence and the records of the live log(s).
// "go_skips" replays goleveldb's recovery rule: a batch whose sequence is below the
// expected next sequence (starting at the MANIFEST's) is treated as corrupt.
int LogSeq(const std::string& dir) {
  std::string current;
  Check(leveldb::ReadFileToString(leveldb::Env::Default(), dir + "/CURRENT", &current), "read CURRENT");
  while (!current.empty() && current.back() == '\n') current.pop_back();
  std::string manifest = DumpToString(dir + "/" + current);
  bool has_seq, has_log;
  uint64_t last_seq = LastNumberAfter(manifest, "\n  LastSeq: ", &has_seq);
  uint64_t log_number = LastNumberAfter(manifest, "\n  LogNumber: ", &has_log);
  if (!has_seq || !has_log) Fail(current + " has no LastSeq or LogNumber");
  std::vector<std::string> names;
  Check(leveldb::Env::Default()->GetChildren(dir, &names), "list " + dir);
  std::map<uint64_t, std::string> logs;
  for (const auto& n : names)
    if (n.size() > 4 && n.substr(n.size() - 4) == ".log" && std::strtoull(n.c_str(), nullptr, 10) >= log_number)
      logs[std::strtoull(n.c_str(), nullptr, 10)] = n;
  uint64_t records = 0, entries = 0, behind = 0, go_skips = 0, go_skipped_entries = 0, expect = last_seq;
  for (const auto& [num, name] : logs) {
    std::istringstream in(DumpToString(dir + "/" + name));
    std::vector<std::pair<uint64_t, uint64_t>> batches;  // (sequence, entry count)
    for (std::string l; std::getline(in, l);) {
      size_t s = l.find("; sequence ");
      if (l.rfind("--- offset ", 0) == 0 && s != std::string::npos)
        batches.push_back({std::strtoull(l.c_str() + s + 11, nullptr, 10), 0});
      else if ((l.rfind("  put '", 0) == 0 || l.rfind("  del '", 0) == 0) && !batches.empty())
        batches.back().second++;
    }
    for (const auto& [seq, n] : batches) {
      records++, entries += n;
      if (seq <= last_seq) behind++;
      if (seq < expect) go_skips++, go_skipped_entries += n;
      else expect = seq + n;
    }
  }
  std::printf("logseq: manifest=%s last_seq=%" PRIu64 " log_number=%" PRIu64 " live_logs=%zu records=%" PRIu64
              " entries=%" PRIu64 " records_at_or_below_last_seq=%" PRIu64 " go_default_skips=%" PRIu64
              " go_skipped_entries=%" PRIu64 "\n",
              current.c_str(), last_seq, log_number, logs.size(), records, entries, behind, go_skips,
              go_skipped_entries);
  return 0;
}

int Stats(const std::string& dir, const std::string& recipe_path) {
  Peer p(recipe_path.empty() ? Recipe() : LoadRecipe(recipe_path));
  p.Open(dir, false);
  std::string v;
  for (int level = 0; level < 7; level++) {
    p.db->GetProperty("leveldb.num-files-at-level" + std::to_string(level), &v);
    std::printf("files at level %d: %s\n", level, v.c_str());
  }
  for (const char* prop : {"leveldb.stats", "leveldb.sstables", "leveldb.approximate-memory-usage"}) {
    p.db->GetProperty(prop, &v);
    std::printf("%s:\n%s\n", prop, v.c_str());
  }
  return 0;
}

// Prints the recipe with every option spelled out and every generator expanded into
// plain steps with hex keys and values: the canonical form, itself a valid recipe.
int Expand(const std::string& recipe_path) {
  Recipe r = LoadRecipe(recipe_path);
  std::printf("option compression=%s\noption comparator=%s\noption block_size=%d\noption restart_interval=%d\n"
              "option bloom_bits=%d\noption write_buffer_size=%zu\noption max_file_size=%zu\n",
              r.snappy ? "snappy" : "none", r.reverse ? "reverse" : "bytewise", r.block_size, r.restart_interval,
              r.bloom_bits, r.write_buffer_size, r.max_file_size);
  static const char* names[] = {"put", "delete", "batch begin", "batch end", "flush", "compact", "reopen",
                                "snapshot", "verify-snapshot", "check"};
  for (const Op& op : r.ops) {
    std::string line = names[op.kind];
    if (op.kind == Op::kPut || op.kind == Op::kDelete) line += " " + Hex(op.key, SIZE_MAX);
    if (op.kind == Op::kPut) line += " " + Hex(op.value, SIZE_MAX);
    if (op.kind == Op::kSnapshot || op.kind == Op::kVerifySnapshot) line += " " + op.value;
    std::printf("%s\n", line.c_str());
  }
  return 0;
}

// leveldb::DumpFile returns OK even when it meets damage inside a file: it prints the
// problem in its output instead. Those lines make the exit status non-zero here.
int Dump(const std::string& file) {
  std::string out = DumpToString(file);
  std::fwrite(out.data(), 1, out.size(), stdout);
  const char* markers[] = {"\niterator error: ", "\ncorruption: ", "\n  error: "};
  std::string text = "\n" + out;
  for (const char* marker : markers) {
    if (text.find(marker) != std::string::npos) {
      std::fprintf(stderr, "dump %s: the file has errors (see the output)\n", file.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> a(argv + 1, argv + argc);
  bool count_reads = false;
  if (a.size() > 1 && a[0] == "verify" && a[1] == "--count-reads") count_reads = true, a.erase(a.begin() + 1);
  if (a.size() == 3 && a[0] == "write") return Write(a[1], a[2], true);
  if (a.size() == 3 && a[0] == "update") return Write(a[1], a[2], false);
  if (a.size() == 3 && a[0] == "verify") return Verify(a[1], a[2], count_reads);
  if (a.size() == 2 && a[0] == "dump") return Dump(a[1]);
  if ((a.size() == 2 || a.size() == 3) && a[0] == "stats") return Stats(a[1], a.size() == 3 ? a[2] : "");
  if (a.size() == 2 && a[0] == "logseq") return LogSeq(a[1]);
  if (a.size() == 2 && a[0] == "expand") return Expand(a[1]);
  std::fprintf(stderr,
               "usage: leveldb_peer write <dir> <recipe>\n"
               "       leveldb_peer update <dir> <recipe>\n"
               "       leveldb_peer verify [--count-reads] <dir> <recipe>\n"
               "       leveldb_peer dump <file>\n"
               "       leveldb_peer stats <dir> [<recipe>]\n"
               "       leveldb_peer logseq <dir>\n"
               "       leveldb_peer expand <recipe>\n");
  return 2;
}
