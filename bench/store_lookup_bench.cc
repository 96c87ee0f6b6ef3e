// store_lookup_bench: how long an in-process lookup of a stored walk takes.
//
// Fills a store in a temporary directory with --answers answers of one model (plus --other of a
// second), flushes and compacts it, closes it, then reopens it twice: with the block cache alone,
// and with a row cache as well. Each time it warms the caches (every stored key once) and times:
//   - Get of random stored keys, one call at a time (median, p99, mean, µs; decode included);
//   - Get of random keys among --hot stored keys (a hot set that stays in the CPU's caches);
//   - Get of keys not stored (the bloom filters' work);
//   - MultiGet of random stored keys in batches of --batch (µs per key);
// against a baseline measured in the same run: the same answers in a std::unordered_map keyed by
// the encoded key, looked up and decoded the same way (the cost of the answer without RocksDB).
//
//   store_lookup_bench [--answers 1000000] [--other 100000] [--lookups 200000] [--batch 1000]
//                      [--hot 10000] [--cache-mb 256] [--row-cache-mb 512] [--dir DIR] [--keep]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "store/answer_cache.h"
#include "store/walk_store.h"

namespace {

using walk::store::StoredWalk;
using walk::store::WalkKey;
using walk::store::WalkStore;
using Clock = std::chrono::steady_clock;

struct Args {
  std::uint64_t answers = 1000000;
  std::uint64_t other = 100000;
  std::uint64_t lookups = 200000;
  std::uint64_t batch = 1000;
  std::uint64_t hot = 10000;
  std::uint64_t cache_mb = 256;
  std::uint64_t row_cache_mb = 512;
  std::string dir;
  bool keep = false;
};

bool ParseArgs(int argc, char** argv, Args* args) {
  const std::pair<const char*, std::uint64_t*> numbers[] = {
      {"--answers", &args->answers},
      {"--other", &args->other},
      {"--lookups", &args->lookups},
      {"--batch", &args->batch},
      {"--hot", &args->hot},
      {"--cache-mb", &args->cache_mb},
      {"--row-cache-mb", &args->row_cache_mb}};
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    bool ok = false;
    for (const auto& [name, value] : numbers) {
      if (flag == name && i + 1 < argc) {
        *value = std::strtoull(argv[++i], nullptr, 10);
        ok = true;
      }
    }
    if (flag == "--dir" && i + 1 < argc) {
      args->dir = argv[++i];
      ok = true;
    }
    if (flag == "--keep") ok = args->keep = true;
    if (!ok) {
      std::fprintf(stderr, "store_lookup_bench: bad argument %s (see the file's header)\n",
                   argv[i]);
      return false;
    }
  }
  return args->answers > 0 && args->lookups > 0 && args->batch > 0 && args->hot > 0;
}

// A key like a real one: two places on a continent about 10 km wide, on their snapped surfaces.
WalkKey RandomKey(std::uint64_t model, std::mt19937_64& rng) {
  std::uniform_int_distribution<std::int32_t> coord(0, 100000);  // decis
  WalkKey key;
  key.model = model;
  for (walk::store::EndKey* end : {&key.from, &key.to}) {
    end->continent = 1;
    end->x_decis = coord(rng);
    end->y_decis = coord(rng);
    end->has_z = rng() % 4 == 0;
    end->z_decis = end->has_z ? coord(rng) / 100 : 0;
    end->surface = static_cast<std::uint32_t>(rng() % 5000000);
  }
  return key;
}

StoredWalk RandomWalk(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> seconds(5.0, 900.0);
  StoredWalk walk;
  walk.status = rng() % 20 == 0 ? walk::nav::WalkStatus::kNoWalk : walk::nav::WalkStatus::kOk;
  walk.method = walk::nav::Method::kFineGrid;
  if (walk.status == walk::nav::WalkStatus::kOk) {
    walk.seconds = seconds(rng);
    walk.yards = walk.seconds * 6.5;
    const int cells = 1 + static_cast<int>(rng() % 6);
    for (int c = 0; c < cells; ++c) {
      walk.zone_cells.push_back({static_cast<std::int32_t>(rng() % 50),
                                 static_cast<std::int32_t>(rng() % 50),
                                 static_cast<std::uint16_t>(1 + rng() % 40), walk.yards / cells});
    }
  }
  return walk;
}

struct Figures {
  double median_us = 0, p99_us = 0, mean_us = 0;
};

Figures Summarize(std::vector<double> us) {
  Figures f;
  std::sort(us.begin(), us.end());
  f.median_us = us[us.size() / 2];
  f.p99_us = us[std::min(us.size() - 1, us.size() * 99 / 100)];
  double total = 0;
  for (double u : us) total += u;
  f.mean_us = total / static_cast<double>(us.size());
  return f;
}

