#include "nav/layers/district_layer.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <iterator>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "nav/layers/json_text.h"
#include "nlohmann/json.hpp"

namespace walk::nav {
namespace {

using Json = nlohmann::json;

// Reads one district; the first fault ends it, named by the member.
class DistrictReader {
 public:
  DistrictReader(const std::string& file, std::size_t index) : file_(file) { spec_.index = index; }

  absl::StatusOr<DistrictSpec> Read(const Json& json);

 private:
  absl::Status Error(absl::string_view member, absl::string_view what) const {
    return absl::InvalidArgumentError(
        absl::StrCat(file_, ": ", spec_.Label(), ": ", member, ": ", what));
  }
  // The finite number `member` of `json` into *out; absent is an error when `required`.
  absl::Status ReadNumber(const Json& json, const std::string& member, bool required,
                          double* out) const {
    const auto value = json.find(member);
    if (value == json.end()) {
      return required ? Error(member, "is missing (a number)") : absl::OkStatus();
    }
    if (!value->is_number() || !std::isfinite(value->get<double>())) {
      return Error(member, "must be a finite number");
    }
    *out = value->get<double>();
    return absl::OkStatus();
  }
  absl::Status ReadShafts(const Json& json);

  const std::string& file_;
  DistrictSpec spec_;
};

absl::StatusOr<DistrictSpec> DistrictReader::Read(const Json& json) {
  if (!json.is_object()) return Error("district", "must be an object");
  if (const auto name = json.find("name"); name != json.end()) {
    if (!name->is_string()) return Error("name", "must be a string");
    spec_.name = name->get<std::string>();
  }
  static constexpr std::string_view kKnown[] = {
      "name", "continent", "shafts", "radius_yards", "middle_height_yards", "side", "shaft_yards"};
  for (const auto& [key, value] : json.items()) {
    if (std::find(std::begin(kKnown), std::end(kKnown), key) == std::end(kKnown)) {
      return Error(key, "is not a member of a district (misspelt?)");
    }
  }
  if (const auto continent = json.find("continent"); continent != json.end()) {
    if (!continent->is_number_unsigned() || continent->get<std::uint64_t>() > 0xFFFFFFFFu)
      return Error("continent", "must be an integer 0..4294967295");
    spec_.continent = continent->get<ContinentId>();
  }
  if (absl::Status s = ReadShafts(json); !s.ok()) return s;
  if (absl::Status s = ReadNumber(json, "radius_yards", true, &spec_.radius_yards); !s.ok())
    return s;
  if (!(spec_.radius_yards > 0.0)) return Error("radius_yards", "must be above 0");
  if (absl::Status s = ReadNumber(json, "middle_height_yards", true, &spec_.middle_height_yards);
      !s.ok())
    return s;
  const auto side = json.find("side");
  if (side == json.end() || !side->is_string() || (*side != "above" && *side != "below")) {
    return Error("side", "must be \"above\" or \"below\" (which side of the middle is inside)");
  }
  spec_.above = *side == "above";
  if (absl::Status s = ReadNumber(json, "shaft_yards", false, &spec_.shaft_yards); !s.ok())
    return s;
  if (!(spec_.shaft_yards >= 0.0)) return Error("shaft_yards", "must be 0 or more");
  return spec_;
}

absl::Status DistrictReader::ReadShafts(const Json& json) {
  const auto shafts = json.find("shafts");
  if (shafts == json.end() || !shafts->is_array() || shafts->empty()) {
    return Error("shafts", "must be a non-empty array of {\"x\", \"y\"}");
  }
  for (std::size_t i = 0; i < shafts->size(); ++i) {
    const Json& shaft = (*shafts)[i];
    const std::string path = absl::StrCat("shafts[", i, "]");
    if (!shaft.is_object()) return Error(path, "must be an object {\"x\", \"y\"}");
    DistrictSpec::Point point;
    for (const auto& [key, value] : shaft.items()) {
      if (key != "x" && key != "y") return Error(absl::StrCat(path, ".", key), "is not x or y");
    }
    double* fields[] = {&point.x, &point.y};
    const char* names[] = {"x", "y"};
    for (int k = 0; k < 2; ++k) {
      const auto value = shaft.find(names[k]);
      if (value == shaft.end() || !value->is_number() || !std::isfinite(value->get<double>())) {
        return Error(absl::StrCat(path, ".", names[k]), "must be a finite number");
      }
      *fields[k] = value->get<double>();
    }
    spec_.shafts.push_back(point);
  }
  return absl::OkStatus();
}

// The district of `layer` on continent `c` that surface `s` lies inside, or -1.
int DistrictOf(const std::vector<const DistrictSpec*>& districts, const Continent& c,
               const WorldFrame& frame, SurfaceId s) {
  const double x = frame.CentreX(c.column_x[s]), y = frame.CentreY(c.column_y[s]);
  for (std::size_t d = 0; d < districts.size(); ++d) {
    if (districts[d]->Inside(x, y, c.height_yards[s])) return static_cast<int>(d);
  }
  return -1;
}

// Lays the districts of one continent: marks, links, rides.
void LayOnContinent(const std::vector<const DistrictSpec*>& districts, const WorldFrame& frame,
                    Continent& c, std::vector<DistrictOutcome>* outcomes,
                    const std::vector<std::size_t>& outcome_of) {
  std::vector<int> side(c.surface_count());
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    side[s] = DistrictOf(districts, c, frame, s);
    c.marks[s] = static_cast<std::uint8_t>(side[s] >= 0 ? c.marks[s] | kMarkDistrict
                                                        : c.marks[s] & ~kMarkDistrict);
    if (side[s] >= 0) ++(*outcomes)[outcome_of[side[s]]].inside;
  }
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    for (int d = 0; d < kDirectionCount; ++d) {
      const Link link = c.links[s][d];
      if (!HasLink(link)) continue;
      const SurfaceId t = c.LinkTarget(s, d);
      if ((side[s] >= 0) == (side[t] >= 0)) continue;  // districts that touch are one inside
      c.links[s][d] = kNoLink;
      ++(*outcomes)[outcome_of[side[s] >= 0 ? side[s] : side[t]]].links_cut;
    }
  }
  // Rides that cross a district's edge stay only at its shafts.
  std::vector<LiftRide> kept;
  for (const LiftRide& ride : c.lifts) {
    const int a = side[ride.from], b = side[ride.to];
    if ((a >= 0) == (b >= 0)) {
      kept.push_back(ride);
      continue;
    }
    bool at_shafts = true;
    for (int d : {a, b}) {
      if (d < 0) continue;
      for (SurfaceId landing : {ride.from, ride.to}) {
        at_shafts = at_shafts && districts[d]->NearShaft(frame.CentreX(c.column_x[landing]),
                                                         frame.CentreY(c.column_y[landing]),
                                                         districts[d]->shaft_yards);
      }
    }
    DistrictOutcome& outcome = (*outcomes)[outcome_of[a >= 0 ? a : b]];
    ++(at_shafts ? outcome.rides_kept : outcome.rides_cut);
    if (at_shafts) kept.push_back(ride);
  }
  c.lifts = std::move(kept);
  for (std::uint8_t& marks : c.marks) marks &= static_cast<std::uint8_t>(~kMarkLift);
  for (const LiftRide& ride : c.lifts) {
    c.marks[ride.from] |= kMarkLift;
    c.marks[ride.to] |= kMarkLift;
  }
}

}  // namespace

