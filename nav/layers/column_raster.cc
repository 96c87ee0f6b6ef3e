#include "nav/layers/column_raster.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace walk::nav {
namespace {

// The first index in [0, count] whose centre is at least `v` (count when none is): a binary
// search over the centres themselves, so the rule is decided by the very values it names and a
// coordinate far off the map converts no huge number.
template <typename Centre>
std::int64_t FirstCentreAtLeast(double v, std::int64_t count, const Centre& centre) {
  std::int64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (centre(mid) < v) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// The first index in [0, count] whose centre is above `v`.
template <typename Centre>
std::int64_t FirstCentreAbove(double v, std::int64_t count, const Centre& centre) {
  std::int64_t lo = 0, hi = count;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (centre(mid) <= v) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// Something a row sweep visits on rows [row_begin, row_end), within columns [x_begin, x_end).
struct RowSpan {
  std::int64_t row_begin = 0;
  std::int64_t row_end = 0;
  std::int64_t x_begin = 0;
  std::int64_t x_end = 0;
};

// An item on the sweep's current row: what the sweep reads of it on every row, kept together
// so a row with many items reads them in order.
struct ActiveSpan {
  std::int64_t row_end = 0;
  std::int64_t x_begin = 0, x_end = 0;
  std::uint32_t item = 0;
};

// Calls on_row(row, active) for every row on which some item of `items` lies, in increasing
// order, with `active` the items on that row (in no particular order). Each item enters and
// leaves the active set once, so the sweep costs the items' rows, not the map's.
template <typename Item, typename OnRow>
void SweepRows(const std::vector<Item>& items, OnRow on_row) {
  std::vector<std::uint32_t> order;
  order.reserve(items.size());
  for (std::uint32_t i = 0; i < items.size(); ++i) {
    if (items[i].row_begin < items[i].row_end) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return items[a].row_begin < items[b].row_begin;
  });
  std::vector<ActiveSpan> active;
  std::size_t next = 0;
  std::int64_t row = 0;
  while (next < order.size() || !active.empty()) {
    if (active.empty()) row = items[order[next]].row_begin;  // skip rows nothing lies on
    while (next < order.size() && items[order[next]].row_begin <= row) {
      const Item& item = items[order[next]];
      active.push_back({item.row_end, item.x_begin, item.x_end, order[next++]});
    }
    on_row(row, static_cast<const std::vector<ActiveSpan>&>(active));
    ++row;
    active.erase(std::remove_if(active.begin(), active.end(),
                                [&](const ActiveSpan& a) { return a.row_end <= row; }),
                 active.end());
  }
}

// An edge of a polygon's ring, on the rows whose centre line it crosses.
struct RingEdge : RowSpan {
  GeoPoint a, b;
};

// Where the row's centre line `cy` crosses `edge` (which it does: exactly one of its ends lies
// above the line, the crossing test's half-open rule).
double Crossing(const RingEdge& edge, double cy) {
  const GeoPoint& a = edge.a;
  const GeoPoint& b = edge.b;
  // t is in [0, 1]; a vertical edge crosses at its very x (the rule on boundaries depends on
  // it), and ends too far apart for their difference to be finite are mixed instead, so no
  // crossing is NaN (which would break the sort).
  const double t = (cy - a.y) / (b.y - a.y);
  const double d = b.x - a.x;
  return std::isfinite(d) ? a.x + t * d : a.x * (1.0 - t) + b.x * t;
}

// The edges of `polygon`, each on the rows whose centre line it crosses: those with a centre in
// [min(a.y, b.y), max(a.y, b.y)), which is where exactly one end lies above the centre.
template <typename Centre>
std::vector<RingEdge> RingEdges(const GeoPolygon& polygon, std::int64_t height,
                                const Centre& centre_y) {
  std::vector<RingEdge> edges;
  for (const auto& ring : polygon.rings) {
    for (std::size_t i = 0; i < ring.size(); ++i) {
      RingEdge edge;
      edge.a = ring[i];
      edge.b = ring[(i + 1) % ring.size()];
      if (edge.a.y == edge.b.y) continue;
      const double lo = std::min(edge.a.y, edge.b.y), hi = std::max(edge.a.y, edge.b.y);
      edge.row_begin = FirstCentreAtLeast(lo, height, centre_y);
      edge.row_end = FirstCentreAtLeast(hi, height, centre_y);
      if (edge.row_begin < edge.row_end) edges.push_back(edge);
    }
  }
  return edges;
}

// One segment of a line and the columns it may cover: those of its bounding box widened by the
// half width, as the rule has always been evaluated.
struct LineSegment : RowSpan {
  GeoPoint a, b;
  double dx = 0.0, dy = 0.0, length2 = 0.0;

  // The rule, exactly: the centre (px, py) lies within sqrt(h2) of the segment's nearest point.
  bool Covers(double px, double py, double h2) const {
    double t = length2 > 0.0 ? ((px - a.x) * dx + (py - a.y) * dy) / length2 : 0.0;
    t = std::clamp(t, 0.0, 1.0);
    const double ex = px - (a.x + t * dx), ey = py - (a.y + t * dy);
    return ex * ex + ey * ey <= h2;
  }
};

// An interval of x that holds every x at which Covers(x, py) can hold: the row's section of the
// segment's capsule (its two round ends and the band between them) with the half width and the
// ends widened by far more than the arithmetic's rounding. Empty (lo > hi) when the row misses.
std::pair<double, double> CapsuleSection(const LineSegment& s, double py, double h) {
  const double magnitude = std::max(
      {std::abs(s.a.x), std::abs(s.a.y), std::abs(s.b.x), std::abs(s.b.y), std::abs(py), h});
  const double slack = 1e-12 * magnitude + 1e-300;
  const double hw = h * (1.0 + 1e-9) + slack;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  auto disk = [&](const GeoPoint& c) {
    const double r2 = hw * hw - (py - c.y) * (py - c.y);
    if (!(r2 >= 0.0)) return;
    const double r = std::sqrt(r2);
    lo = std::min(lo, c.x - r);
    hi = std::max(hi, c.x + r);
  };
  disk(s.a);
  const bool finite = std::isfinite(s.length2) && s.length2 > 0.0;
  if (!finite) return {lo - slack, hi + slack};  // the rule measures from `a` alone then
  disk(s.b);
  // The band: the projection's t in [0, 1] and the distance across within hw, each a range of
  // x along the row (or all x, or none, when the segment is horizontal or vertical).
  const double length = std::sqrt(s.length2), qy = py - s.a.y;
  double band_lo = -std::numeric_limits<double>::infinity(), band_hi = -band_lo;
  auto clip = [&](double coefficient, double offset, double min, double max) {
    // min <= coefficient * (x - a.x) + offset <= max
    if (coefficient == 0.0) {
      if (offset < min || offset > max) band_lo = std::numeric_limits<double>::infinity();
      return;
    }
    double x0 = (min - offset) / coefficient, x1 = (max - offset) / coefficient;
    if (x0 > x1) std::swap(x0, x1);
    band_lo = std::max(band_lo, s.a.x + x0);
    band_hi = std::min(band_hi, s.a.x + x1);
  };
  const double along = 1e-9 * s.length2;
  clip(s.dx, qy * s.dy, -along, s.length2 + along);
  clip(s.dy, -qy * s.dx, -hw * length, hw * length);
  if (band_lo <= band_hi) {
    lo = std::min(lo, band_lo);
    hi = std::max(hi, band_hi);
  }
  return {lo - slack, hi + slack};
}

// The first grid column of [lo, hi] whose centre lies at or beyond frame x `x` (within a rounding
// of it: callers widen x first), for any x, even infinite.
std::int64_t ColumnFrom(const WorldFrame& frame, double x, std::int64_t lo, std::int64_t hi) {
  const double k = std::ceil(x / frame.column_yards - 0.5) - static_cast<double>(frame.origin_x);
  if (!(k > static_cast<double>(lo))) return lo;  // NaN too
  if (!(k < static_cast<double>(hi))) return hi;
  return static_cast<std::int64_t>(k);
}

// Columns [begin, end) holding every column of row `py` that `s` may cover, found cheaply: the
// columns within h of the part of the segment within h of the row, and one more each side for
// the arithmetic's rounding.
std::pair<std::int64_t, std::int64_t> RowReach(const LineSegment& s, const WorldFrame& frame,
                                               double py, double h) {
  double lo = std::min(s.a.x, s.b.x), hi = std::max(s.a.x, s.b.x);
  if (s.dy != 0.0 && std::isfinite(s.length2)) {
    double t0 = (py - h - s.a.y) / s.dy, t1 = (py + h - s.a.y) / s.dy;
    if (t0 > t1) std::swap(t0, t1);
    t0 = std::clamp(t0, 0.0, 1.0);
    t1 = std::clamp(t1, 0.0, 1.0);
    lo = std::min(s.a.x + t0 * s.dx, s.a.x + t1 * s.dx);
    hi = std::max(s.a.x + t0 * s.dx, s.a.x + t1 * s.dx);
  }
  const std::int64_t begin = ColumnFrom(frame, lo - h, s.x_begin, s.x_end);
  const std::int64_t end = ColumnFrom(frame, hi + h, s.x_begin, s.x_end);
  return {std::max(s.x_begin, begin - 1), std::min(s.x_end, end + 1)};
}

// Adds to `out` the columns of row `py` that `s` covers, as [begin, end).
void SegmentColumns(const LineSegment& s, const WorldFrame& frame, double py, double h, double h2,
                    std::vector<std::pair<std::int64_t, std::int64_t>>* out) {
  const auto [lo, hi] = CapsuleSection(s, py, h);
  if (!(lo <= hi)) return;
  // The columns whose centres lie in the widened section, within the box; then each end moved
  // in until the rule itself holds there (the section is convex, so the columns between hold
  // it, and none outside the widened section can).
  std::int64_t begin = ColumnFrom(frame, lo, s.x_begin, s.x_end);
  std::int64_t end = ColumnFrom(frame, hi, s.x_begin, s.x_end);
  if (end < s.x_end && frame.CentreX(end) <= hi) ++end;
  while (begin < end && !s.Covers(frame.CentreX(begin), py, h2)) ++begin;
  while (end > begin && !s.Covers(frame.CentreX(end - 1), py, h2)) --end;
  if (begin < end) out->push_back({begin, end});
}

// Calls visit(x, row) once for every column in the union of `spans` (each [begin, end)), which
// it reorders. Where the spans are dense, a reach per column of their extent; else a sort.
void VisitUnion(std::vector<std::pair<std::int64_t, std::int64_t>>& spans, std::int64_t row,
                std::vector<std::int64_t>& reach,
                absl::FunctionRef<void(std::uint32_t x, std::uint32_t y)> visit) {
  if (spans.empty()) return;
  std::int64_t first = spans[0].first, last = spans[0].second;
  for (const auto& [begin, end] : spans) {
    first = std::min(first, begin);
    last = std::max(last, end);
  }
  auto emit = [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t x = begin; x < end; ++x) {
      visit(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(row));
    }
  };
  const auto extent = static_cast<std::size_t>(last - first);
  if (extent <= 4 * spans.size() + 64) {
    reach.assign(extent, first);  // reach[i]: the furthest end of a span starting at first + i
    for (const auto& [begin, end] : spans) {
      std::int64_t& r = reach[static_cast<std::size_t>(begin - first)];
      r = std::max(r, end);
    }
    std::int64_t covered_to = first;
    for (std::int64_t x = first; x < last; ++x) {
      covered_to = std::max(covered_to, reach[static_cast<std::size_t>(x - first)]);
      if (x < covered_to) visit(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(row));
    }
    return;
  }
  std::sort(spans.begin(), spans.end());
  std::int64_t covered_to = first;
  for (const auto& [begin, end] : spans) {
    emit(std::max(begin, covered_to), end);
    covered_to = std::max(covered_to, end);
  }
}

// The segments of `line` (one, from its only position to itself, for a one-position line: a
// round dot), each with the rows and columns of its box widened by h.
std::vector<LineSegment> LineSegments(const Continent& c, const WorldFrame& frame,
                                      const GeoLine& line, double h) {
  const std::int64_t width = c.width_columns, height = c.height_columns;
  auto centre_x = [&](std::int64_t x) { return frame.CentreX(x); };
  auto centre_y = [&](std::int64_t y) { return frame.CentreY(y); };
  std::vector<LineSegment> segments;
  for (std::size_t i = 0; !line.empty() && (i == 0 || i + 1 < line.size()); ++i) {
    LineSegment s;
    s.a = line[i];
    s.b = line[std::min(i + 1, line.size() - 1)];
    s.dx = s.b.x - s.a.x;
    s.dy = s.b.y - s.a.y;
    s.length2 = s.dx * s.dx + s.dy * s.dy;
    s.x_begin = FirstCentreAtLeast(std::min(s.a.x, s.b.x) - h, width, centre_x);
    s.x_end = FirstCentreAbove(std::max(s.a.x, s.b.x) + h, width, centre_x);
    s.row_begin = FirstCentreAtLeast(std::min(s.a.y, s.b.y) - h, height, centre_y);
    s.row_end = FirstCentreAbove(std::max(s.a.y, s.b.y) + h, height, centre_y);
    if (s.x_begin < s.x_end && s.row_begin < s.row_end) segments.push_back(s);
  }
  return segments;
}

}  // namespace