double Micros(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::micro>(b - a).count();
}

void Print(const std::string& what, const Figures& f) {
  std::printf("  %-52s median %7.3f us   p99 %7.3f us   mean %7.3f us\n", what.c_str(), f.median_us,
              f.p99_us, f.mean_us);
}

std::uint64_t DirBytes(const std::string& dir) {
  std::uint64_t bytes = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec)) bytes += e.file_size(ec);
  }
  return bytes;
}

int Fail(const char* what, const absl::Status& s) {
  std::fprintf(stderr, "store_lookup_bench: %s: %s\n", what, s.ToString().c_str());
  return 1;
}

// Times `lookup(i)` for i in [0, n): one clock pair per call.
template <typename F>
Figures TimeEach(std::uint64_t n, F&& lookup) {
  std::vector<double> us(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const Clock::time_point a = Clock::now();
    lookup(i);
    us[i] = Micros(a, Clock::now());
  }
  return Summarize(std::move(us));
}

struct Phase {
  Figures get_hit, get_hot, get_miss, multi;
  double open_s = 0;
  std::uint64_t false_hits = 0;
  bool ok = false;
};

// Opens the store with `options`, warms it, and times the lookups.
Phase Measure(const walk::store::WalkStoreOptions& options, const Args& args,
              const std::vector<WalkKey>& stored_keys, const std::vector<WalkKey>& hits,
              const std::vector<WalkKey>& hot, const std::vector<WalkKey>& misses,
              std::mt19937_64& rng) {
  Phase phase;
  const Clock::time_point open_start = Clock::now();
  absl::StatusOr<std::unique_ptr<WalkStore>> opened = WalkStore::Open(options);
  phase.open_s = Micros(open_start, Clock::now()) / 1e6;
  if (!opened.ok()) {
    Fail("open", opened.status());
    return phase;
  }
  WalkStore& store = **opened;
  StoredWalk out;
  bool found = false;
  bool failed = false;
  std::uint64_t found_count = 0;
  for (const WalkKey& k : stored_keys) {  // warm: every stored key once
    if (absl::Status s = store.Get(k, &out, &found); !s.ok()) {
      Fail("warm", s);
      return phase;
    }
    found_count += found;
  }
  if (found_count != stored_keys.size()) {
    std::fprintf(stderr, "store_lookup_bench: %zu stored keys not found\n",
                 static_cast<std::size_t>(stored_keys.size() - found_count));
    return phase;
  }
  auto get = [&](const WalkKey& key) {
    if (!store.Get(key, &out, &found).ok()) failed = true;
    return found;
  };
  phase.get_hit = TimeEach(args.lookups, [&](std::uint64_t i) { failed |= !get(hits[i]); });
  phase.get_hot = TimeEach(args.lookups, [&](std::uint64_t i) { failed |= !get(hot[i]); });
  phase.get_miss =
      TimeEach(args.lookups, [&](std::uint64_t i) { phase.false_hits += get(misses[i]); });

  std::vector<double> per_key;
  std::vector<WalkKey> keys(args.batch);
  std::vector<std::optional<StoredWalk>> answers;
  const std::uint64_t batches = std::max<std::uint64_t>(1, args.lookups / args.batch);
  for (std::uint64_t b = 0; b < batches; ++b) {
    for (auto& k : keys) k = stored_keys[rng() % stored_keys.size()];
    const Clock::time_point a = Clock::now();
    failed |= !store.MultiGet(keys, &answers).ok();
    per_key.push_back(Micros(a, Clock::now()) / static_cast<double>(args.batch));
  }
  phase.multi = Summarize(std::move(per_key));
  if (failed) {
    std::fprintf(stderr, "store_lookup_bench: a lookup failed or missed a stored key\n");
    return phase;
  }
  if (absl::Status s = store.Close(); !s.ok()) {
    Fail("close", s);
    return phase;
  }
  phase.ok = true;
  return phase;
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, &args)) return 2;
  namespace fs = std::filesystem;
  bool made_dir = false;
  if (args.dir.empty()) {
    std::string pattern = (fs::temp_directory_path() / "store_lookup_bench-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::perror("mkdtemp");
      return 1;
    }
    args.dir = pattern + "/store";
    made_dir = true;
  }
  const std::uint64_t model = 0x5EED5EED5EED5EEDULL, other_model = 0x0DDBA11C0FFEE000ULL;

  walk::store::WalkStoreOptions options;
  options.dir = args.dir;
  options.block_cache_bytes = static_cast<std::size_t>(args.cache_mb) << 20;

  // Fill: the answers of `model` and of `other_model`, in batches of 10,000, as walkd writes.
  std::mt19937_64 rng(2024);
  std::vector<WalkKey> stored_keys;
  stored_keys.reserve(args.answers);
  std::unordered_map<std::string, std::string> baseline;
  baseline.reserve(args.answers);
  double fill_s = 0, compact_s = 0, count_s = 0;
  std::uint64_t distinct = 0;
  {
    absl::StatusOr<std::unique_ptr<WalkStore>> opened = WalkStore::Open(options);
    if (!opened.ok()) return Fail("open", opened.status());
    WalkStore& store = **opened;
    const Clock::time_point fill_start = Clock::now();
    std::vector<std::pair<WalkKey, StoredWalk>> batch;
    auto fill = [&](std::uint64_t m, std::uint64_t count, bool keep_keys) -> absl::Status {
      for (std::uint64_t i = 0; i < count; ++i) {
        batch.emplace_back(RandomKey(m, rng), RandomWalk(rng));
        if (keep_keys) {
          stored_keys.push_back(batch.back().first);
          baseline[walk::store::EncodeWalkKey(batch.back().first)] =
              walk::store::EncodeWalkValue(batch.back().second);
        }
        if (batch.size() == 10000 || i + 1 == count) {
          if (absl::Status s = store.PutBatch(batch); !s.ok()) return s;
          batch.clear();
        }
      }
      return absl::OkStatus();
    };
    if (absl::Status s = fill(model, args.answers, true); !s.ok()) return Fail("fill", s);
    if (absl::Status s = fill(other_model, args.other, false); !s.ok()) return Fail("fill", s);
    fill_s = Micros(fill_start, Clock::now()) / 1e6;
    const Clock::time_point compact_start = Clock::now();
    if (absl::Status s = store.Flush(); !s.ok()) return Fail("flush", s);
    if (absl::Status s = store.CompactAll(); !s.ok()) return Fail("compact", s);
    compact_s = Micros(compact_start, Clock::now()) / 1e6;
    const Clock::time_point count_start = Clock::now();
    absl::StatusOr<std::uint64_t> count = store.CountAnswers(model);
    if (!count.ok()) return Fail("count", count.status());
    count_s = Micros(count_start, Clock::now()) / 1e6;
    distinct = *count;
    if (absl::Status s = store.Close(); !s.ok()) return Fail("close", s);
  }

  std::printf("store_lookup_bench: %llu answers of one model + %llu of another in %s\n",
              static_cast<unsigned long long>(args.answers),
              static_cast<unsigned long long>(args.other), args.dir.c_str());
  std::printf(
      "  fill %.2f s (%.0f answers/s, batches of 10,000, WAL on, no sync); flush + full "
      "compaction %.2f s; %.1f MB on disk\n",
      fill_s, static_cast<double>(args.answers + args.other) / fill_s, compact_s,
      static_cast<double>(DirBytes(args.dir)) / 1e6);
  std::printf(
      "  CountAnswers (exact, iterating the model's prefix): %llu answers in %.3f s "
      "(%.1f M answers/s)\n",
      static_cast<unsigned long long>(distinct), count_s,
      static_cast<double>(distinct) / count_s / 1e6);

  // The keys to look up: random stored ones, random ones of a hot set, and keys not stored.
  std::vector<WalkKey> hits(args.lookups), hot(args.lookups), misses(args.lookups);
  for (auto& k : hits) k = stored_keys[rng() % stored_keys.size()];
  const std::uint64_t hot_count = std::min<std::uint64_t>(args.hot, stored_keys.size());
  for (auto& k : hot) k = stored_keys[rng() % hot_count];
  for (auto& k : misses) k = RandomKey(model, rng);

  // The clock's own cost, and the baseline: find the encoded key in a hash map, decode the value.
  const Figures clock = TimeEach(args.lookups, [](std::uint64_t) {});
  StoredWalk out;
  std::string key_string(walk::store::kWalkKeyBytes, '\0');
  bool baseline_ok = true;
  auto map_get = [&](const WalkKey& key) {
    walk::store::EncodeWalkKeyTo(key, key_string.data());
    auto it = baseline.find(key_string);
    baseline_ok &= it != baseline.end() && walk::store::DecodeWalkValue(it->second, &out).ok();
  };
  const Figures map_hit = TimeEach(args.lookups, [&](std::uint64_t i) { map_get(hits[i]); });
  const Figures map_hot = TimeEach(args.lookups, [&](std::uint64_t i) { map_get(hot[i]); });
  if (!baseline_ok) return 1;

  walk::store::WalkStoreOptions with_rows = options;
  with_rows.row_cache_bytes = static_cast<std::size_t>(args.row_cache_mb) << 20;
  const Phase blocks = Measure(options, args, stored_keys, hits, hot, misses, rng);
  if (!blocks.ok) return 1;
  const Phase rows = Measure(with_rows, args, stored_keys, hits, hot, misses, rng);
  if (!rows.ok) return 1;

  std::printf("  open (checking every table's checksums): %.2f s\n", blocks.open_s);
  std::printf("  lookups: %llu per line, one thread, caches warm (every stored key read once)\n",
              static_cast<unsigned long long>(args.lookups));
  Print("clock overhead (two now() calls)", clock);
  Print("baseline: unordered_map find + decode, stored key", map_hit);
  Print("baseline: unordered_map find + decode, hot key", map_hot);
  const std::string hot_what = "Get, hot key (one of " + std::to_string(hot_count) + ")";
  const std::string multi_what =
      "MultiGet, per key (batches of " + std::to_string(args.batch) + ")";
  const struct {
    const char* name;
    const Phase* phase;
  } phases[] = {{"block cache", &blocks}, {"block + row cache", &rows}};
  for (const auto& [name, phase] : phases) {
    std::printf(
        "  WalkStore, %s (block cache %llu MB%s):\n", name,
        static_cast<unsigned long long>(args.cache_mb),
        phase == &rows ? (", row cache " + std::to_string(args.row_cache_mb) + " MB").c_str() : "");
    Print("  Get, stored key", phase->get_hit);
    Print("  " + hot_what, phase->get_hot);
    Print("  Get, key not stored", phase->get_miss);
    Print("  " + multi_what, phase->multi);
    std::printf(
        "    ratio to the baseline (medians): Get %.1fx, hot Get %.1fx, MultiGet %.1fx; "
        "goal Get <= 1 us: %s (%.3f us)\n",
        phase->get_hit.median_us / map_hit.median_us, phase->get_hot.median_us / map_hot.median_us,
        phase->multi.median_us / map_hit.median_us,
        phase->get_hit.median_us <= 1.0 ? "met" : "NOT met", phase->get_hit.median_us);
  }

  // walkd's answer cache (store/answer_cache.h), warmed from the store as walkd warms it at start:
  // what a batch in columns looks a stored pair up in.
  walk::store::AnswerCache cache(std::size_t{512} << 20);
  {
    absl::StatusOr<std::unique_ptr<WalkStore>> opened = WalkStore::Open(options);
    if (!opened.ok()) return Fail("open", opened.status());
    const std::size_t room = cache.YoungCapacity() / 10 * 9;
    std::size_t loaded = 0;
    absl::Status warmed =
        (*opened)->ForEachOutcome([&](const WalkKey& key, const walk::store::WalkOutcome& o) {
          cache.Insert(key, o);
          return ++loaded < room;
        });
    if (!warmed.ok()) return Fail("warm the answer cache", warmed);
  }
  walk::store::WalkOutcome outcome;
  bool cache_ok = true;
  const Figures cache_hit =
      TimeEach(args.lookups, [&](std::uint64_t i) { cache_ok &= cache.Find(hits[i], &outcome); });
  const Figures cache_hot =
      TimeEach(args.lookups, [&](std::uint64_t i) { cache_ok &= cache.Find(hot[i], &outcome); });
  std::printf("  walkd's answer cache (512 MB, warmed from the store: %zu answers)%s:\n",
              cache.Size(), cache_ok ? "" : " MISSED STORED KEYS");
  Print("  Find, stored key", cache_hit);
  Print("  Find, " + hot_what.substr(5), cache_hot);
  std::printf("    ratio to the baseline (medians): %.1fx, hot %.1fx; goal <= 1 us: %s (%.3f us)\n",
              cache_hit.median_us / map_hit.median_us, cache_hot.median_us / map_hot.median_us,
              cache_hit.median_us <= 1.0 ? "met" : "NOT met", cache_hit.median_us);

  const std::uint64_t false_hits = blocks.false_hits + rows.false_hits;
  std::printf("  keys not stored found anyway: %llu (must be 0)\n",
              static_cast<unsigned long long>(false_hits));

  if (made_dir && !args.keep) {
    std::error_code ec;
    fs::remove_all(fs::path(args.dir).parent_path(), ec);  // best effort: a temp dir
  }
  return false_hits == 0 && cache_ok ? 0 : 1;
}
