#include "server/store_first_answerer.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "nav/navmesh/navmesh_pricing.h"
#include "nav/query/band_zero_reuse.h"
#include "nav/query/place_check.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"
#include "store/walk_key.h"
#include "store/walk_value.h"

namespace walk::server {
namespace {

// The surface an end keys with: none when it did not snap. Its answer (off the map, no surface)
// is as much a fact of the model as a walk, so a rerun asks nothing again.
nav::SurfaceId KeySurface(const nav::SurfaceSnap& snap) {
  return snap.status == nav::WalkStatus::kOk ? snap.surface : nav::kInvalidId;
}

// `status` (not OK) with its message after `field_prefix`.
absl::Status Prefixed(const absl::Status& status, absl::string_view field_prefix) {
  return absl::Status(status.code(), absl::StrCat(field_prefix, status.message()));
}

// The hybrid's rule, walk by walk: the navmesh's walk unless it has none (or `navmesh_answered`
// is false: no saved answer) or it costs more than `slack` x the grid's; a grid without a walk
// never beats a navmesh with one.
HybridChoice ChooseHybrid(bool navmesh_answered, nav::WalkStatus navmesh_status,
                          double navmesh_seconds, nav::WalkStatus grid_status, double grid_seconds,
                          double slack) {
  const bool navmesh_walks = navmesh_answered && navmesh_status == nav::WalkStatus::kOk;
  if (navmesh_walks &&
      (grid_status != nav::WalkStatus::kOk || navmesh_seconds <= slack * grid_seconds)) {
    return HybridChoice::kNavMesh;
  }
  return navmesh_walks ? HybridChoice::kNavMeshDetour : HybridChoice::kNavMeshNone;
}

// The backend `choice` names on `world`, the world's default resolved. FAILED_PRECONDITION
// naming `backend` when the world lacks what it needs.
absl::StatusOr<BackendChoice> ResolveBackend(BackendChoice choice, const ServedWorld& world,
                                             absl::string_view field_prefix) {
  if (choice == BackendChoice::kDefault) return world.DefaultBackend();
  const bool grid = world.has_grid(), navmesh = world.has_navmesh();
  if ((choice == BackendChoice::kGrid || choice == BackendChoice::kHybrid) && !grid) {
    return absl::FailedPreconditionError(absl::StrCat(field_prefix, "backend: world '", world.name,
                                                      "' has no grid (only a navmesh)"));
  }
  if ((choice == BackendChoice::kNavMesh || choice == BackendChoice::kHybrid) && !navmesh) {
    return absl::FailedPreconditionError(absl::StrCat(
        field_prefix, "backend: world '", world.name,
        "' has no navmesh (put navmesh.bin or mmaps/ in its folder: walkgrid import-navmesh)"));
  }
  return choice;
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
KeyedPairs KeyPairs(const WalkPairs& pairs, const ServedWorld& served, std::uint64_t model,
                    std::vector<StoreFirstAnswerer::ToRoute>* to_route) {
  const nav::Continent& continent = *served.world.FindContinent(pairs.from_continent);
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
    const nav::SurfaceSnap from_snap = served.SurfaceOf(continent, from);
    const nav::SurfaceSnap to_snap = served.SurfaceOf(continent, to);
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
  answer.hybrid = result->hybrid;
  return answer;
}

struct StoreFirstAnswerer::Prepared {
  std::shared_ptr<const ServedWorld> world;
  const ServedWorld::MetricEntry* metric = nullptr;
  ServedWorld::ContinentModels models;  // the metric's on the ends' continent
  nav::WorldFrame frame;                // that continent's (the world's origin without one)
  nav::Place from, to;
  BackendChoice backend = BackendChoice::kGrid;        // resolved: grid, navmesh or hybrid
  std::optional<nav::SurfaceSnap> from_snap, to_snap;  // the key's: ends read on a hit
  std::optional<store::WalkKey> key;          // the grid's: both ends snapped, there is a store
  std::optional<store::WalkKey> navmesh_key;  // the navmesh's: valid places, there is a store
  const ServedNavMesh* navmesh = nullptr;     // the navmesh of from's continent, or null
};

// The surface a snap stands on, as SnapSurface gives it.
nav::SurfaceSnap SurfaceSnapOf(const nav::Snap& snap) {
  return {.status = snap.status,
          .surface = snap.status == nav::WalkStatus::kOk ? snap.end.surface : nav::kInvalidId};
}

// The place a navmesh walk starts or ends at: a place without a height stands on the grid's
// usual floor of its column (as a grid walk's end does), so both backends walk from the same
// floor; where the grid has no surface there, it keeps no height (the navmesh's own rule).
nav::Place OnUsualFloor(const ServedWorld& served, const nav::Place& place) {
  if (place.z_yards.has_value()) return place;
  const nav::Continent* continent = served.world.FindContinent(place.continent);
  if (continent == nullptr) return place;
  const nav::Snap snap = served.SnapOf(*continent, place);
  if (snap.status != nav::WalkStatus::kOk) return place;
  nav::Place floor = place;
  floor.z_yards = snap.end.surface_z_yards;
  return floor;
}

absl::Status StoreFirstAnswerer::Prepare(const WalkQuery& query, absl::string_view field_prefix,
                                         Prepared* p, const nav::GivenSnaps& snaps) const {
  if (absl::Status valid = query.Validate(field_prefix); !valid.ok()) return valid;
  absl::StatusOr<std::shared_ptr<const ServedWorld>> found = worlds_.Find(query.world);
  if (!found.ok()) return Prefixed(found.status(), field_prefix);
  p->world = *std::move(found);
  p->metric = p->world->MetricFor(query.profile, query.band);
  p->from = *query.from;
  p->to = *query.to;
  p->models = p->metric->On(p->from.continent);
  const nav::World& w = p->world->world;
  const nav::Continent* on = w.FindContinent(p->from.continent);
  p->frame = on != nullptr ? w.FrameOf(*on) : nav::WorldFrame{.column_yards = w.column_yards};
  absl::StatusOr<BackendChoice> backend = ResolveBackend(query.backend, *p->world, field_prefix);
  if (!backend.ok()) return backend.status();
  p->backend = *backend;
  // A forced search (diagnostics) answers outside the store: the store keeps what auto answers.
  const bool forced = query.search != nav::SearchMode::kAuto;
  if (forced && p->backend == BackendChoice::kNavMesh) {
    return absl::InvalidArgumentError(absl::StrCat(
        field_prefix, "search: a forced search walks the grid; with backend navmesh it is AUTO"));
  }
  const bool places_ok = p->from.continent == p->to.continent &&
                         nav::ValidatePlace(p->from, "from").ok() &&
                         nav::ValidatePlace(p->to, "to").ok();
  if (p->backend != BackendChoice::kGrid) {
    const int index = p->world->NavMeshIndexOf(p->from.continent);
    if (index < 0 && p->backend == BackendChoice::kNavMesh) {
      return absl::FailedPreconditionError(absl::StrCat(
          field_prefix, "backend: world '", p->world->name, "' has no navmesh on continent ",
          p->from.continent, " (navmesh.json maps each navmesh map to a continent)"));
    }
    if (index >= 0) {
      p->navmesh = p->world->navmeshes[index].get();
    }
  }
  if (store_ != nullptr && places_ok && p->navmesh != nullptr) {
    p->navmesh_key = store::WalkKey{p->models.navmesh, store::MakeEndKey(p->from, nav::kInvalidId),
                                    store::MakeEndKey(p->to, nav::kInvalidId)};
  }
  const nav::World& world = p->world->world;
  const nav::Continent* continent = world.FindContinent(p->from.continent);
  if (store_ != nullptr && !forced && continent != nullptr && places_ok &&
      p->backend != BackendChoice::kNavMesh) {
    const nav::Snap* from = snaps.FromOn(*continent);
    const nav::Snap* to = snaps.ToOn(*continent);
    p->from_snap =
        from != nullptr ? SurfaceSnapOf(*from) : p->world->SurfaceOf(*continent, p->from);
    p->to_snap = to != nullptr ? SurfaceSnapOf(*to) : p->world->SurfaceOf(*continent, p->to);
    p->key = store::WalkKey{p->models.grid, store::MakeEndKey(p->from, KeySurface(*p->from_snap)),
                            store::MakeEndKey(p->to, KeySurface(*p->to_snap))};
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> StoreFirstAnswerer::LookupKey(const std::optional<store::WalkKey>& key,
                                                   nav::WalkAnswer* out) const {
  if (!key) return false;
  store::StoredWalk hit;
  bool present = false;
  if (absl::Status s = store_->Get(*key, &hit, &present); !s.ok()) {
    if (store_health_ == nullptr || s.code() == absl::StatusCode::kDataLoss) return s;
    store_health_->ReadFailed(s);  // the store is failing, not this answer: route it
    return false;
  }
  metrics_.RecordStoreLookup(present);
  if (!present) return false;
  *out = store::ToAnswer(std::move(hit));
  return true;
}

absl::StatusOr<bool> StoreFirstAnswerer::Lookup(const Prepared& p, nav::WalkAnswer* out) const {
  absl::StatusOr<bool> hit = LookupKey(p.key, out);
  if (!hit.ok() || !*hit) return hit;
  // Where the walk stood at its ends, as when it was walked: where the places snap, an end in a
  // pocket settled, at the usual floors for a walk found only there (read again: not kept).
  const nav::Continent& c = *p.world->world.FindContinent(p.from.continent);
  const bool from_ok = p.from_snap->status == nav::WalkStatus::kOk;
  const bool to_ok = p.to_snap->status == nav::WalkStatus::kOk;
  if (from_ok) out->from_end = nav::SnapOfSurface(c, *p.from_snap).end;
  if (to_ok) out->to_end = nav::SnapOfSurface(c, *p.to_snap).end;
  if (from_ok && to_ok && (out->retried || out->from_end->region != out->to_end->region)) {
    const nav::SettleOptions settle = nav::WalkOptions().settle;
    if (out->retried) {
      nav::UsualFloorEnds(c, p.frame, settle, p.from, p.to, &*out->from_end, &*out->to_end);
    } else {
      nav::SettleApart(c, p.frame.column_yards, settle, &*out->from_end, &*out->to_end);
    }
  }
  return true;
}

absl::StatusOr<std::optional<WalkResult>> StoreFirstAnswerer::AnswerFromStore(
    const WalkQuery& query, absl::string_view field_prefix) const {
  Prepared p;
  if (absl::Status s = Prepare(query, field_prefix, &p); !s.ok()) return s;
  WalkResult result;
  result.band = query.band;
  result.frame = p.frame;
  std::optional<WalkResult> grid, navmesh;
  if (p.backend != BackendChoice::kNavMesh) {
    result.model = p.models.grid;
    absl::StatusOr<bool> hit = Lookup(p, &result.answer);
    if (!hit.ok()) return hit.status();
    if (!*hit) return std::nullopt;
    result.stored = true;
    if (p.backend == BackendChoice::kGrid) return result;
    grid = std::move(result);
  }
  if (p.navmesh == nullptr) return Combine(query.band, std::nullopt, *std::move(grid));
  WalkResult mesh;
  mesh.band = query.band;
  mesh.frame = p.frame;
  mesh.model = p.models.navmesh;
  absl::StatusOr<bool> hit = LookupKey(p.navmesh_key, &mesh.answer);
  if (!hit.ok()) return hit.status();
  if (*hit) {
    mesh.stored = true;
    navmesh = std::move(mesh);
  } else if (!p.navmesh->saved_only() || p.backend == BackendChoice::kNavMesh) {
    return std::nullopt;  // to be walked (or, saved answers only, refused by Answer)
  }
  if (p.backend == BackendChoice::kNavMesh) return navmesh;
  return Combine(query.band, std::move(navmesh), *std::move(grid));
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
  absl::StatusOr<BackendChoice> backend = ResolveBackend(pairs.backend, served, "block.");
  if (!backend.ok()) return refuse_all(backend.status());
  if (*backend != BackendChoice::kGrid) {
    return AnswerMixedBlockFromStore(pairs, served, *backend, answered, to_route);
  }
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
  KeyedPairs keyed = KeyPairs(
      pairs, served, served.MetricFor(pairs.profile, pairs.band)->On(pairs.from_continent).grid,
      to_route);
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
  KeyedPairs missed;
  for (std::size_t k = 0; k < keyed.positions.size(); ++k) {
    if (!hits[k]) {
      missed.keys.push_back(keyed.keys[k]);
      missed.positions.push_back(keyed.positions[k]);
      continue;
    }
    ++hit_count;
    const store::WalkOutcome outcome = store::OutcomeOf(*hits[k]);
    if (cache_ != nullptr) cache_->Insert(keyed.keys[k], outcome);
    answered->push_back(StoredBlockAnswer(pairs.index[keyed.positions[k]], outcome, keyed.model));
  }
  metrics_.RecordStoreLookups(hit_count + cached, keyed.keys.size() - hit_count);
  AnswerFromStoredBandZero(pairs, served, &missed.keys, &missed.positions, answered);
  for (const std::size_t position : missed.positions) {
    to_route->push_back({position, /*looked_up=*/true});
  }
  sort_routed();
}

void StoreFirstAnswerer::AnswerFromStoredBandZero(const WalkPairs& pairs, const ServedWorld& served,
                                                  std::vector<store::WalkKey>* keys,
                                                  std::vector<std::size_t>* positions,
                                                  std::vector<BlockAnswer>* answered) const {
  const nav::Metric& band = *served.MetricFor(pairs.profile, pairs.band)->metric;
  if (pairs.band == 0 || !band.prices_danger() || keys->empty()) return;
  // Band 0's keys: the same ends under band 0's model.
  const std::uint64_t zero_model =
      served.MetricFor(pairs.profile, 0)->On(pairs.from_continent).grid;
  std::vector<store::WalkKey> zero_keys = *keys;
  for (store::WalkKey& key : zero_keys) key.model = zero_model;
  std::vector<std::optional<store::StoredWalk>> zero;
  if (!store_->MultiGet(zero_keys, &zero).ok()) return;  // each pair's Answer asks again
  const std::size_t found = static_cast<std::size_t>(
      std::count_if(zero.begin(), zero.end(), [](const auto& walk) { return walk.has_value(); }));
  metrics_.RecordStoreLookups(found, zero.size() - found);
  std::vector<std::pair<store::WalkKey, store::StoredWalk>> keep;
  std::vector<BlockAnswer> reused;
  std::size_t left = 0;
  for (std::size_t k = 0; k < keys->size(); ++k) {
    if (zero[k].has_value()) {
      nav::WalkAnswer answer = store::ToAnswer(*std::move(zero[k]));
      if (nav::BandZeroAnswers(answer, band)) {
        answer.from_band_zero = true;
        keep.emplace_back((*keys)[k], store::FromAnswer(answer));
        BlockAnswer row = StoredBlockAnswer(pairs.index[(*positions)[k]],
                                            store::OutcomeOf(keep.back().second), (*keys)[k].model);
        row.stored = false;  // answered by band 0's walk, as Answer's reuse is: routed
        reused.push_back(row);
        continue;
      }
    }
    (*keys)[left] = (*keys)[k];
    (*positions)[left++] = (*positions)[k];
  }
  if (keep.empty()) return;
  // Kept under the band's keys as Keep keeps one answer; where the store fails without a health
  // to tell, every such pair is routed instead, and its own Answer reports the failure.
  if (store_health_ != nullptr && store_health_->degraded()) {
    for (std::size_t i = 0; i < keep.size(); ++i) metrics_.RecordUnkeptAnswer();
  } else if (absl::Status s = store_->PutBatch(keep); !s.ok()) {
    if (store_health_ == nullptr) return;
    store_health_->WriteFailed(s);
    for (std::size_t i = 0; i < keep.size(); ++i) metrics_.RecordUnkeptAnswer();
  } else if (cache_ != nullptr) {
    for (const auto& [key, walk] : keep) cache_->Insert(key, store::OutcomeOf(walk));
  }
  keys->resize(left);
  positions->resize(left);
  for (BlockAnswer& row : reused) {
    metrics_.RecordBandZeroWalk(pairs.band);
    answered->push_back(std::move(row));
  }
}

void StoreFirstAnswerer::AnswerMixedBlockFromStore(const WalkPairs& pairs,
                                                   const ServedWorld& served, BackendChoice backend,
                                                   std::vector<BlockAnswer>* answered,
                                                   std::vector<ToRoute>* to_route) const {
  const std::size_t n = pairs.size();
  const bool hybrid = backend == BackendChoice::kHybrid;
  const nav::Continent* continent = served.world.FindContinent(pairs.from_continent);
  const int navmesh_index = served.NavMeshIndexOf(pairs.from_continent);
  if (store_ == nullptr || pairs.from_continent != pairs.to_continent ||
      (hybrid && continent == nullptr) || navmesh_index < 0) {
    for (std::size_t i = 0; i < n; ++i) to_route->push_back({i, false});
    return;
  }
  const ServedWorld::ContinentModels models =
      served.MetricFor(pairs.profile, pairs.band)->On(pairs.from_continent);
  const std::size_t first_routed = to_route->size();
  std::vector<std::size_t> positions;
  std::vector<store::WalkKey> navmesh_keys, grid_keys;
  for (std::size_t i = 0; i < n; ++i) {
    const nav::Place from = pairs.From(i), to = pairs.To(i);
    if (!nav::ValidatePlace(from, "from").ok() || !nav::ValidatePlace(to, "to").ok()) {
      to_route->push_back({i, false});  // Answer names the field
      continue;
    }
    positions.push_back(i);
    navmesh_keys.push_back(store::WalkKey{models.navmesh, store::MakeEndKey(from, nav::kInvalidId),
                                          store::MakeEndKey(to, nav::kInvalidId)});
    if (!hybrid) continue;
    const nav::SurfaceSnap from_snap = served.SurfaceOf(*continent, from);
    const nav::SurfaceSnap to_snap = served.SurfaceOf(*continent, to);
    grid_keys.push_back(store::WalkKey{models.grid, store::MakeEndKey(from, KeySurface(from_snap)),
                                       store::MakeEndKey(to, KeySurface(to_snap))});
  }
  auto sort_routed = [&] {
    std::sort(to_route->begin() + static_cast<std::ptrdiff_t>(first_routed), to_route->end());
  };
  std::vector<std::optional<store::StoredWalk>> navmesh_hits, grid_hits;
  if (!store_->MultiGet(navmesh_keys, &navmesh_hits).ok() ||
      (hybrid && !store_->MultiGet(grid_keys, &grid_hits).ok())) {
    for (std::size_t i : positions) to_route->push_back({i, false});  // one by one: see above
    return sort_routed();
  }
  const bool saved_only = served.navmeshes[navmesh_index]->saved_only();
  std::uint64_t hits = 0, misses = 0;
  for (std::size_t k = 0; k < positions.size(); ++k) {
    const std::uint64_t index = pairs.index[positions[k]];
    const bool navmesh_hit = navmesh_hits[k].has_value();
    (navmesh_hit ? hits : misses) += 1;
    if (!hybrid) {
      if (navmesh_hit) {
        answered->push_back(
            StoredBlockAnswer(index, store::OutcomeOf(*navmesh_hits[k]), models.navmesh));
      } else {
        to_route->push_back({positions[k], true});
      }
      continue;
    }
    (grid_hits[k] ? hits : misses) += 1;
    if (!grid_hits[k] || (!navmesh_hit && !saved_only)) {
      to_route->push_back({positions[k], false});
      continue;
    }
    const store::WalkOutcome grid = store::OutcomeOf(*grid_hits[k]);
    store::WalkOutcome mesh;
    if (navmesh_hit) mesh = store::OutcomeOf(*navmesh_hits[k]);
    const HybridChoice choice = ChooseHybrid(navmesh_hit, mesh.status, mesh.seconds, grid.status,
                                             grid.seconds, hybrid_slack_);
    const bool took_navmesh = choice == HybridChoice::kNavMesh;
    BlockAnswer row = StoredBlockAnswer(index, took_navmesh ? mesh : grid,
                                        took_navmesh ? models.navmesh : models.grid);
    row.hybrid = choice;
    metrics_.RecordHybridWalks(pairs.band, HybridChoiceName(choice));
    answered->push_back(row);
  }
  sort_routed();
  metrics_.RecordStoreLookups(hits, misses);
}

absl::StatusOr<WalkResult> StoreFirstAnswerer::Answer(const WalkQuery& query,
                                                      const AnswerOptions& options,
                                                      nav::Searchers& searchers) const {
  Prepared p;
  if (absl::Status s = Prepare(query, options.field_prefix, &p, options.snaps); !s.ok()) return s;
  if (p.backend == BackendChoice::kGrid) return AnswerGrid(query, options, p, searchers);
  absl::StatusOr<std::optional<WalkResult>> navmesh =
      p.navmesh != nullptr ? AnswerNavMesh(query, options, p, searchers)
                           : absl::StatusOr<std::optional<WalkResult>>(std::nullopt);
  if (!navmesh.ok()) return navmesh.status();
  if (p.backend == BackendChoice::kNavMesh) {
    if (navmesh->has_value()) return **std::move(navmesh);
    return absl::FailedPreconditionError(absl::StrCat(
        options.field_prefix, "backend: world '", p.world->name,
        "' keeps only saved navmesh answers, and none for this pair (ask the grid or the "
        "hybrid)"));
  }
  absl::StatusOr<WalkResult> grid = AnswerGrid(query, options, p, searchers);
  if (!grid.ok()) return grid.status();
  return Combine(query.band, *std::move(navmesh), *std::move(grid));
}

WalkResult StoreFirstAnswerer::Combine(std::uint32_t band, std::optional<WalkResult> navmesh,
                                       WalkResult grid) const {
  const HybridChoice choice =
      navmesh ? ChooseHybrid(true, navmesh->answer.status, navmesh->answer.seconds,
                             grid.answer.status, grid.answer.seconds, hybrid_slack_)
              : HybridChoice::kNavMeshNone;
  const bool stored = grid.stored && (!navmesh || navmesh->stored);
  WalkResult result = choice == HybridChoice::kNavMesh ? *std::move(navmesh) : std::move(grid);
  result.hybrid = choice;
  result.stored = stored;
  metrics_.RecordHybridWalks(band, HybridChoiceName(choice));
  return result;
}

absl::StatusOr<WalkResult> StoreFirstAnswerer::AnswerGrid(const WalkQuery& query,
                                                          const AnswerOptions& options,
                                                          const Prepared& p,
                                                          nav::Searchers& searchers) const {
  WalkResult result;
  result.band = query.band;
  result.model = p.models.grid;
  result.frame = p.frame;
  if (!query.want_path && options.look_up) {
    absl::StatusOr<bool> hit = Lookup(p, &result.answer);
    if (!hit.ok()) return hit.status();
    if (*hit) {
      result.stored = true;
      return result;
    }
  }
  if (query.band != 0 && query.search == nav::SearchMode::kAuto && options.band_zero_first &&
      p.metric->metric->prices_danger()) {
    absl::StatusOr<bool> reused = AnswerFromBandZero(query, options, p, searchers, &result);
    if (!reused.ok()) return reused.status();
    if (*reused) return result;
  }
  nav::WalkOptions walk_options;
  walk_options.want_path = query.want_path;
  walk_options.router = p.world->router.get();
  walk_options.jump_grids = &p.world->jump_grids;
  walk_options.subgoal_hierarchies = &p.world->subgoal_hierarchies;
  walk_options.search = query.search;
  walk_options.stop = options.stop;
  walk_options.max_seconds = options.max_seconds;
  walk_options.snaps = options.snaps;
  absl::StatusOr<nav::WalkAnswer> answer =
      nav::AnswerWalk(p.world->world, *p.metric->metric, p.from, p.to, searchers, walk_options);
  if (!answer.ok()) return Prefixed(answer.status(), options.field_prefix);
  if (answer->dearer) {
    result.answer = *std::move(answer);
    return result;
  }
  metrics_.RecordWalk(*answer, query.band);
  if (absl::Status s = Keep(p.key, *answer); !s.ok()) return s;
  result.answer = *std::move(answer);
  return result;
}

absl::StatusOr<std::optional<WalkResult>> StoreFirstAnswerer::AnswerNavMesh(
    const WalkQuery& query, const AnswerOptions& options, const Prepared& p,
    nav::Searchers& searchers) const {
  WalkResult result;
  result.band = query.band;
  result.model = p.models.navmesh;
  result.frame = p.frame;
  if (!query.want_path) {
    absl::StatusOr<bool> hit = LookupKey(p.navmesh_key, &result.answer);
    if (!hit.ok()) return hit.status();
    if (*hit) {
      result.stored = true;
      return result;
    }
  }
  const ServedNavMesh& served = *p.navmesh;
  if (served.saved_only()) return std::nullopt;  // its answers are read, never made
  if (absl::Status s = nav::ValidatePlace(p.from, "from"); !s.ok()) {
    return Prefixed(s, options.field_prefix);
  }
  if (absl::Status s = nav::ValidatePlace(p.to, "to"); !s.ok()) {
    return Prefixed(s, options.field_prefix);
  }
  if (p.from.continent != p.to.continent) {
    return absl::InvalidArgumentError(
        absl::StrCat(options.field_prefix, "to.continent: ", p.to.continent,
                     " is not from's continent ", p.from.continent, " (walks never cross)"));
  }
  if (p.from.continent != served.continent) {
    result.answer.status = nav::WalkStatus::kOffMap;  // the navmesh walks another continent
    result.answer.method = nav::Method::kNavMesh;
  } else {
    absl::StatusOr<nav::NavMeshWalker*> walker = searchers.navmesh.For(*served.navmesh);
    if (!walker.ok()) return walker.status();
    absl::StatusOr<nav::NavMeshWalk> walk = (*walker)->Walk(
        OnUsualFloor(*p.world, p.from), OnUsualFloor(*p.world, p.to),
        nav::NavMeshPricing{p.metric->metric.get(), &*served.ground}, query.want_path);
    if (!walk.ok()) return walk.status();
    result.answer = nav::ToWalkAnswer(*std::move(walk), query.want_path);
  }
  metrics_.RecordWalk(result.answer, query.band);
  if (absl::Status s = Keep(p.navmesh_key, result.answer); !s.ok()) return s;
  return result;
}

absl::Status StoreFirstAnswerer::Keep(const std::optional<store::WalkKey>& key,
                                      const nav::WalkAnswer& answer) const {
  // Only answers whose two ends snapped are kept: an end off the map or off every surface costs
  // a snap to answer again, and keeping it would let any client fill the store with nonsense.
  if (!key || answer.status == nav::WalkStatus::kOffMap ||
      answer.status == nav::WalkStatus::kNoSurface) {
    return absl::OkStatus();
  }
  // A table's matrix cell lacks its zone cells: a whole answer is stored, or none.
  if (answer.zone_cells_left_out) return absl::OkStatus();
  if (store_health_ != nullptr && store_health_->degraded()) {
    metrics_.RecordUnkeptAnswer();  // the store takes no writes now: the answer is still returned
    return absl::OkStatus();
  }
  const store::StoredWalk stored_walk = store::FromAnswer(answer);
  if (absl::Status s = store_->PutBatch({{*key, stored_walk}}); !s.ok()) {
    if (store_health_ == nullptr) return s;
    store_health_->WriteFailed(s);
    metrics_.RecordUnkeptAnswer();
    return absl::OkStatus();
  }
  // Acknowledged by the store: batch lookups may answer it from memory from now on.
  if (cache_ != nullptr) cache_->Insert(*key, store::OutcomeOf(stored_walk));
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
  base.backend = BackendChoice::kGrid;
  AnswerOptions base_options = options;
  base_options.look_up = true;
  absl::StatusOr<WalkResult> zero = Answer(base, base_options, searchers);
  if (!zero.ok()) return zero.status();
  if (!nav::BandZeroAnswers(zero->answer, *p.metric->metric)) return false;
  result->answer = std::move(zero->answer);
  result->answer.from_band_zero = true;
  metrics_.RecordBandZeroWalk(query.band);
  if (absl::Status s = Keep(p.key, result->answer); !s.ok()) return s;
  return true;
}

}  // namespace walk::server