std::string DistrictSpec::Label() const {
  if (name.empty()) return absl::StrCat("districts[", index, "]");
  return absl::StrCat("districts[", index, "] (\"", name, "\")");
}

bool DistrictSpec::NearShaft(double x, double y, double yards) const {
  for (const Point& shaft : shafts) {
    if (std::hypot(x - shaft.x, y - shaft.y) <= yards) return true;
  }
  return false;
}

bool DistrictSpec::Inside(double x, double y, double z) const {
  const bool on_side = above ? z > middle_height_yards : z < middle_height_yards;
  return on_side && NearShaft(x, y, radius_yards);
}

absl::StatusOr<DistrictLayer> ParseDistrictLayer(std::string_view text, const std::string& file) {
  absl::StatusOr<Json> districts = ParseLayerArray(text, file, "districts");
  if (!districts.ok()) return districts.status();
  DistrictLayer layer;
  for (std::size_t i = 0; i < districts->size(); ++i) {
    absl::StatusOr<DistrictSpec> spec = DistrictReader(file, i).Read((*districts)[i]);
    if (!spec.ok()) return spec.status();
    layer.districts.push_back(*std::move(spec));
  }
  return layer;
}

std::vector<DistrictOutcome> ApplyDistrictLayer(const DistrictLayer& layer, World* world) {
  std::vector<DistrictOutcome> outcomes;
  for (const DistrictSpec& spec : layer.districts) {
    outcomes.push_back(DistrictOutcome{spec.index, spec.name});
  }
  for (Continent& c : world->continents) {
    const WorldFrame frame = world->FrameOf(c);
    std::vector<const DistrictSpec*> districts;
    std::vector<std::size_t> outcome_of;
    for (const DistrictSpec& spec : layer.districts) {
      if (spec.continent != c.id) continue;
      districts.push_back(&spec);
      outcome_of.push_back(spec.index);
    }
    if (!districts.empty()) LayOnContinent(districts, frame, c, &outcomes, outcome_of);
  }
  return outcomes;
}

}  // namespace walk::nav
