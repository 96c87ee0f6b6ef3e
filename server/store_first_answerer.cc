#include "server/store_first_answerer.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nav/query/band_zero_reuse.h"
#include "nav/query/place_check.h"
#include "nav/query/snap.h"
#include "store/walk_key.h"
#include "store/walk_value.h"

namespace walk::server {
namespace {

// The surface an end keys with: none when it did not snap. Its answer (off the map, no surface)
// is as much a fact of the model as a walk, so a rerun asks nothing again.
nav::SurfaceId KeySurface(const nav::Snap& snap) {
  return snap.status == nav::WalkStatus::kOk ? snap.end.surface : nav::kInvalidId;
}

// `status` (not OK) with its message after `field_prefix`.
absl::Status Prefixed(const absl::Status& status, absl::string_view field_prefix) {
  return absl::Status(status.code(), absl::StrCat(field_prefix, status.message()));
}

// A stored pair's entries of AnswerBlock's columns.
BlockAnswer StoredBlockAnswer(std::uint64_t index, const store::WalkOutcome& outcome,
                              std::uint64_t model) {
  BlockAnswer answer;
  answer.index = index;
  answer.status = outcome.status;
  answer.method = outcome.method;
  if (outcome.status == nav::WalkStatus::kOk) {
    answer.seconds = outcome.seconds;
    answer.yards = outcome.yards;
  }
  answer.from_band_zero = outcome.from_band_zero;
  answer.stored = true;
  answer.model = model;
  return answer;
}

// The pairs of a block the store may hold, keyed under one model.
struct KeyedPairs {
  std::uint64_t model = 0;
  std::vector<store::WalkKey> keys;
  std::vector<std::size_t> positions;  // keys[k] is the key of pair positions[k]
};

// Keys every pair of `pairs` as Prepare keys a single walk, on its continent of `world` (which
// must have it); a pair with a bad place goes to `to_route` instead (Answer names the field).
KeyedPairs KeyPairs(const WalkPairs& pairs, const nav::World& world, std::uint64_t model,
                    std::vector<StoreFirstAnswerer::ToRoute>* to_route) {
  const nav::Continent& continent = *world.FindContinent(pairs.from_continent);
  const std::size_t n = pairs.size();
  KeyedPairs keyed;
  keyed.model = model;
  keyed.keys.reserve(n);
  keyed.positions.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const nav::Place from = pairs.From(i);
    const nav::Place to = pairs.To(i);
    if (!nav::ValidatePlace(from, "from").ok() || !nav::ValidatePlace(to, "to").ok()) {
      to_route->push_back({i, false});
      continue;
    }
    const nav::Snap from_snap = nav::SnapPlace(continent, world.frame(), from);
    const nav::Snap to_snap = nav::SnapPlace(continent, world.frame(), to);
    keyed.keys.push_back(store::WalkKey{model, store::MakeEndKey(from, KeySurface(from_snap)),
                                        store::MakeEndKey(to, KeySurface(to_snap))});
    keyed.positions.push_back(i);
  }
  return keyed;
}

// Answers the pairs of `keyed` that `cache` holds into `answered` and keeps only the others in
// `keyed`. Returns how many it answered.
std::uint64_t AnswerFromCache(store::AnswerCache& cache, const WalkPairs& pairs, KeyedPairs* keyed,
                              std::vector<BlockAnswer>* answered) {
  std::uint64_t cached = 0;
  std::size_t kept = 0;
  store::WalkOutcome outcome;
  for (std::size_t k = 0; k < keyed->keys.size(); ++k) {
    if (!cache.Find(keyed->keys[k], &outcome)) {
      keyed->keys[kept] = keyed->keys[k];
      keyed->positions[kept++] = keyed->positions[k];
      continue;
    }
    ++cached;
    answered->push_back(StoredBlockAnswer(pairs.index[keyed->positions[k]], outcome, keyed->model));
  }
  keyed->keys.resize(kept);
  keyed->positions.resize(kept);
  return cached;
}

}  // namespace

BlockAnswer ToBlockAnswer(std::uint64_t index, const absl::StatusOr<WalkResult>& result) {
  if (!result.ok()) return RefusedBlockAnswer(index, result.status());
  const nav::WalkAnswer& walk = result->answer;
  BlockAnswer answer;
  answer.index = index;
  answer.status = walk.status;
  answer.method = walk.method;
  if (walk.status == nav::WalkStatus::kOk) {
    answer.seconds = walk.seconds;
    answer.yards = walk.yards;
  }
  answer.stored = result->stored;
  answer.from_band_zero = walk.from_band_zero;
  answer.model = result->model;
  return answer;
}

