#include "server/walk_answerer.h"

#include <optional>

#include "nav/answer_walk.h"
#include "nav/snap.h"
#include "server/proto_convert.h"
#include "store/model_hash.h"
#include "store/walk_key.h"
#include "store/walk_value.h"

namespace walk::server {

struct WalkAnswerer::Prepared {
  std::shared_ptr<const ServedWorld> world;
  const ServedWorld::MetricEntry* metric = nullptr;
  nav::Place from, to;
  std::optional<nav::Snap> from_snap, to_snap;
  std::optional<store::WalkKey> key;  // when both ends snapped and there is a store
};

absl::Status WalkAnswerer::Prepare(const walk::v1::WalkRequest& request,
                                   const std::string& field_prefix, Prepared* p) const {
  if (absl::Status valid = ValidateWalkRequest(request, field_prefix); !valid.ok()) return valid;
  absl::StatusOr<std::shared_ptr<const ServedWorld>> found = worlds_.Find(request.world());
  if (!found.ok()) {
    return absl::Status(found.status().code(), field_prefix + std::string(found.status().message()));
  }
  p->world = *std::move(found);
  p->metric = p->world->MetricFor(request.profile(), request.band());
  p->from = ToPlace(request.from());
  p->to = ToPlace(request.to());
  const nav::World& world = p->world->world;
  const nav::Continent* continent = world.FindContinent(p->from.continent);
  // A forced search (diagnostics) answers outside the store: the store keeps what auto answers.
  const bool forced = request.search() != walk::v1::SEARCH_AUTO;
  if (store_ != nullptr && !forced && continent != nullptr && p->from.continent == p->to.continent &&
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

absl::StatusOr<bool> WalkAnswerer::Lookup(const Prepared& p, walk::v1::WalkResponse* out) const {
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

bool WalkAnswerer::AnswerFromStore(const walk::v1::WalkRequest& request,
                                   const std::string& field_prefix, walk::v1::WalkResponse* out,
                                   absl::Status* status) const {
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

absl::Status WalkAnswerer::Answer(const walk::v1::WalkRequest& request,
                                  const std::string& field_prefix, nav::Searchers& searchers,
                                  walk::v1::WalkResponse* out, bool* stored,
                                  walk::v1::PathResponse* path) const {
  *stored = false;
  Prepared p;
  if (absl::Status s = Prepare(request, field_prefix, &p); !s.ok()) return s;
  out->set_band(request.band());
  out->set_model_id(nav::FormatId(p.metric->model));
  if (path == nullptr) {
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
    return absl::Status(answer.status().code(), field_prefix + std::string(answer.status().message()));
  }
  metrics_.RecordWalk(*answer);
  ToProto(*answer, out);
  if (path != nullptr && answer->path) ToProto(*answer->path, path);
  if (p.key) {
    if (absl::Status s = store_->PutBatch({{*p.key, store::FromAnswer(*answer)}}); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace walk::server
