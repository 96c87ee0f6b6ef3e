#include "nav/grid/grid_builder.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "absl/strings/str_cat.h"
#include "nav/grid/road_distance.h"

namespace walk::nav {

ContinentBuilder::ContinentBuilder(ContinentId id, std::uint32_t width_columns,
                                   std::uint32_t height_columns)
    : id_(id),
      width_columns_(width_columns),
      height_columns_(height_columns),
      tiles_x_((width_columns + kTileColumns - 1) / kTileColumns),
      tiles_y_((height_columns + kTileColumns - 1) / kTileColumns),
      per_tile_(static_cast<std::size_t>(tiles_x_) * tiles_y_) {}

void ContinentBuilder::AddSurface(std::uint32_t x, std::uint32_t y, const SurfaceSpec& spec) {
  if (x >= width_columns_ || y >= height_columns_) {
    out_of_extent_ = true;
    return;
  }
  const std::uint32_t tile = (y / kTileColumns) * tiles_x_ + x / kTileColumns;
  const std::uint32_t column = (y % kTileColumns) * kTileColumns + x % kTileColumns;
  per_tile_[tile].push_back({column, spec});
}

void ContinentBuilder::AddLift(std::uint32_t x, std::uint32_t y, float z_a, float z_b,
                               float wait_seconds, float shaft_yards_per_second) {
  lifts_.push_back({x, y, z_a, z_b, wait_seconds, shaft_yards_per_second});
}

absl::StatusOr<Continent> ContinentBuilder::Build(const LinkRules& rules, const BuildStop& stop) {
  if (out_of_extent_) {
    return absl::InvalidArgumentError(absl::StrCat("continent ", id_, ": a surface lies outside ",
                                                   width_columns_, " x ", height_columns_,
                                                   " columns"));
  }
  if (tiles_x_ > 256 || tiles_y_ > 256) {
    return absl::InvalidArgumentError(
        absl::StrCat("continent ", id_, ": more than 256 tiles along a side"));
  }
  Continent c;
  c.id = id_;
  c.tiles_x = tiles_x_;
  c.tiles_y = tiles_y_;
  c.width_columns = width_columns_;
  c.height_columns = height_columns_;
  c.tile_index.assign(per_tile_.size(), kInvalidId);

  for (std::uint32_t t = 0; t < per_tile_.size(); ++t) {
    std::vector<Placed>& placed = per_tile_[t];
    if (placed.empty()) continue;
    if (stop.requested()) return BuildStop::Stopped("building the continent");
    for (const Placed& p : placed) {
      if (!std::isfinite(p.spec.height_yards) || std::isnan(p.spec.headroom_yards)) {
        return absl::InvalidArgumentError(
            absl::StrCat("continent ", id_, ": a surface has a non-finite height"));
      }
    }
    std::stable_sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
      if (a.column != b.column) return a.column < b.column;
      return a.spec.height_yards < b.spec.height_yards;
    });
    Tile tile;
    tile.tile_x = t % tiles_x_;
    tile.tile_y = t / tiles_x_;
    tile.first_surface.assign(kColumnsPerTile + 1, 0);
    const SurfaceId base = c.surface_count();
    std::size_t i = 0;
    for (std::uint32_t column = 0; column < kColumnsPerTile; ++column) {
      tile.first_surface[column] = base + static_cast<SurfaceId>(i);
      std::uint8_t level = 0;
      for (; i < placed.size() && placed[i].column == column; ++i, ++level) {
        if (level >= kMaxFloors) {
          return absl::InvalidArgumentError(absl::StrCat(
              "continent ", id_, ": column ", tile.tile_x * kTileColumns + column % kTileColumns,
              ",", tile.tile_y * kTileColumns + column / kTileColumns, " holds more than ",
              kMaxFloors, " surfaces"));
        }
        const SurfaceSpec& s = placed[i].spec;
        c.height_yards.push_back(s.height_yards);
        c.headroom_yards.push_back(s.headroom_yards);
        c.flags.push_back(s.flags);
        c.zone.push_back(s.zone);
        c.marks.push_back(s.marks);
        c.links.push_back(kNoLinks);
        c.column_x.push_back(
            static_cast<std::uint16_t>(tile.tile_x * kTileColumns + column % kTileColumns));
        c.column_y.push_back(
            static_cast<std::uint16_t>(tile.tile_y * kTileColumns + column / kTileColumns));
        c.level.push_back(level);
      }
    }
    tile.first_surface[kColumnsPerTile] = base + static_cast<SurfaceId>(i);
    c.tile_index[t] = static_cast<std::uint32_t>(c.tiles.size());
    c.tiles.push_back(std::move(tile));
    std::vector<Placed>().swap(placed);
  }
  DeriveLinks(rules, c, stop);
  if (stop.requested()) return BuildStop::Stopped("building the continent");
  for (const PlannedLift& lift : lifts_) {
    SurfaceId first = 0, end = 0;
    if (c.OnMap(lift.x, lift.y)) c.ColumnSurfaces(lift.x, lift.y, &first, &end);
    auto nearest = [&](float z) {
      SurfaceId best = kInvalidId;
      for (SurfaceId s = first; s < end; ++s) {
        if (best == kInvalidId ||
            std::abs(c.height_yards[s] - z) < std::abs(c.height_yards[best] - z))
          best = s;
      }
      return best;
    };
    const SurfaceId a = nearest(lift.z_a), b = nearest(lift.z_b);
    if (a == kInvalidId || a == b) {
      return absl::InvalidArgumentError(absl::StrCat("continent ", id_, ": the lift at column ",
                                                     lift.x, ",", lift.y,
                                                     " needs two surfaces to join"));
    }
    const float shaft = std::abs(c.height_yards[b] - c.height_yards[a]);
    c.lifts.push_back({a, b, shaft, lift.wait_seconds, lift.shaft_yards_per_second});
    c.lifts.push_back({b, a, shaft, lift.wait_seconds, lift.shaft_yards_per_second});
    c.marks[a] |= kMarkLift;
    c.marks[b] |= kMarkLift;
  }
  std::sort(c.lifts.begin(), c.lifts.end(), [](const LiftRide& a, const LiftRide& b) {
    return a.from != b.from ? a.from < b.from : a.to < b.to;
  });
  FinishContinent(c);
  return c;
}

