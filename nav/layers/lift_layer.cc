#include "nav/layers/lift_layer.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <initializer_list>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nav/grid/number_text.h"
#include "nav/layers/json_text.h"
#include "nlohmann/json.hpp"

namespace walk::nav {
namespace {

using Json = nlohmann::json;

// Reads one lift; the first fault ends it, named by the member.
class LiftReader {
 public:
  LiftReader(const std::string& file, std::size_t index) : file_(file) { spec_.index = index; }

  absl::StatusOr<LiftSpec> Read(const Json& json);

 private:
  absl::Status Error(absl::string_view member, absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(file_, ": ", spec_.Label(), ": ", member, ": ", what));
  }
  // Refuses a member of `json` not among `known` (`path` prefixes its name).
  absl::Status OnlyKnown(const Json& json, const std::string& path,
                         std::initializer_list<std::string_view> known) const;
  absl::Status ReadLanding(const Json& json, const std::string& member, LiftSpec::Landing* out);
  // The optional number `member` within [lo, hi] (above lo when `above_lo`); *out kept if absent.
  absl::Status ReadNumber(const Json& json, const std::string& member, double lo, double hi,
                          bool above_lo, double* out) const;

  const std::string& file_;
  LiftSpec spec_;
};

absl::StatusOr<LiftSpec> LiftReader::Read(const Json& json) {
  if (!json.is_object()) return Error("lift", "must be an object");
  // The name first: it labels every later error.
  if (const auto name = json.find("name"); name != json.end()) {
    if (!name->is_string()) return Error("name", "must be a string");
    spec_.name = name->get<std::string>();
  }
  if (absl::Status s =
          OnlyKnown(json, "", {"name", "continent", "from", "to", "wait_s", "shaft_yards_per_s"});
      !s.ok()) {
    return s;
  }
  if (const auto continent = json.find("continent"); continent != json.end()) {
    if (!continent->is_number_unsigned() || continent->get<std::uint64_t>() > 0xFFFFFFFFu)
      return Error("continent", "must be an integer 0..4294967295");
    spec_.continent = continent->get<ContinentId>();
  }
  for (const char* member : {"from", "to"}) {
    const auto landing = json.find(member);
    if (landing == json.end()) return Error(member, "is missing (a landing {\"x\", \"y\", \"z\"})");
    LiftSpec::Landing& out = std::string_view(member) == "from" ? spec_.from : spec_.to;
    if (absl::Status s = ReadLanding(*landing, member, &out); !s.ok()) return s;
  }
  if (absl::Status s =
          ReadNumber(json, "wait_s", 0.0, kMaxLiftWaitSeconds, false, &spec_.wait_seconds);
      !s.ok()) {
    return s;
  }
  if (absl::Status s = ReadNumber(json, "shaft_yards_per_s", 0.0, kMaxLiftYardsPerSecond, true,
                                  &spec_.shaft_yards_per_second);
      !s.ok()) {
    return s;
  }
  return spec_;
}

absl::Status LiftReader::OnlyKnown(const Json& json, const std::string& path,
                                   std::initializer_list<std::string_view> known) const {
  for (const auto& [key, value] : json.items()) {
    if (std::find(known.begin(), known.end(), key) == known.end()) {
      return Error(path + key, "is not a member of a lift (misspelt?)");
    }
  }
  return absl::OkStatus();
}

absl::Status LiftReader::ReadLanding(const Json& json, const std::string& member,
                                     LiftSpec::Landing* out) {
  if (!json.is_object()) return Error(member, "must be an object {\"x\", \"y\", \"z\"}");
  if (absl::Status s = OnlyKnown(json, member + ".", {"x", "y", "z"}); !s.ok()) return s;
  double* fields[] = {&out->x, &out->y, &out->z};
  const char* names[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    const auto value = json.find(names[i]);
    const std::string path = absl::StrCat(member, ".", names[i]);
    if (value == json.end() || !value->is_number()) return Error(path, "must be a finite number");
    *fields[i] = value->get<double>();
    if (!std::isfinite(*fields[i])) return Error(path, "must be a finite number");
  }
  return absl::OkStatus();
}

absl::Status LiftReader::ReadNumber(const Json& json, const std::string& member, double lo,
                                    double hi, bool above_lo, double* out) const {
  const auto value = json.find(member);
  if (value == json.end()) return absl::OkStatus();
  const std::string range =
      absl::StrCat("must be a number ", above_lo ? "above " : "from ", lo, " to ", hi);
  if (!value->is_number()) return Error(member, range);
  const double x = value->get<double>();
  if (!std::isfinite(x) || x > hi || (above_lo ? !(x > lo) : !(x >= lo))) {
    return Error(member, range);
  }
  *out = x;
  return absl::OkStatus();
}

// The surface `landing` names on `c`, or why there is none (naming `member`).
absl::StatusOr<SurfaceId> ResolveLanding(const Continent& c, const WorldFrame& frame,
                                         const LiftSpec::Landing& landing,
                                         const std::string& member) {
  auto refuse = [&](const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat(member, ": ", why));
  };
  const std::string at = absl::StrCat("(", NumberText(landing.x), ", ", NumberText(landing.y), ")");
  // Far coordinates are off every map; checked before converting to a column.
  const double limit = 1e15 * frame.column_yards;
  if (!(std::abs(landing.x) < limit && std::abs(landing.y) < limit)) {
    return refuse(absl::StrCat(at, " is off continent ", c.id, "'s map"));
  }
  const std::int64_t x = frame.ColumnX(landing.x), y = frame.ColumnY(landing.y);
  if (!c.OnMap(x, y)) return refuse(absl::StrCat(at, " is off continent ", c.id, "'s map"));
  SurfaceId first, end;
  c.ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first, &end);
  if (first == end) return refuse(absl::StrCat("the column at ", at, " has no surface"));
  SurfaceId best = first;  // the lowest first: a tie keeps the lower
  for (SurfaceId s = first + 1; s < end; ++s) {
    if (std::abs(c.height_yards[s] - landing.z) < std::abs(c.height_yards[best] - landing.z))
      best = s;
  }
  const double off = std::abs(c.height_yards[best] - landing.z);
  if (!(off <= kLandingToleranceYards)) {
    return refuse(
        absl::StrFormat("no surface of the column at %s lies within %g yards of z = %s "
                        "(the nearest is at z = %g)",
                        at, kLandingToleranceYards, NumberText(landing.z), c.height_yards[best]));
  }
  if (c.flags[best] & kFlagBlocked) {
    return refuse(absl::StrFormat("the surface at z = %g is blocked ground", c.height_yards[best]));
  }
  return best;
}

