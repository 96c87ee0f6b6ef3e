#include "nav/layers/zone_layer.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "nav/layers/column_raster.h"

namespace walk::nav {
namespace {

// A zone's fields as one feature gives them, checked.
absl::StatusOr<Zone> ZoneOf(const std::string& file, const GeoFeature& feature) {
  Zone zone;
  absl::StatusOr<std::int64_t> id = IntegerProperty(file, feature, "zone", 1, 65535, true);
  if (!id.ok()) return id.status();
  absl::StatusOr<std::string> name = StringProperty(file, feature, "name");
  if (!name.ok()) return name.status();
  absl::StatusOr<std::int64_t> min = IntegerProperty(file, feature, "min_level", 0, 65535, true);
  if (!min.ok()) return min.status();
  absl::StatusOr<std::int64_t> max = IntegerProperty(file, feature, "max_level", 0, 65535, true);
  if (!max.ok()) return max.status();
  if (*max < *min) {
    return PropertyError(file, feature, "max_level",
                         absl::StrCat("must be at least min_level (", *min, ")"));
  }
  zone.id = static_cast<std::uint16_t>(*id);
  zone.name = *std::move(name);
  zone.min_level = static_cast<std::uint16_t>(*min);
  zone.max_level = static_cast<std::uint16_t>(*max);
  return zone;
}

}  // namespace

absl::StatusOr<ZoneLayer> ParseZoneLayer(std::string_view text, const std::string& file) {
  absl::StatusOr<std::vector<GeoFeature>> features = ParseFeatureCollection(text, file, kGeoAreas);
  if (!features.ok()) return features.status();
  ZoneLayer layer;
  // The first feature naming each zone, for what later ones must agree with.
  std::map<std::uint16_t, std::pair<Zone, std::size_t>> seen;
  for (const GeoFeature& feature : *features) {
    absl::StatusOr<Zone> zone = ZoneOf(file, feature);
    if (!zone.ok()) return zone.status();
    absl::StatusOr<std::int64_t> continent =
        IntegerProperty(file, feature, "continent", 0, 0xFFFFFFFFll, false, 0);
    if (!continent.ok()) return continent.status();
    auto [it, first] = seen.try_emplace(zone->id, *zone, feature.index);
    if (!first) {
      const Zone& was = it->second.first;
      const std::string where = absl::StrCat(" (zone ", zone->id, " has ");
      if (was.name != zone->name) {
        return PropertyError(file, feature, "name",
                             absl::StrCat("differs from feature ", it->second.second, where,
                                          "name \"", was.name, "\" there)"));
      }
      if (was.min_level != zone->min_level || was.max_level != zone->max_level) {
        return PropertyError(
            file, feature, was.min_level != zone->min_level ? "min_level" : "max_level",
            absl::StrCat("differs from feature ", it->second.second, where, "levels ",
                         was.min_level, "..", was.max_level, " there)"));
      }
    }
    layer.areas.push_back(
        {feature.Label(), static_cast<ContinentId>(*continent), zone->id, feature.polygons});
  }
  for (auto& [id, zone] : seen) layer.zones.push_back(std::move(zone.first));
  return layer;
}

std::vector<ZoneColumns> ApplyZoneLayer(const ZoneLayer& layer, World* world) {
  // The layer replaces the zones of the continents it names, and only theirs.
  for (Continent& c : world->continents) {
    const bool named = std::any_of(layer.areas.begin(), layer.areas.end(),
                                   [&](const ZoneArea& area) { return area.continent == c.id; });
    if (!named) continue;
    const WorldFrame frame = world->FrameOf(c);
    std::fill(c.zone.begin(), c.zone.end(), std::uint16_t{0});
    for (const ZoneArea& area : layer.areas) {
      if (area.continent != c.id) continue;
      for (const GeoPolygon& polygon : area.polygons) {
        ForEachColumnInPolygon(c, frame, polygon, [&](std::uint32_t x, std::uint32_t y) {
          SurfaceId first, end;
          c.ColumnSurfaces(x, y, &first, &end);
          std::fill(c.zone.begin() + first, c.zone.begin() + end, area.zone);
        });
      }
    }
  }
  world->zones = layer.zones;
  // Columns per zone: every surface of a column has the column's zone now.
  std::map<std::uint16_t, std::uint64_t> columns;
  for (const Continent& c : world->continents) {
    for (const Tile& tile : c.tiles) {
      for (std::uint32_t k = 0; k < kColumnsPerTile; ++k) {
        if (tile.first_surface[k] < tile.first_surface[k + 1])
          ++columns[c.zone[tile.first_surface[k]]];
      }
    }
  }
  std::vector<ZoneColumns> out;
  for (const Zone& zone : layer.zones) out.push_back({zone.id, zone.name, columns[zone.id]});
  return out;
}

}  // namespace walk::nav