namespace {

// The kind of link from a surface at `sz` onto surface `t` at `tz`, or nullopt when none goes.
std::optional<LinkKind> KindOnto(const LinkRules& rules, const Continent& c, SurfaceId s,
                                 SurfaceId t) {
  const double dz = static_cast<double>(c.height_yards[t]) - c.height_yards[s];
  const std::uint8_t to = c.flags[t];
  if (to & kFlagWater) {
    if (rules.water_entered_only_from_water && !(c.flags[s] & kFlagWater)) return std::nullopt;
    if (std::abs(dz) <= rules.step_yards) return LinkKind::kSwim;
    if (dz < 0 && -dz <= rules.max_fall_yards) return LinkKind::kFall;
    return std::nullopt;
  }
  if (to & (kFlagClimb | kFlagSteep)) {
    if (std::abs(dz) <= rules.climb_yards)
      return (to & kFlagClimb) ? LinkKind::kClimb : LinkKind::kSteep;
    if (dz < 0 && -dz <= rules.max_fall_yards) return LinkKind::kFall;
    return std::nullopt;
  }
  if (std::abs(dz) <= rules.step_yards)
    return (to & kFlagIndoor) ? LinkKind::kIndoor : LinkKind::kWalk;
  if (dz > 0 && dz <= rules.jump_yards) return LinkKind::kJump;
  if (dz < 0 && -dz <= rules.max_fall_yards) return LinkKind::kFall;
  return std::nullopt;
}

}  // namespace

