#include "nav/layers/mark_layer.h"

#include <algorithm>

#include "nav/layers/column_raster.h"

namespace walk::nav {

std::vector<MarkColumns> ApplyMarkLayer(const MarkLayer& layer, World* world) {
  const std::uint8_t keep = static_cast<std::uint8_t>(~layer.owned_marks);
  // The layer replaces its marks on the continents it names, and only theirs.
  for (Continent& c : world->continents) {
    const bool named = std::any_of(layer.areas.begin(), layer.areas.end(),
                                   [&](const MarkArea& area) { return area.continent == c.id; });
    if (!named) continue;
    const WorldFrame frame = world->FrameOf(c);
    for (std::uint8_t& marks : c.marks) marks &= keep;
    for (const MarkArea& area : layer.areas) {
      if (area.continent != c.id) continue;
      auto mark_column = [&](std::uint32_t x, std::uint32_t y) {
        SurfaceId first, end;
        c.ColumnSurfaces(x, y, &first, &end);
        for (SurfaceId s = first; s < end; ++s) c.marks[s] |= area.mark;
      };
      for (const GeoPolygon& polygon : area.polygons)
        ForEachColumnInPolygon(c, frame, polygon, mark_column);
      for (const GeoLine& line : area.lines)
        ForEachColumnNearLine(c, frame, line, area.half_width_yards, mark_column);
    }
  }
  std::vector<MarkColumns> out;
  for (int bit = 0; bit < 8; ++bit) {
    const std::uint8_t mark = static_cast<std::uint8_t>(1u << bit);
    if (!(layer.owned_marks & mark)) continue;
    MarkColumns counted{mark, 0};
    for (const Continent& c : world->continents) {
      for (const Tile& tile : c.tiles) {
        for (std::uint32_t k = 0; k < kColumnsPerTile; ++k) {
          if (tile.first_surface[k] < tile.first_surface[k + 1] &&
              (c.marks[tile.first_surface[k]] & mark)) {
            ++counted.columns;
          }
        }
      }
    }
    out.push_back(counted);
  }
  return out;
}

}  // namespace walk::nav
