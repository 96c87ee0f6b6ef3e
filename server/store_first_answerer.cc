#include "server/store_first_answerer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"
#include "nav/query/place_check.h"
#include "nav/query/snap.h"
#include "nav/query/walk_pipeline.h"
#include "server/proto_convert.h"
#include "store/model_hash.h"
#include "store/walk_key.h"
#include "store/walk_value.h"

namespace walk::server {

walk::v1::WalkRequest BlockPairRequest(const walk::v1::PairBlock& block, std::size_t i) {
  walk::v1::WalkRequest request;
  request.set_world(block.world());
  request.set_profile(block.profile());
  request.set_band(block.band());
  auto end = [i](walk::v1::Place* place, std::uint32_t continent,
                 const google::protobuf::RepeatedField<double>& x,
                 const google::protobuf::RepeatedField<double>& y,
                 const google::protobuf::RepeatedField<double>& z) {
    place->set_continent(continent);
    place->set_x_yards(x.Get(static_cast<int>(i)));
    place->set_y_yards(y.Get(static_cast<int>(i)));
    if (static_cast<int>(i) < z.size() && !std::isnan(z.Get(static_cast<int>(i)))) {
      place->set_z_yards(z.Get(static_cast<int>(i)));
    }
  };
  end(request.mutable_from(), block.from_continent(), block.from_x(), block.from_y(),
      block.from_z());
  end(request.mutable_to(), block.to_continent(), block.to_x(), block.to_y(), block.to_z());
  return request;
}

BlockAnswer ToBlockAnswer(std::uint64_t index, const absl::Status& status,
                          const walk::v1::WalkResponse& response, bool stored) {
  BlockAnswer answer;
  answer.index = index;
  if (!status.ok()) {
    answer.code = static_cast<int>(status.code());
    answer.message = std::string(status.message());
    return answer;
  }
  answer.status = response.status();
  answer.method = response.method();
  answer.seconds = response.seconds();
  answer.yards = response.yards();
  answer.stored = stored;
  const std::string& id = response.model_id();
  std::from_chars(id.data(), id.data() + id.size(), answer.model, 16);
  return answer;
}

namespace {

// A stored pair's entries of AnswerBlock's columns.
BlockAnswer StoredBlockAnswer(std::uint64_t index, const store::WalkOutcome& outcome,
                              std::uint64_t model) {
  BlockAnswer answer;
  answer.index = index;
  answer.status = StatusToProto(outcome.status);
  answer.method = MethodToProto(outcome.method);
  if (outcome.status == nav::WalkStatus::kOk) {
    answer.seconds = outcome.seconds;
    answer.yards = outcome.yards;
  }
  answer.stored = true;
  answer.model = model;
  return answer;
}

// The first column of `block` whose length is not the number of pairs (from_z and to_z may also
// be empty), as an INVALID_ARGUMENT naming it; OK when every column fits.
absl::Status CheckBlockColumns(const walk::v1::PairBlock& block) {
  const int n = block.index_size();
  struct Column {
    const char* name;
    int size;
    bool optional;
  };
  const Column columns[] = {
      {"from_x", block.from_x_size(), false}, {"from_y", block.from_y_size(), false},
      {"to_x", block.to_x_size(), false},     {"to_y", block.to_y_size(), false},
      {"from_z", block.from_z_size(), true},  {"to_z", block.to_z_size(), true}};
  for (const Column& c : columns) {
    if (c.size == n || (c.optional && c.size == 0)) continue;
    return absl::InvalidArgumentError(absl::StrCat("block.", c.name, ": ", c.size, " values for ",
                                                   n, " pairs (one a pair",
                                                   c.optional ? ", or none" : "", ")"));
  }
  return absl::OkStatus();
}

}  // namespace

struct StoreFirstAnswerer::Prepared {
  std::shared_ptr<const ServedWorld> world;
  const ServedWorld::MetricEntry* metric = nullptr;
  nav::Place from, to;
  std::optional<nav::Snap> from_snap, to_snap;
  std::optional<store::WalkKey> key;  // when both ends snapped and there is a store
};

absl::Status StoreFirstAnswerer::Prepare(const walk::v1::WalkRequest& request,
                                         const std::string& field_prefix, Prepared* p) const {
  if (absl::Status valid = ValidateWalkRequest(request, field_prefix); !valid.ok()) return valid;
  absl::StatusOr<std::shared_ptr<const ServedWorld>> found = worlds_.Find(request.world());
  if (!found.ok()) {
    return absl::Status(found.status().code(),
                        field_prefix + std::string(found.status().message()));
  }
  p->world = *std::move(found);
  p->metric = p->world->MetricFor(request.profile(), request.band());
  p->from = ToPlace(request.from());
  p->to = ToPlace(request.to());
  const nav::World& world = p->world->world;
  const nav::Continent* continent = world.FindContinent(p->from.continent);
  // A forced search (diagnostics) answers outside the store: the store keeps what auto answers.
  const bool forced = request.search() != walk::v1::SEARCH_AUTO;
  if (store_ != nullptr && !forced && continent != nullptr &&
      p->from.continent == p->to.continent &&
      nav::ValidatePlace(p->from, world.column_yards, "from").ok() &&
      nav::ValidatePlace(p->to, world.column_yards, "to").ok()) {
    p->from_snap = nav::SnapPlace(*continent, world.column_yards, p->from);
    p->to_snap = nav::SnapPlace(*continent, world.column_yards, p->to);
    // An end that did not snap keys with no surface: its answer (off the map, no surface) is as
    // much a fact of the model as a walk, so a rerun asks nothing again.
    auto surface = [](const nav::Snap& snap) {
      return snap.status == nav::WalkStatus::kOk ? snap.end.surface : nav::kInvalidId;
    };
    p->key = store::WalkKey{p->metric->model, store::MakeEndKey(p->from, surface(*p->from_snap)),
                            store::MakeEndKey(p->to, surface(*p->to_snap))};
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> StoreFirstAnswerer::Lookup(const Prepared& p,
                                                walk::v1::WalkResponse* out) const {
  if (!p.key) return false;
  store::StoredWalk hit;
  bool present = false;
  if (absl::Status s = store_->Get(*p.key, &hit, &present); !s.ok()) return s;
  metrics_.RecordStoreLookup(present);
  if (!present) return false;
  nav::WalkAnswer answer = store::ToAnswer(std::move(hit));
  // Where the places snap (settling is in the stored seconds).
  if (p.from_snap->status == nav::WalkStatus::kOk) answer.from_end = p.from_snap->end;
  if (p.to_snap->status == nav::WalkStatus::kOk) answer.to_end = p.to_snap->end;
  ToProto(answer, out);
  return true;
}

bool StoreFirstAnswerer::AnswerFromStore(const walk::v1::WalkRequest& request,
                                         const std::string& field_prefix,
                                         walk::v1::WalkResponse* out, absl::Status* status) const {
  Prepared prepared;
  *status = Prepare(request, field_prefix, &prepared);
  if (!status->ok()) return true;
  out->set_band(request.band());
  out->set_model_id(nav::FormatId(prepared.metric->model));
  absl::StatusOr<bool> hit = Lookup(prepared, out);
  if (!hit.ok()) {
    *status = hit.status();
    return true;
  }
  return *hit;
}

void StoreFirstAnswerer::AnswerBlockFromStore(const walk::v1::PairBlock& block,
                                              std::vector<BlockAnswer>* answered,
                                              std::vector<ToRoute>* to_route) const {
  const std::size_t n = static_cast<std::size_t>(block.index_size());
  auto refuse_all = [&](const absl::Status& status) {
    for (std::size_t i = 0; i < n; ++i) {
      answered->push_back(ToBlockAnswer(block.index(static_cast<int>(i)), status,
                                        walk::v1::WalkResponse::default_instance(), false));
    }
  };
  if (absl::Status columns = CheckBlockColumns(block); !columns.ok()) return refuse_all(columns);
  if (n == 0) return;
  // What every pair shares, checked once: the world, profile and band.
  walk::v1::WalkRequest shared = BlockPairRequest(block, 0);
  if (absl::Status valid = ValidateWalkRequest(shared, "block."); !valid.ok())
    return refuse_all(valid);
  absl::StatusOr<std::shared_ptr<const ServedWorld>> found = worlds_.Find(block.world());
  if (!found.ok()) {
    return refuse_all(
        absl::Status(found.status().code(), "block." + std::string(found.status().message())));
  }
  const ServedWorld& served = **found;
  const nav::World& world = served.world;
  const nav::Continent* continent = world.FindContinent(block.from_continent());
  const std::size_t first_routed = to_route->size();
  if (store_ == nullptr || continent == nullptr || block.from_continent() != block.to_continent()) {
    // Nothing to look up: Answer routes each pair (or says what is wrong with it).
    for (std::size_t i = 0; i < n; ++i) to_route->push_back({i, false});
    return;
  }
  const std::uint64_t model = served.MetricFor(block.profile(), block.band())->model;
  std::vector<store::WalkKey> keys;
  std::vector<std::size_t> keyed;  // keys[k] is pair keyed[k]'s
  keys.reserve(n);
  keyed.reserve(n);
  auto place = [](std::uint32_t continent, double x, double y,
                  const google::protobuf::RepeatedField<double>& z, int i) {
    nav::Place p;
    p.continent = continent;
    p.x_yards = x;
    p.y_yards = y;
    if (i < z.size() && !std::isnan(z.Get(i))) p.z_yards = z.Get(i);
    return p;
  };
  auto surface = [](const nav::Snap& snap) {
    return snap.status == nav::WalkStatus::kOk ? snap.end.surface : nav::kInvalidId;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const int k = static_cast<int>(i);
    const nav::Place from =
        place(block.from_continent(), block.from_x(k), block.from_y(k), block.from_z(), k);
    const nav::Place to =
        place(block.to_continent(), block.to_x(k), block.to_y(k), block.to_z(), k);
    if (!nav::ValidatePlace(from, world.column_yards, "from").ok() ||
        !nav::ValidatePlace(to, world.column_yards, "to").ok()) {
      to_route->push_back({i, false});  // Answer names the bad field
      continue;
    }
    // As Prepare keys a single walk.
    const nav::Snap from_snap = nav::SnapPlace(*continent, world.column_yards, from);
    const nav::Snap to_snap = nav::SnapPlace(*continent, world.column_yards, to);
    keys.push_back(store::WalkKey{model, store::MakeEndKey(from, surface(from_snap)),
                                  store::MakeEndKey(to, surface(to_snap))});
    keyed.push_back(i);
  }
  // The answer cache first: what it holds needs no RocksDB read.
  std::uint64_t cached = 0;
  if (cache_ != nullptr) {
    std::size_t kept = 0;
    store::WalkOutcome outcome;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      if (!cache_->Find(keys[k], &outcome)) {
        keys[kept] = keys[k];
        keyed[kept++] = keyed[k];
        continue;
      }
      ++cached;
      answered->push_back(
          StoredBlockAnswer(block.index(static_cast<int>(keyed[k])), outcome, model));
    }
    keys.resize(kept);
    keyed.resize(kept);
  }
  std::vector<std::optional<store::StoredWalk>> hits;
  if (absl::Status s = store_->MultiGet(keys, &hits); !s.ok()) {
    // One damaged value fails the whole MultiGet: answer these pairs one by one instead, so
    // only the damaged one is refused (Answer looks each up again).
    for (std::size_t i : keyed) to_route->push_back({i, /*looked_up=*/false});
    std::sort(to_route->begin() + static_cast<std::ptrdiff_t>(first_routed), to_route->end());
    return;
  }
  std::uint64_t hit_count = 0;
  for (std::size_t k = 0; k < keyed.size(); ++k) {
    if (!hits[k]) {
      to_route->push_back({keyed[k], /*looked_up=*/true});
      continue;
    }
    ++hit_count;
    const store::WalkOutcome outcome = store::OutcomeOf(*hits[k]);
    if (cache_ != nullptr) cache_->Insert(keys[k], outcome);
    answered->push_back(StoredBlockAnswer(block.index(static_cast<int>(keyed[k])), outcome, model));
  }
  // Pairs routed in key order after those that could not be keyed: keep the block's order.
  std::sort(to_route->begin() + static_cast<std::ptrdiff_t>(first_routed), to_route->end());
  metrics_.RecordStoreLookups(hit_count + cached, keys.size() - hit_count);
}

absl::Status StoreFirstAnswerer::Answer(const walk::v1::WalkRequest& request,
                                        const std::string& field_prefix, nav::Searchers& searchers,
                                        walk::v1::WalkResponse* out, bool* stored,
                                        walk::v1::PathResponse* path, bool look_up) const {
  *stored = false;
  Prepared p;
  if (absl::Status s = Prepare(request, field_prefix, &p); !s.ok()) return s;
  out->set_band(request.band());
  out->set_model_id(nav::FormatId(p.metric->model));
  if (path == nullptr && look_up) {
    absl::StatusOr<bool> hit = Lookup(p, out);
    if (!hit.ok()) return hit.status();
    if (*hit) {
      *stored = true;
      return absl::OkStatus();
    }
  }
  nav::WalkOptions options;
  options.want_path = path != nullptr;
  options.router = p.world->router.get();
  options.search = ToSearchMode(request.search());
  absl::StatusOr<nav::WalkAnswer> answer =
      nav::AnswerWalk(p.world->world, *p.metric->metric, p.from, p.to, searchers, options);
  if (!answer.ok()) {
    return absl::Status(answer.status().code(),
                        field_prefix + std::string(answer.status().message()));
  }
  metrics_.RecordWalk(*answer);
  ToProto(*answer, out);
  if (path != nullptr && answer->path) ToProto(*answer->path, path);
  if (p.key) {
    const store::StoredWalk stored_walk = store::FromAnswer(*answer);
    if (absl::Status s = store_->PutBatch({{*p.key, stored_walk}}); !s.ok()) return s;
    // Acknowledged by the store: batch lookups may answer it from memory from now on.
    if (cache_ != nullptr) cache_->Insert(*p.key, store::OutcomeOf(stored_walk));
  }
  return absl::OkStatus();
}

}  // namespace walk::server