void ForEachColumnInPolygon(const Continent& c, const WorldFrame& frame, const GeoPolygon& polygon,
                            absl::FunctionRef<void(std::uint32_t x, std::uint32_t y)> visit) {
  const std::int64_t width = c.width_columns, height = c.height_columns;
  auto centre_x = [&](std::int64_t x) { return frame.CentreX(x); };
  auto centre_y = [&](std::int64_t y) { return frame.CentreY(y); };
  const std::vector<RingEdge> edges = RingEdges(polygon, height, centre_y);
  std::vector<double> crossings;
  SweepRows(edges, [&](std::int64_t row, const std::vector<ActiveSpan>& active) {
    const double cy = frame.CentreY(row);
    crossings.clear();
    for (const ActiveSpan& e : active) crossings.push_back(Crossing(edges[e.item], cy));
    std::sort(crossings.begin(), crossings.end());
    // A centre is inside when an odd number of crossings lie east of it: between crossings
    // 2k (included) and 2k + 1 (excluded). The count is even: each ring is closed.
    for (std::size_t k = 0; k + 1 < crossings.size(); k += 2) {
      const std::int64_t end = FirstCentreAtLeast(crossings[k + 1], width, centre_x);
      for (std::int64_t x = FirstCentreAtLeast(crossings[k], width, centre_x); x < end; ++x) {
        visit(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(row));
      }
    }
  });
}