// Joins `spec` on `c` (rides both ways, landings marked) unless it cannot; says which.
LiftOutcome JoinLift(const LiftSpec& spec, const WorldFrame& frame, Continent& c) {
  LiftOutcome outcome{spec.index, spec.name, false, "", spec.continent};
  absl::StatusOr<SurfaceId> from = ResolveLanding(c, frame, spec.from, "from");
  absl::StatusOr<SurfaceId> to = ResolveLanding(c, frame, spec.to, "to");
  if (!from.ok() || !to.ok()) {
    outcome.why = std::string((!from.ok() ? from : to).status().message());
    return outcome;
  }
  if (*from == *to) {
    outcome.why = "from and to land on one surface";
    return outcome;
  }
  if (c.FindRide(*from, *to) != nullptr) {
    outcome.why = "joins two landings an earlier lift joins";
    return outcome;
  }
  const double dx = (static_cast<double>(c.column_x[*to]) - c.column_x[*from]) * frame.column_yards;
  const double dy = (static_cast<double>(c.column_y[*to]) - c.column_y[*from]) * frame.column_yards;
  const double dz = static_cast<double>(c.height_yards[*to]) - c.height_yards[*from];
  const float shaft = static_cast<float>(std::sqrt(dx * dx + dy * dy + dz * dz));
  const float wait = static_cast<float>(spec.wait_seconds);
  const float speed = static_cast<float>(spec.shaft_yards_per_second);
  c.lifts.push_back({*from, *to, shaft, wait, speed});
  c.lifts.push_back({*to, *from, shaft, wait, speed});
  // Kept sorted as rides are added: FindRide above looks the next lifts' landings up.
  std::sort(c.lifts.begin(), c.lifts.end(), [](const LiftRide& a, const LiftRide& b) {
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  c.marks[*from] |= kMarkLift;
  c.marks[*to] |= kMarkLift;
  outcome.joined = true;
  outcome.from = *from;
  outcome.to = *to;
  outcome.shaft_yards = shaft;
  return outcome;
}

}  // namespace

std::string LiftSpec::Label() const {
  if (name.empty()) return absl::StrCat("lifts[", index, "]");
  return absl::StrCat("lifts[", index, "] (\"", name, "\")");
}

absl::StatusOr<LiftLayer> ParseLiftLayer(std::string_view text, const std::string& file) {
  absl::StatusOr<Json> lifts = ParseLayerArray(text, file, "lifts");
  if (!lifts.ok()) return lifts.status();
  LiftLayer layer;
  for (std::size_t i = 0; i < lifts->size(); ++i) {
    absl::StatusOr<LiftSpec> spec = LiftReader(file, i).Read((*lifts)[i]);
    if (!spec.ok()) return spec.status();
    layer.lifts.push_back(*std::move(spec));
  }
  return layer;
}

std::vector<LiftOutcome> ApplyLiftLayer(const LiftLayer& layer, World* world) {
  // The layer replaces the lifts of the continents it names, and only theirs: a lifts file laid
  // on an assembled world leaves every other continent (and its stored answers) as it was.
  for (Continent& c : world->continents) {
    const bool named = std::any_of(layer.lifts.begin(), layer.lifts.end(),
                                   [&](const LiftSpec& spec) { return spec.continent == c.id; });
    if (!named) continue;
    c.lifts.clear();
    for (std::uint8_t& marks : c.marks) marks &= static_cast<std::uint8_t>(~kMarkLift);
  }
  std::vector<LiftOutcome> outcomes;
  for (const LiftSpec& spec : layer.lifts) {
    Continent* c = nullptr;
    for (Continent& candidate : world->continents) {
      if (candidate.id == spec.continent) c = &candidate;
    }
    if (c == nullptr) {
      LiftOutcome refused{spec.index, spec.name, false, "", spec.continent};
      refused.why = absl::StrCat("continent: the world has no continent ", spec.continent);
      outcomes.push_back(std::move(refused));
      continue;
    }
    outcomes.push_back(JoinLift(spec, world->FrameOf(*c), *c));
  }
  return outcomes;
}

}  // namespace walk::nav
