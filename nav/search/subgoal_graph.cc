#include "nav/search/subgoal_graph.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <utility>

#include "nav/search/octile_step.h"

namespace walk::nav {
namespace {

constexpr std::uint32_t kNoLimit = 0xFFFFFFFF;

}  // namespace

std::unique_ptr<const SubgoalGraph> SubgoalGraph::Build(const JumpGrid& grid) {
  const auto started = std::chrono::steady_clock::now();
  if (grid.width() >= kClearSteps || grid.height() >= kClearSteps) return nullptr;
  std::unique_ptr<SubgoalGraph> graph(new SubgoalGraph());
  graph->grid_ = &grid;
  graph->FindSubgoals();
  graph->FillScanCells();
  graph->FillArcs();
  graph->FillAreas();
  graph->build_seconds_ =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return graph;
}

void SubgoalGraph::FindSubgoals() {
  const JumpGrid& g = *grid_;
  node_at_.assign(g.cell_count(), kInvalidId);
  for (std::uint32_t y = 0; y < g.height(); ++y) {
    for (std::uint32_t x = 0; x < g.width(); ++x) {
      const std::uint32_t p = g.Index(x, y);
      if (!g.Free(p)) continue;
      for (int d = 1; d < kDirectionCount; d += 2) {
        if (!g.Free(p + g.Offset(d)) && g.Free(p + g.Offset((d + 7) % 8)) &&
            g.Free(p + g.Offset((d + 1) % 8))) {
          node_at_[p] = static_cast<std::uint32_t>(cell_.size());
          cell_.push_back(p);
          xy_.push_back(Xy{static_cast<std::int32_t>(x + 1), static_cast<std::int32_t>(y + 1)});
          break;
        }
      }
    }
  }
}

// Each direction in an order that reaches a cell's successor first.
void SubgoalGraph::FillScanCells() {
  const JumpGrid& g = *grid_;
  scan_.assign(g.cell_count(), ScanCell{});
  for (std::uint32_t p = 0; p < g.cell_count(); ++p) {
    scan_[p].subgoal = node_at_[p] != kInvalidId;
    for (int d = 1; d < kDirectionCount; d += 2) {
      if (g.Runs(p).to[d] != 0) scan_[p].diagonal |= static_cast<std::uint8_t>(1 << (d / 2));
    }
  }
  for (int c = 0; c < kDirectionCount; c += 2) {
    const int dx = kDirectionDx[c], dy = kDirectionDy[c];
    for (std::uint32_t row = 0; row < g.height(); ++row) {
      const std::uint32_t y = dy > 0 ? g.height() - 1 - row : row;
      for (std::uint32_t col = 0; col < g.width(); ++col) {
        const std::uint32_t x = dx > 0 ? g.width() - 1 - col : col;
        const std::uint32_t p = g.Index(x, y);
        const std::uint32_t q = p + g.Offset(c);
        // One more step than q has, ending where q's ray ends (the grid is narrower than
        // kClearSteps, so the count never reaches the flag).
        std::uint16_t clear = 0;
        if (IsSubgoal(q)) {
          clear = kEndsAtSubgoal;
        } else if (g.Free(q)) {
          clear = static_cast<std::uint16_t>(scan_[q].clear[c / 2] + 1);
        }
        scan_[p].clear[c / 2] = clear;
      }
    }
  }
}

void SubgoalGraph::FillArcs() {
  // (tail << 32 | head, columns), both ways, then sorted and the duplicates dropped.
  std::vector<std::pair<std::uint64_t, double>> arcs;
  std::vector<Direct> found;
  for (std::uint32_t u = 0; u < node_count(); ++u) {
    found.clear();
    ScanDirect(cell_[u], kInvalidId, &found);
    for (const Direct& f : found) {
      const std::uint64_t v = node_at_[f.cell];
      arcs.emplace_back(std::uint64_t{u} << 32 | v, f.columns);
      arcs.emplace_back(v << 32 | u, f.columns);
    }
  }
  std::sort(arcs.begin(), arcs.end());
  arcs.erase(std::unique(arcs.begin(), arcs.end(),
                         [](const auto& a, const auto& b) { return a.first == b.first; }),
             arcs.end());
  first_out_.assign(node_count() + 1, 0);
  head_.resize(arcs.size());
  weight_.resize(arcs.size());
  for (std::size_t a = 0; a < arcs.size(); ++a) {
    ++first_out_[(arcs[a].first >> 32) + 1];
    head_[a] = static_cast<std::uint32_t>(arcs[a].first);
    weight_[a] = arcs[a].second;
  }
  for (std::uint32_t u = 0; u < node_count(); ++u) first_out_[u + 1] += first_out_[u];
}

// Flood fills over straight steps: a diagonal step needs both straight ones free, so they join
// the same cells.
void SubgoalGraph::FillAreas() {
  const JumpGrid& g = *grid_;
  area_.assign(g.cell_count(), kInvalidId);
  std::vector<std::uint32_t> stack;
  std::uint32_t areas = 0;
  for (std::uint32_t p = 0; p < g.cell_count(); ++p) {
    if (!g.Free(p) || area_[p] != kInvalidId) continue;
    area_[p] = areas;
    stack.push_back(p);
    while (!stack.empty()) {
      const std::uint32_t q = stack.back();
      stack.pop_back();
      for (int c = 0; c < kDirectionCount; c += 2) {
        const std::uint32_t r = q + g.Offset(c);
        if (g.Free(r) && area_[r] == kInvalidId) {
          area_[r] = areas;
          stack.push_back(r);
        }
      }
    }
    ++areas;
  }
}

std::uint32_t SubgoalGraph::ScanRay(std::uint32_t from, int c, std::uint32_t extra,
                                    std::uint32_t limit, double base,
                                    std::vector<Direct>* out) const {
  const std::uint16_t clear = scan_[from].clear[c / 2];
  const std::uint32_t k = clear & kClearSteps;
  const std::int32_t offset = grid_->Offset(c);
  if (extra != kInvalidId) {
    // Where `extra` lies on the ray, in steps (it is free and no subgoal, so within the first k).
    const std::int64_t delta = static_cast<std::int64_t>(extra) - from;
    if (delta % offset == 0) {
      const std::int64_t e = delta / offset;
      const bool on_ray =
          e >= 1 && e <= k &&
          (kDirectionDy[c] != 0 || extra / grid_->stride() == from / grid_->stride());
      if (on_ray) {
        if (e <= limit) out->push_back(Direct{extra, base + static_cast<double>(e)});
        return static_cast<std::uint32_t>(e - 1);
      }
    }
  }
  const std::uint32_t end = from + (k + 1) * offset;
  if (k < limit && (clear & kEndsAtSubgoal) != 0) {
    out->push_back(Direct{end, base + static_cast<double>(k + 1)});
  }
  return k;
}

void SubgoalGraph::ScanDiagonal(std::uint32_t cell, int d, std::uint32_t extra,
                                std::uint32_t limit_left, std::uint32_t limit_right,
                                std::vector<Direct>* out) const {
  const int left = (d + 7) % 8, right = (d + 1) % 8;
  std::uint32_t cur = cell;
  const std::uint8_t free = static_cast<std::uint8_t>(1 << (d / 2));
  for (std::uint32_t steps = 1; (scan_[cur].diagonal & free) != 0; ++steps) {
    cur += grid_->Offset(d);
    const double base = steps * kSqrt2;
    if (cur == extra || IsSubgoal(cur)) {
      out->push_back(Direct{cur, base});
      return;
    }
    limit_left = std::min(limit_left, ScanRay(cur, left, extra, limit_left, base, out));
    limit_right = std::min(limit_right, ScanRay(cur, right, extra, limit_right, base, out));
  }
}

void SubgoalGraph::ScanDirect(std::uint32_t cell, std::uint32_t extra,
                              std::vector<Direct>* out) const {
  std::uint32_t straight[4];
  for (int c = 0; c < kDirectionCount; c += 2) {
    straight[c / 2] = ScanRay(cell, c, extra, kNoLimit, 0.0, out);
  }
  for (int d = 1; d < kDirectionCount; d += 2) {
    ScanDiagonal(cell, d, extra, straight[((d + 7) % 8) / 2], straight[((d + 1) % 8) / 2], out);
  }
}

bool SubgoalGraph::AppendSegment(std::uint32_t a, std::uint32_t b,
                                 std::vector<PathStep>* path) const {
  const JumpGrid& g = *grid_;
  const std::int32_t stride = static_cast<std::int32_t>(g.stride());
  const std::int32_t dx =
      static_cast<std::int32_t>(b % stride) - static_cast<std::int32_t>(a % stride);
  const std::int32_t dy =
      static_cast<std::int32_t>(b / stride) - static_cast<std::int32_t>(a / stride);
  const std::int32_t ax = std::abs(dx), ay = std::abs(dy);
  const std::int32_t k = std::min(ax, ay), m = std::max(ax, ay) - k;
  const int d = DirectionOfStep(StepSign(dx), StepSign(dy));
  const int c = ax > ay ? DirectionOfStep(StepSign(dx), 0) : DirectionOfStep(0, StepSign(dy));
  auto fits = [&](std::uint32_t at, int dir, std::int32_t n) {
    return n == 0 || g.Runs(at).to[dir] >= n;
  };
  std::pair<int, std::int32_t> legs[2];
  if (fits(a, d, k) && fits(a + k * g.Offset(d), c, m)) {
    legs[0] = {d, k};
    legs[1] = {c, m};
  } else if (fits(a, c, m) && fits(a + m * g.Offset(c), d, k)) {
    legs[0] = {c, m};
    legs[1] = {d, k};
  } else {
    return false;
  }
  std::uint32_t cur = a;
  for (const auto& [dir, n] : legs) {
    for (std::int32_t i = 0; i < n; ++i) {
      cur += g.Offset(dir);
      path->push_back({g.SurfaceAt(cur), static_cast<std::uint8_t>(dir)});
    }
  }
  return true;
}

std::uint64_t SubgoalGraph::MemoryBytes() const {
  return node_at_.size() * sizeof(std::uint32_t) + scan_.size() * sizeof(ScanCell) +
         area_.size() * sizeof(std::uint32_t) + cell_.size() * sizeof(std::uint32_t) +
         xy_.size() * sizeof(Xy) + first_out_.size() * sizeof(std::uint32_t) +
         head_.size() * sizeof(std::uint32_t) + weight_.size() * sizeof(double);
}

}  // namespace walk::nav
