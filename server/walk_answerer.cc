#include "server/walk_answerer.h"

#include "nav/answer_walk.h"
#include "nav/snap.h"
#include "server/proto_convert.h"
#include "store/model_hash.h"
#include "store/walk_key.h"
#include "store/walk_value.h"

namespace walk::server {

absl::Status WalkAnswerer::Answer(const walk::v1::WalkRequest& request,
                                  const std::string& field_prefix, nav::Walker& walker,
                                  walk::v1::WalkResponse* out, bool* stored,
                                  walk::v1::PathResponse* path) const {
  *stored = false;
  if (absl::Status valid = ValidateWalkRequest(request, field_prefix); !valid.ok()) return valid;
  absl::StatusOr<std::shared_ptr<const ServedWorld>> found = worlds_.Find(request.world());
  if (!found.ok()) {
    return absl::Status(found.status().code(), field_prefix + std::string(found.status().message()));
  }
  const ServedWorld& served = **found;
  const nav::World& world = served.world;
  const nav::Metric& metric = *served.MetricFor(request.profile(), request.band());
  const nav::Place from = ToPlace(request.from()), to = ToPlace(request.to());
  const std::uint64_t model = store::ModelHash({world.content_id, &metric});
  out->set_band(request.band());
  out->set_model_id(nav::FormatId(model));

  // The store's key needs the snapped surfaces: snap first (cheap), then look up.
  std::optional<store::WalkKey> key;
  const nav::Continent* continent = world.FindContinent(from.continent);
  if (store_ != nullptr && continent != nullptr && from.continent == to.continent &&
      nav::ValidatePlace(from, world.column_yards, "from").ok() &&
      nav::ValidatePlace(to, world.column_yards, "to").ok()) {
    const nav::Snap a = nav::SnapPlace(*continent, world.column_yards, from);
    const nav::Snap b = nav::SnapPlace(*continent, world.column_yards, to);
    if (a.status == nav::WalkStatus::kOk && b.status == nav::WalkStatus::kOk) {
      key = store::WalkKey{model, store::MakeEndKey(from, a.end.surface),
                           store::MakeEndKey(to, b.end.surface)};
      if (path == nullptr) {
        store::StoredWalk hit;
        bool present = false;
        if (absl::Status s = store_->Get(*key, &hit, &present); !s.ok()) return s;
        metrics_.RecordStoreLookup(present);
        if (present) {
          nav::WalkAnswer answer = store::ToAnswer(std::move(hit));
          answer.from_end = a.end;  // where the places snap (settling is in the stored seconds)
          answer.to_end = b.end;
          ToProto(answer, out);
          *stored = true;
          return absl::OkStatus();
        }
      }
    }
  }

  nav::WalkOptions options;
  options.want_path = path != nullptr;
  absl::StatusOr<nav::WalkAnswer> answer = nav::AnswerWalk(world, metric, from, to, walker, options);
  if (!answer.ok()) return absl::Status(answer.status().code(), field_prefix + std::string(answer.status().message()));
  metrics_.RecordWalk(*answer);
  ToProto(*answer, out);
  if (path != nullptr && answer->path) ToProto(*answer->path, path);
  if (key) {
    if (absl::Status s = store_->PutBatch({{*key, store::FromAnswer(*answer)}}); !s.ok()) return s;
  }
  return absl::OkStatus();
}

}  // namespace walk::server