void DeriveLinks(const LinkRules& rules, Continent& c, const BuildStop& stop) {
  const double agent = rules.agent_height_yards;
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    if (stop.Poll(s)) return;
    LinkSet& out = c.links[s];
    out = kNoLinks;
    if ((c.flags[s] & kFlagBlocked) || c.headroom_yards[s] < agent) continue;
    const double sz = c.height_yards[s];
    const double s_ceiling = sz + c.headroom_yards[s];
    for (int d = 0; d < kDirectionCount; ++d) {
      const std::int64_t nx = c.column_x[s] + kDirectionDx[d];
      const std::int64_t ny = c.column_y[s] + kDirectionDy[d];
      if (!c.OnMap(nx, ny)) continue;
      SurfaceId first, end;
      c.ColumnSurfaces(static_cast<std::uint32_t>(nx), static_cast<std::uint32_t>(ny), &first,
                       &end);
      SurfaceId best = kInvalidId;
      LinkKind best_kind = LinkKind::kWalk;
      double best_dz = 0.0;
      for (SurfaceId t = first; t < end; ++t) {
        if (c.flags[t] & kFlagBlocked) continue;
        const double tz = c.height_yards[t];
        // The walker passes through [max(sz, tz), max(sz, tz) + agent]: both ceilings clear it.
        const double top = std::max(sz, tz) + agent;
        if (top > s_ceiling || top > tz + c.headroom_yards[t]) continue;
        const std::optional<LinkKind> kind = KindOnto(rules, c, s, t);
        if (!kind) continue;
        if (best == kInvalidId || std::abs(tz - sz) < std::abs(best_dz)) {
          best = t;
          best_kind = *kind;
          best_dz = tz - sz;
        }
      }
      if (best != kInvalidId) out[d] = MakeLink(c.level[best], best_kind);
    }
  }
}

namespace {

std::uint32_t FindRoot(std::vector<std::uint32_t>& parent, std::uint32_t v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];
    v = parent[v];
  }
  return v;
}

}  // namespace

void FinishContinent(Continent& c) {
  c.lifts_into.resize(c.lifts.size());
  std::iota(c.lifts_into.begin(), c.lifts_into.end(), 0u);
  std::sort(c.lifts_into.begin(), c.lifts_into.end(), [&c](std::uint32_t a, std::uint32_t b) {
    const LiftRide &x = c.lifts[a], &y = c.lifts[b];
    return x.to != y.to ? x.to < y.to : x.from < y.from;
  });
  ComputeRegions(c);
  c.ground_present.fill(0);
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    const unsigned index = c.flags[s] | ((c.marks[s] & kMarkRoad) ? 256u : 0u);
    c.ground_present[index / 64] |= std::uint64_t{1} << (index % 64);
  }
  ComputeRoadBlocks(c);
}

void ComputeRegions(Continent& c) {
  const std::uint32_t n = c.surface_count();
  std::vector<std::uint32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0u);
  for (SurfaceId s = 0; s < n; ++s) {
    for (int d = 0; d < kDirectionCount; ++d) {
      if (!HasLink(c.links[s][d])) continue;
      const std::uint32_t a = FindRoot(parent, s);
      const std::uint32_t b = FindRoot(parent, c.LinkTarget(s, d));
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  for (const LiftRide& lift : c.lifts) {
    const std::uint32_t a = FindRoot(parent, lift.from);
    const std::uint32_t b = FindRoot(parent, lift.to);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  c.region.assign(n, kInvalidId);
  c.region_size.clear();
  for (SurfaceId s = 0; s < n; ++s) {
    const std::uint32_t root = FindRoot(parent, s);
    if (c.region[root] == kInvalidId) {
      c.region[root] = static_cast<RegionId>(c.region_size.size());
      c.region_size.push_back(0);
    }
    c.region[s] = c.region[root];
    ++c.region_size[c.region[s]];
  }
}

}  // namespace walk::nav
