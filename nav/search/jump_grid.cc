#include "nav/search/jump_grid.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"

namespace walk::nav {
namespace {

constexpr std::uint16_t kMaxRun = 0xFFFF;

std::uint16_t Plus1(std::uint16_t v) {
  return v == kMaxRun ? v : static_cast<std::uint16_t>(v + 1);
}

// Why the links of surface `s` are not the plain octile rule, or "" when they are.
std::string LinkMismatch(const Continent& c, SurfaceId s) {
  auto has_surface = [&](int direction) {
    const std::int64_t x = c.column_x[s] + kDirectionDx[direction];
    const std::int64_t y = c.column_y[s] + kDirectionDy[direction];
    if (!c.OnMap(x, y)) return false;
    SurfaceId first, end;
    c.ColumnSurfaces(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y), &first, &end);
    return first < end;
  };
  for (int d = 0; d < kDirectionCount; ++d) {
    const Link link = c.links[s][d];
    bool expected = has_surface(d);
    if (IsDiagonal(d)) {
      expected = expected && has_surface((d + 7) % 8) && has_surface((d + 1) % 8);
      // A diagonal link beside a missing orthogonal one is never taken (no corner is cut).
      if (!expected && HasLink(link)) continue;
    }
    if (HasLink(link) != expected) {
      return absl::StrCat("surface ", s, " has ", expected ? "no" : "a", " link in direction ", d);
    }
    if (expected && (LinkLevel(link) != 0 || LinkKindOf(link) != LinkKind::kWalk)) {
      return absl::StrCat("surface ", s, " has a link that is not a level walk");
    }
  }
  return "";
}

}  // namespace

std::unique_ptr<const JumpGrid> JumpGrid::Build(const Continent& c, std::string* why_not) {
  const auto started = std::chrono::steady_clock::now();
  auto refuse = [&](std::string why) -> std::unique_ptr<const JumpGrid> {
    if (why_not != nullptr) *why_not = std::move(why);
    return nullptr;
  };
  const std::uint64_t cells = std::uint64_t{c.width_columns + 2} * (c.height_columns + 2);
  if (cells > kMaxCells) return refuse(absl::StrCat(cells, " cells, over ", kMaxCells));
  if (c.width_columns >= kMaxRun || c.height_columns >= kMaxRun) return refuse("it is too wide");
  if (!c.lifts.empty()) return refuse("it has lifts");
  if (c.MaxFloors() > 1) return refuse("a column holds more than one surface");

  std::unique_ptr<JumpGrid> grid(new JumpGrid());
  grid->width_ = c.width_columns;
  grid->height_ = c.height_columns;
  grid->stride_ = c.width_columns + 2;
  for (int d = 0; d < kDirectionCount; ++d) {
    grid->offset_[d] = kDirectionDx[d] + kDirectionDy[d] * static_cast<std::int32_t>(grid->stride_);
  }
  grid->surface_.assign(cells, kInvalidId);
  for (SurfaceId s = 0; s < c.surface_count(); ++s) {
    if (std::string why = LinkMismatch(c, s); !why.empty()) return refuse(why);
    grid->surface_[grid->Index(c.column_x[s], c.column_y[s])] = s;
    const Ground ground{c.flags[s], c.marks[s], c.zone[s]};
    const bool known =
        std::any_of(grid->grounds_.begin(), grid->grounds_.end(), [&](const Ground& g) {
          return g.flags == ground.flags && g.marks == ground.marks && g.zone == ground.zone;
        });
    if (!known) grid->grounds_.push_back(ground);
  }
  grid->free_.assign(cells, 0);
  for (std::uint64_t i = 0; i < cells; ++i) grid->free_[i] = grid->surface_[i] != kInvalidId;
  grid->runs_.assign(cells, Steps{});
  grid->jumps_.assign(cells, Steps{});
  grid->FillRuns();
  grid->FillJumps();
  grid->build_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return grid;
}

bool JumpGrid::PricesUniformly(const Metric& metric, double* multiplier) const {
  if (grounds_.empty() || metric.FixedSeconds(LinkKind::kWalk) != 0.0) return false;
  // The ends' zones carry no danger, so a zone's multiplier must not depend on that either.
  const double first = metric.Multiplier(grounds_[0].flags, grounds_[0].marks, grounds_[0].zone,
                                         grounds_[0].zone, grounds_[0].zone);
  if (!(first < kInfCost)) return false;
  for (const Ground& g : grounds_) {
    if (metric.Multiplier(g.flags, g.marks, g.zone, 0, 0) != first ||
        metric.Multiplier(g.flags, g.marks, g.zone, g.zone, g.zone) != first) {
      return false;
    }
  }
  *multiplier = first;
  return true;
}