struct StoreFirstAnswerer::Prepared {
  std::shared_ptr<const ServedWorld> world;
  const ServedWorld::MetricEntry* metric = nullptr;
  nav::Place from, to;
  std::optional<nav::Snap> from_snap, to_snap;
  std::optional<store::WalkKey> key;  // when both ends snapped and there is a store
};

absl::Status StoreFirstAnswerer::Prepare(const WalkQuery& query, absl::string_view field_prefix,
                                         Prepared* p) const {
  if (absl::Status valid = query.Validate(field_prefix); !valid.ok()) return valid;
  absl::StatusOr<std::shared_ptr<const ServedWorld>> found = worlds_.Find(query.world);
  if (!found.ok()) return Prefixed(found.status(), field_prefix);
  p->world = *std::move(found);
  p->metric = p->world->MetricFor(query.profile, query.band);
  p->from = *query.from;
  p->to = *query.to;
  const nav::World& world = p->world->world;
  const nav::Continent* continent = world.FindContinent(p->from.continent);
  // A forced search (diagnostics) answers outside the store: the store keeps what auto answers.
  const bool forced = query.search != nav::SearchMode::kAuto;
  if (store_ != nullptr && !forced && continent != nullptr &&
      p->from.continent == p->to.continent && nav::ValidatePlace(p->from, "from").ok() &&
      nav::ValidatePlace(p->to, "to").ok()) {
    p->from_snap = nav::SnapPlace(*continent, world.frame(), p->from);
    p->to_snap = nav::SnapPlace(*continent, world.frame(), p->to);
    p->key = store::WalkKey{p->metric->model, store::MakeEndKey(p->from, KeySurface(*p->from_snap)),
                            store::MakeEndKey(p->to, KeySurface(*p->to_snap))};
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> StoreFirstAnswerer::Lookup(const Prepared& p, nav::WalkAnswer* out) const {
  if (!p.key) return false;
  store::StoredWalk hit;
  bool present = false;
  if (absl::Status s = store_->Get(*p.key, &hit, &present); !s.ok()) return s;
  metrics_.RecordStoreLookup(present);
  if (!present) return false;
  *out = store::ToAnswer(std::move(hit));
  // Where the places snap (settling is in the stored seconds).
  if (p.from_snap->status == nav::WalkStatus::kOk) out->from_end = p.from_snap->end;
  if (p.to_snap->status == nav::WalkStatus::kOk) out->to_end = p.to_snap->end;
  return true;
}

absl::StatusOr<std::optional<WalkResult>> StoreFirstAnswerer::AnswerFromStore(
    const WalkQuery& query, absl::string_view field_prefix) const {
  Prepared prepared;
  if (absl::Status s = Prepare(query, field_prefix, &prepared); !s.ok()) return s;
  WalkResult result;
  result.band = query.band;
  result.model = prepared.metric->model;
  result.frame = prepared.world->world.frame();
  absl::StatusOr<bool> hit = Lookup(prepared, &result.answer);
  if (!hit.ok()) return hit.status();
  if (!*hit) return std::nullopt;
  result.stored = true;
  return result;
}

void StoreFirstAnswerer::AnswerBlockFromStore(const WalkPairs& pairs,
                                              std::vector<BlockAnswer>* answered,
                                              std::vector<ToRoute>* to_route) const {
  const std::size_t n = pairs.size();
  auto refuse_all = [&](const absl::Status& status) {
    for (std::size_t i = 0; i < n; ++i)
      answered->push_back(RefusedBlockAnswer(pairs.index[i], status));
  };
  if (absl::Status columns = pairs.CheckColumns(); !columns.ok()) return refuse_all(columns);
  if (n == 0) return;
  // What every pair shares, checked once: the world, profile and band.
  if (absl::Status valid = pairs.Query(0).Validate("block."); !valid.ok()) {
    return refuse_all(valid);
  }
  absl::StatusOr<std::shared_ptr<const ServedWorld>> found = worlds_.Find(pairs.world);
  if (!found.ok()) return refuse_all(Prefixed(found.status(), "block."));
  const ServedWorld& served = **found;
  const nav::Continent* continent = served.world.FindContinent(pairs.from_continent);
  if (store_ == nullptr || continent == nullptr || pairs.from_continent != pairs.to_continent) {
    // Nothing to look up: Answer routes each pair (or says what is wrong with it).
    for (std::size_t i = 0; i < n; ++i) to_route->push_back({i, false});
    return;
  }
  const std::size_t first_routed = to_route->size();
  // Pairs routed in key order after those that could not be keyed: keep the block's order.
  auto sort_routed = [&] {
    std::sort(to_route->begin() + static_cast<std::ptrdiff_t>(first_routed), to_route->end());
  };
  KeyedPairs keyed =
      KeyPairs(pairs, served.world, served.MetricFor(pairs.profile, pairs.band)->model, to_route);
  // The answer cache first: what it holds needs no RocksDB read.
  const std::uint64_t cached =
      cache_ != nullptr ? AnswerFromCache(*cache_, pairs, &keyed, answered) : 0;
  std::vector<std::optional<store::StoredWalk>> hits;
  if (absl::Status s = store_->MultiGet(keyed.keys, &hits); !s.ok()) {
    // One damaged value fails the whole MultiGet: answer these pairs one by one instead, so
    // only the damaged one is refused (Answer looks each up again).
    for (std::size_t i : keyed.positions) to_route->push_back({i, /*looked_up=*/false});
    return sort_routed();
  }
  std::uint64_t hit_count = 0;
  for (std::size_t k = 0; k < keyed.positions.size(); ++k) {
    if (!hits[k]) {
      to_route->push_back({keyed.positions[k], /*looked_up=*/true});
      continue;
    }
    ++hit_count;
    const store::WalkOutcome outcome = store::OutcomeOf(*hits[k]);
    if (cache_ != nullptr) cache_->Insert(keyed.keys[k], outcome);
    answered->push_back(StoredBlockAnswer(pairs.index[keyed.positions[k]], outcome, keyed.model));
  }
  sort_routed();
  metrics_.RecordStoreLookups(hit_count + cached, keyed.keys.size() - hit_count);
}

absl::StatusOr<WalkResult> StoreFirstAnswerer::Answer(const WalkQuery& query,
                                                      const AnswerOptions& options,
                                                      nav::Searchers& searchers) const {
  Prepared p;
  if (absl::Status s = Prepare(query, options.field_prefix, &p); !s.ok()) return s;
  WalkResult result;
  result.band = query.band;
  result.model = p.metric->model;
  result.frame = p.world->world.frame();
  if (!query.want_path && options.look_up) {
    absl::StatusOr<bool> hit = Lookup(p, &result.answer);
    if (!hit.ok()) return hit.status();
    if (*hit) {
      result.stored = true;
      return result;
    }
  }
  if (query.band != 0 && query.search == nav::SearchMode::kAuto &&
      p.metric->metric->prices_danger()) {
    absl::StatusOr<bool> reused = AnswerFromBandZero(query, options, p, searchers, &result);
    if (!reused.ok()) return reused.status();
    if (*reused) return result;
  }
  nav::WalkOptions walk_options;
  walk_options.want_path = query.want_path;
  walk_options.router = p.world->router.get();
  walk_options.search = query.search;
  absl::StatusOr<nav::WalkAnswer> answer =
      nav::AnswerWalk(p.world->world, *p.metric->metric, p.from, p.to, searchers, walk_options);
  if (!answer.ok()) return Prefixed(answer.status(), options.field_prefix);
  metrics_.RecordWalk(*answer);
  if (absl::Status s = Keep(p, *answer); !s.ok()) return s;
  result.answer = *std::move(answer);
  return result;
}

absl::Status StoreFirstAnswerer::Keep(const Prepared& p, const nav::WalkAnswer& answer) const {
  if (!p.key) return absl::OkStatus();
  const store::StoredWalk stored_walk = store::FromAnswer(answer);
  if (absl::Status s = store_->PutBatch({{*p.key, stored_walk}}); !s.ok()) return s;
  // Acknowledged by the store: batch lookups may answer it from memory from now on.
  if (cache_ != nullptr) cache_->Insert(*p.key, store::OutcomeOf(stored_walk));
  return absl::OkStatus();
}

absl::StatusOr<bool> StoreFirstAnswerer::AnswerFromBandZero(const WalkQuery& query,
                                                            const AnswerOptions& options,
                                                            const Prepared& p,
                                                            nav::Searchers& searchers,
                                                            WalkResult* result) const {
  // Band 0's answer of the same pair, from the store or routed (and kept) as any walk is.
  WalkQuery base = query;
  base.band = 0;
  AnswerOptions base_options = options;
  base_options.look_up = true;
  absl::StatusOr<WalkResult> zero = Answer(base, base_options, searchers);
  if (!zero.ok()) return zero.status();
  if (!nav::BandZeroAnswers(zero->answer, *p.metric->metric)) return false;
  result->answer = std::move(zero->answer);
  result->answer.from_band_zero = true;
  metrics_.RecordBandZeroWalk(query.band);
  if (absl::Status s = Keep(p, result->answer); !s.ok()) return s;
  return true;
}

}  // namespace walk::server
