#include "nav/query/place_check.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "nav/grid/number_text.h"

namespace walk::nav {

absl::Status ValidatePlace(const Place& place, absl::string_view field) {
  auto check = [&](double value, absl::string_view name) -> absl::Status {
    if (!std::isfinite(value)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".", name, ": must be a finite number"));
    }
    if (std::abs(value) > kMaxAbsCoordinateYards) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".", name, ": ", NumberText(value),
                                                     " is out of range [-1e8, 1e8] yards"));
    }
    return absl::OkStatus();
  };
  if (absl::Status s = check(place.x_yards, "x_yards"); !s.ok()) return s;
  if (absl::Status s = check(place.y_yards, "y_yards"); !s.ok()) return s;
  if (place.z_yards.has_value()) {
    const double z = *place.z_yards;
    if (!std::isfinite(z)) {
      return absl::InvalidArgumentError(absl::StrCat(field, ".z_yards: must be a finite number"));
    }
    if (std::abs(z) > kMaxAbsHeightYards) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".z_yards: ", NumberText(z), " is out of range [-1e6, 1e6] yards"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<const Continent*> ValidateEnds(const World& world, const Place& from,
                                              const Place& to) {
  if (absl::Status s = ValidatePlace(from, "from"); !s.ok()) return s;
  if (absl::Status s = ValidatePlace(to, "to"); !s.ok()) return s;
  if (from.continent != to.continent) {
    return absl::InvalidArgumentError(absl::StrCat("to.continent: ", to.continent,
                                                   " differs from from.continent ", from.continent,
                                                   "; walks never cross continents"));
  }
  const Continent* continent = world.FindContinent(from.continent);
  if (continent == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("from.continent: the world has no continent ", from.continent));
  }
  return continent;
}

}  // namespace walk::nav
