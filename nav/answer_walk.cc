#include "nav/answer_walk.h"

#include "absl/strings/str_cat.h"
#include "nav/snap.h"

namespace walk::nav {

absl::StatusOr<WalkAnswer> AnswerWalk(const World& world, const Profile& profile,
                                      const Place& from, const Place& to, Walker& walker) {
  if (absl::Status s = ValidatePlace(from, world.column_yards, "from"); !s.ok()) return s;
  if (absl::Status s = ValidatePlace(to, world.column_yards, "to"); !s.ok()) return s;
  if (from.continent != to.continent) {
    return absl::InvalidArgumentError(absl::StrCat("to.continent: ", to.continent,
                                                   " differs from from.continent ", from.continent,
                                                   "; walks never cross continents"));
  }
  const Continent* continent = world.FindContinent(from.continent);
  if (continent == nullptr) {
    return absl::NotFoundError(absl::StrCat("from.continent: the world has no continent ", from.continent));
  }

  WalkAnswer answer;
  answer.method = Method::kTrivial;
  const Snap a = SnapPlace(*continent, world.column_yards, from);
  const Snap b = SnapPlace(*continent, world.column_yards, to);
  if (a.status == WalkStatus::kOk) answer.from_end = a.end;
  if (b.status == WalkStatus::kOk) answer.to_end = b.end;
  if (a.status != WalkStatus::kOk || b.status != WalkStatus::kOk) {
    answer.status = a.status != WalkStatus::kOk ? a.status : b.status;
    return answer;
  }
  if (a.end.surface == b.end.surface) {
    answer.status = WalkStatus::kOk;
    return answer;
  }
  if (a.end.region != b.end.region) {
    answer.status = WalkStatus::kNoWalk;
    answer.method = Method::kRegions;
    return answer;
  }
  answer.method = Method::kFineGrid;
  const SearchResult found =
      walker.FindWalk(*continent, world.column_yards, profile, a.end.surface, b.end.surface);
  answer.stats = found.stats;
  if (!found.found) {
    answer.status = WalkStatus::kNoWalk;
    return answer;
  }
  answer.status = WalkStatus::kOk;
  answer.seconds = found.seconds;
  answer.yards = found.yards * profile.smoothing;
  return answer;
}

}  // namespace walk::nav
