#include "nav/layers/hub_layer.h"

#include "absl/strings/ascii.h"
#include "nav/grid/surface.h"

namespace walk::nav {

std::optional<std::uint8_t> HubMarkOf(std::string_view faction) {
  std::string text(faction);
  for (char& ch : text) ch = absl::ascii_tolower(static_cast<unsigned char>(ch));
  std::string_view rest = text;
  while (!rest.empty() && absl::ascii_isspace(static_cast<unsigned char>(rest.front())))
    rest.remove_prefix(1);
  while (!rest.empty() && absl::ascii_isspace(static_cast<unsigned char>(rest.back())))
    rest.remove_suffix(1);
  constexpr std::string_view kPrefix = "faction";
  if (rest.substr(0, kPrefix.size()) == kPrefix) {
    rest.remove_prefix(kPrefix.size());
    if (rest.empty() || (rest[0] != '-' && rest[0] != '_' && rest[0] != ' ')) return std::nullopt;
    rest.remove_prefix(1);
  }
  if (rest == "a") return kMarkHubA;
  if (rest == "b") return kMarkHubB;
  return std::nullopt;
}

absl::StatusOr<MarkLayer> ParseHubLayer(std::string_view text, const std::string& file) {
  absl::StatusOr<std::vector<GeoFeature>> features = ParseFeatureCollection(text, file, kGeoAreas);
  if (!features.ok()) return features.status();
  MarkLayer layer;
  layer.owned_marks = kMarkHubA | kMarkHubB;
  for (GeoFeature& feature : *features) {
    MarkArea area;
    area.label = feature.Label();
    const GeoValue* faction = feature.Property("faction");
    std::optional<std::uint8_t> mark;
    if (faction != nullptr && faction->kind == GeoValue::Kind::kString)
      mark = HubMarkOf(faction->text);
    if (!mark) {
      return PropertyError(
          file, feature, "faction",
          faction == nullptr ? "must be \"A\" or \"B\" (it is missing)" : "must be \"A\" or \"B\"");
    }
    area.mark = *mark;
    if (absl::StatusOr<std::string> name = StringProperty(file, feature, "name"); !name.ok())
      return name.status();
    absl::StatusOr<std::int64_t> continent =
        IntegerProperty(file, feature, "continent", 0, 0xFFFFFFFFll, false, 0);
    if (!continent.ok()) return continent.status();
    area.continent = static_cast<ContinentId>(*continent);
    area.polygons = std::move(feature.polygons);
    layer.areas.push_back(std::move(area));
  }
  return layer;
}

}  // namespace walk::nav