void ForEachColumnNearLine(const Continent& c, const WorldFrame& frame, const GeoLine& line,
                           double half_width_yards,
                           absl::FunctionRef<void(std::uint32_t x, std::uint32_t y)> visit) {
  const double h = half_width_yards;
  const std::vector<LineSegment> segments = LineSegments(c, frame, line, h);
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;
  std::vector<std::int64_t> reach;
  SweepRows(segments, [&](std::int64_t row, const std::vector<ActiveSpan>& active) {
    const double py = frame.CentreY(row);
    spans.clear();
    // A run of columns known covered: a segment whose box lies inside it adds nothing (where a
    // wide line's segments overlap, most of them).
    std::int64_t run_begin = 0, run_end = 0;
    for (const ActiveSpan& a : active) {
      if (a.x_begin >= run_begin && a.x_end <= run_end) continue;
      const LineSegment& s = segments[a.item];
      const auto [reach_begin, reach_end] = RowReach(s, frame, py, h);
      if (reach_begin >= run_begin && reach_end <= run_end) continue;
      const std::size_t before = spans.size();
      SegmentColumns(s, frame, py, h, h * h, &spans);
      if (spans.size() == before) continue;
      const auto [begin, end] = spans.back();
      if (begin <= run_end && end >= run_begin) {
        run_begin = std::min(run_begin, begin);
        run_end = std::max(run_end, end);
      } else if (end - begin > run_end - run_begin) {
        run_begin = begin;
        run_end = end;
      }
    }
    VisitUnion(spans, row, reach, visit);
  });
}

}  // namespace walk::nav