bool JumpGrid::Forced(std::uint32_t q, int d) const {
  // Moving along straight d into q: a side is forced when the cell behind q on it is blocked and
  // the one beside q is free (the diagonal past the blocked cell is the only canonical way in).
  const std::int32_t back = -offset_[d];
  for (const int side : {(d + 2) % 8, (d + 6) % 8}) {
    if (Free(q + offset_[side]) && !Free(q + back + offset_[side])) return true;
  }
  return false;
}

// Each direction's runs in an order that reaches a cell's successor first.
void JumpGrid::FillRuns() {
  for (int d = 0; d < kDirectionCount; ++d) {
    const int dx = kDirectionDx[d], dy = kDirectionDy[d];
    for (std::uint32_t row = 0; row < height_; ++row) {
      const std::uint32_t y = dy > 0 ? height_ - 1 - row : row;
      for (std::uint32_t col = 0; col < width_; ++col) {
        const std::uint32_t x = dx > 0 ? width_ - 1 - col : col;
        const std::uint32_t p = Index(x, y);
        const std::uint32_t q = p + offset_[d];
        bool step = Free(p) && Free(q);
        if (IsDiagonal(d))
          step = step && Free(p + offset_[(d + 7) % 8]) && Free(p + offset_[(d + 1) % 8]);
        runs_[p].to[d] = step ? Plus1(runs_[q].to[d]) : 0;
      }
    }
  }
}

// Straight jumps first: the diagonal ones read them.
void JumpGrid::FillJumps() {
  for (const bool diagonal : {false, true}) {
    for (int d = diagonal ? 1 : 0; d < kDirectionCount; d += 2) {
      const int dx = kDirectionDx[d], dy = kDirectionDy[d];
      const int left = (d + 7) % 8, right = (d + 1) % 8;
      for (std::uint32_t row = 0; row < height_; ++row) {
        const std::uint32_t y = dy > 0 ? height_ - 1 - row : row;
        for (std::uint32_t col = 0; col < width_; ++col) {
          const std::uint32_t x = dx > 0 ? width_ - 1 - col : col;
          const std::uint32_t p = Index(x, y);
          if (runs_[p].to[d] == 0) continue;
          const std::uint32_t q = p + offset_[d];
          const bool here =
              diagonal ? (jumps_[q].to[left] != 0 || jumps_[q].to[right] != 0) : Forced(q, d);
          const std::uint16_t further = jumps_[q].to[d];
          jumps_[p].to[d] = here ? 1 : (further != 0 ? Plus1(further) : 0);
        }
      }
    }
  }
}

JumpGrids::JumpGrids(const World& world) {
  for (const Continent& c : world.continents) {
    std::string why_not;
    std::unique_ptr<const JumpGrid> grid = JumpGrid::Build(c, &why_not);
    if (!note_.empty()) note_ += "; ";
    if (grid != nullptr) {
      absl::StrAppend(&note_, "continent ", c.id, ": jump points (",
                      (grid->MemoryBytes() + (1 << 19)) >> 20, " MiB in ",
                      static_cast<int>(grid->build_seconds() * 1e3 + 0.5), " ms)");
      grids_.emplace_back(c.id, std::move(grid));
    } else {
      absl::StrAppend(&note_, "continent ", c.id, ": A* only (", why_not, ")");
    }
  }
}

const JumpGrid* JumpGrids::For(ContinentId id) const {
  for (const auto& [continent, grid] : grids_) {
    if (continent == id) return grid.get();
  }
  return nullptr;
}

std::uint64_t JumpGrids::MemoryBytes() const {
  std::uint64_t bytes = 0;
  for (const auto& entry : grids_) bytes += entry.second->MemoryBytes();
  return bytes;
}

std::uint64_t JumpGrid::MemoryBytes() const {
  return (runs_.size() + jumps_.size()) * sizeof(Steps) + surface_.size() * sizeof(SurfaceId) +
         free_.size() + grounds_.size() * sizeof(Ground);
}

}  // namespace walk::nav
