#include "nav/import/voxelizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nav/grid/grid_format.h"
// Recast is third-party: included here only (its include directory is private to walk_nav).
#include "Recast.h"
#include "nav/grid/number_text.h"

namespace walk::nav {
namespace {

// How steep a triangle is, from its normal.
enum SlopeClass : std::uint8_t {
  kSlopePlain = 0,   // <= walk_slope_degrees
  kSlopeSteep = 1,   // <= steep_slope_degrees: surfaces flagged kFlagSteep
  kSlopeClimb = 2,   // <= climb_slope_degrees: surfaces flagged kFlagClimb
  kUnstandable = 3,  // steeper, facing down, or degenerate: an obstacle only (RC_NULL_AREA)
};

// Recast area ids are 6 bits and RC_NULL_AREA (0) means "not walkable". Each heightfield maps
// the distinct (tag, slope class) pairs its triangles use to ids 1..kMaxAreaIds.
constexpr int kMaxAreaIds = 62;

// Columns around each heightfield beyond those kept, so the filters (and erosion) near a tile's
// edge see the geometry of its neighbours. Recast's rasterizer folds whatever lies before the
// first row and column of a heightfield into them, so those are never kept nor looked at.
constexpr int kBorderColumns = 3;

// The most spans one heightfield may hold (PickedTriangles::span_bound): 32 Mi spans are about
// 768 MiB of Recast's heightfield and compact heightfield. A whole mesh beyond it goes tile by
// tile; a tile beyond it (over 450 layers of triangles on each of its columns) is refused.
constexpr double kMaxHeightfieldSpans = double(1 << 25);

// The most (triangle, tile) pairs a mesh voxelized tile by tile may make, a triangle counted
// once for every tile its bounds touch: 256 Mi pairs are 1 GiB of lists.
constexpr std::uint64_t kMaxTileTriangles = std::uint64_t{1} << 28;

// The key of a (tag, slope class) pair. Keys sort in order of importance, and area ids are given
// in key order, so when Recast merges two spans whose tops lie within a step of each other (it
// keeps the larger area id) the more important surface wins:
//   1. by slope: plain beats steep beats climb (a column that is partly floor is a floor);
//   2. dry ground beats water (a shore column is ground one can stand on);
//   3. then more marks (road, hubs), then higher flags (building over terrain, indoor, ...),
//      then the higher zone: arbitrary but deterministic.
// Where the tops are further apart, Recast keeps the area of the higher top, whatever its id.
using AreaKey = std::uint64_t;

AreaKey MakeAreaKey(TriangleTag tag, SlopeClass slope) {
  const std::uint8_t flags = tag.flags & ~(kFlagSteep | kFlagClimb);
  const std::uint64_t slope_rank = 2 - static_cast<std::uint64_t>(slope);
  const std::uint64_t dry = (flags & kFlagWater) ? 0 : 1;
  return (slope_rank << 40) | (dry << 32) | (std::uint64_t{tag.marks} << 24) |
         (std::uint64_t{flags} << 16) | tag.zone;
}

SurfaceSpec SpecOfAreaKey(AreaKey key) {
  SurfaceSpec spec;
  spec.zone = static_cast<std::uint16_t>(key & 0xFFFF);
  spec.flags = static_cast<std::uint8_t>((key >> 16) & 0xFF);
  spec.marks = static_cast<std::uint8_t>((key >> 24) & 0xFF);
  const auto slope = static_cast<SlopeClass>(2 - ((key >> 40) & 0x3));
  if (slope == kSlopeSteep) spec.flags |= kFlagSteep;
  if (slope == kSlopeClimb) spec.flags |= kFlagClimb;
  return spec;
}

// Options turned into Recast's units, once.
struct Settings {
  const VoxelizeOptions* options = nullptr;
  float cs = 0.0f;          // column width, yards
  float ch = 0.0f;          // height step, yards
  int walkable_height = 0;  // agent height, height steps (rounded up)
  int walkable_climb = 0;   // step, height steps (rounded down)
  int erode_radius = 0;     // agent radius, columns (rounded up); 0: no erosion
  int border = 0;           // extra columns around each heightfield
  LinkRules rules;
};

absl::Status BadOption(const char* field, double value, const char* rule) {
  return absl::InvalidArgumentError(
      absl::StrCat("VoxelizeOptions.", field, " must be ", rule, " (got ", NumberText(value), ")"));
}

absl::StatusOr<Settings> MakeSettings(const VoxelizeOptions& o) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0.0; };
  auto non_negative = [](double v) { return std::isfinite(v) && v >= 0.0; };
  if (!(o.column_yards >= kMinColumnYards && o.column_yards <= kMaxColumnYards)) {
    // What a grid file holds (nav/grid/grid_format.h).
    return BadOption("column_yards", o.column_yards, "in [0.001, 1000]");
  }
  if (!positive(o.height_step_yards)) {
    return BadOption("height_step_yards", o.height_step_yards, "> 0");
  }
  if (!positive(o.agent_height_yards)) {
    return BadOption("agent_height_yards", o.agent_height_yards, "> 0");
  }
  if (!non_negative(o.agent_radius_yards)) {
    return BadOption("agent_radius_yards", o.agent_radius_yards, ">= 0");
  }
  if (!non_negative(o.step_yards)) return BadOption("step_yards", o.step_yards, ">= 0");
  if (!std::isfinite(o.jump_yards) || o.jump_yards < o.step_yards) {
    return BadOption("jump_yards", o.jump_yards, ">= step_yards");
  }
  if (!non_negative(o.max_fall_yards)) {
    return BadOption("max_fall_yards", o.max_fall_yards, ">= 0");
  }
  if (!std::isfinite(o.walk_slope_degrees) || o.walk_slope_degrees < 0.0 ||
      o.walk_slope_degrees >= 90.0) {
    return BadOption("walk_slope_degrees", o.walk_slope_degrees, "in [0, 90)");
  }
  if (!std::isfinite(o.steep_slope_degrees) || o.steep_slope_degrees < o.walk_slope_degrees ||
      o.steep_slope_degrees >= 90.0) {
    return BadOption("steep_slope_degrees", o.steep_slope_degrees, "in [walk_slope_degrees, 90)");
  }
  if (!std::isfinite(o.climb_slope_degrees) || o.climb_slope_degrees < o.steep_slope_degrees ||
      o.climb_slope_degrees >= 90.0) {
    return BadOption("climb_slope_degrees", o.climb_slope_degrees, "in [steep_slope_degrees, 90)");
  }
  if (!std::isfinite(o.origin_x)) return BadOption("origin_x", o.origin_x, "finite");
  if (!std::isfinite(o.origin_z)) return BadOption("origin_z", o.origin_z, "finite");
  if (o.whole_mesh_max_columns == 0) {
    return BadOption("whole_mesh_max_columns", o.whole_mesh_max_columns, ">= 1");
  }

  Settings s;
  s.options = &o;
  s.cs = static_cast<float>(o.column_yards);
  s.ch = static_cast<float>(o.height_step_yards);
  const double height_steps = std::ceil(o.agent_height_yards / o.height_step_yards);
  if (height_steps > 255) {  // Recast's compact spans hold open heights in 8 bits
    return BadOption("agent_height_yards", o.agent_height_yards,
                     "at most 255 height steps (height_step_yards)");
  }
  s.walkable_height = static_cast<int>(height_steps);
  s.walkable_climb = static_cast<int>(
      std::min(std::floor(o.step_yards / o.height_step_yards), double{RC_SPAN_MAX_HEIGHT}));
  const double radius_columns = std::ceil(o.agent_radius_yards / o.column_yards);
  if (radius_columns >= 255) {
    return BadOption("agent_radius_yards", o.agent_radius_yards,
                     "less than 255 columns (column_yards)");
  }
  s.erode_radius = static_cast<int>(radius_columns);
  s.border = kBorderColumns + s.erode_radius;

  s.rules.step_yards = o.step_yards;
  s.rules.jump_yards = o.jump_yards;
  // Neighbouring columns on a slope of climb_slope_degrees differ by column * tan(slope) in
  // height, plus up to one height step of rounding: every slope still standable is linked.
  s.rules.climb_yards =
      o.column_yards * std::tan(o.climb_slope_degrees * std::numbers::pi / 180.0) +
      o.height_step_yards;
  s.rules.max_fall_yards = o.max_fall_yards;
  s.rules.agent_height_yards = o.agent_height_yards;
  s.rules.water_entered_only_from_water = false;
  return s;
}

SlopeClass ClassifySlope(const float* a, const float* b, const float* c, const VoxelizeOptions& o) {
  const double e0[3] = {double{b[0]} - a[0], double{b[1]} - a[1], double{b[2]} - a[2]};
  const double e1[3] = {double{c[0]} - a[0], double{c[1]} - a[1], double{c[2]} - a[2]};
  // Counter-clockwise seen from above gives an upward normal (Recast's convention).
  const double n[3] = {e0[1] * e1[2] - e0[2] * e1[1], e0[2] * e1[0] - e0[0] * e1[2],
                       e0[0] * e1[1] - e0[1] * e1[0]};
  const double length = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  if (!(length > 0.0) || !std::isfinite(length) || n[1] <= 0.0) return kUnstandable;
  const double degrees = std::acos(std::min(1.0, n[1] / length)) * 180.0 / std::numbers::pi;
  if (degrees <= o.walk_slope_degrees) return kSlopePlain;
  if (degrees <= o.steep_slope_degrees) return kSlopeSteep;
  if (degrees <= o.climb_slope_degrees) return kSlopeClimb;
  return kUnstandable;
}

absl::Status ValidateMesh(const TriangleMesh& mesh, const std::string& what) {
  if (mesh.vertices.size() % 3 != 0) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": vertices is not x, y, z triples"));
  }
  if (mesh.indices.size() != 3 * mesh.tags.size()) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": ", mesh.indices.size(), " indices for ",
                                                   mesh.tags.size(),
                                                   " tags (3 indices per tagged triangle)"));
  }
  const std::uint32_t count = mesh.vertex_count();
  for (std::uint32_t index : mesh.indices) {
    if (index >= count) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": vertex index ", index, " of ", count, " vertices"));
    }
  }
  for (float v : mesh.vertices) {
    if (!std::isfinite(v)) {
      return absl::InvalidArgumentError(absl::StrCat(what, ": a vertex is not finite"));
    }
  }
  return absl::OkStatus();
}

struct HeightfieldDeleter {
  void operator()(rcHeightfield* hf) const { rcFreeHeightField(hf); }
};
struct CompactHeightfieldDeleter {
  void operator()(rcCompactHeightfield* chf) const { rcFreeCompactHeightfield(chf); }
};

// One heightfield to rasterize: the columns kept (continent-wide), plus `Settings::border`
// columns around them that only the filters see.
struct HeightfieldJob {
  std::string name;  // for errors: "tile 3,1" or "the mesh"
  // The whole mesh in one heightfield: when it holds more than Recast can (area ids, spans), the
  // caller goes tile by tile instead of failing.
  bool whole = false;
  std::uint32_t x0 = 0, y0 = 0;  // first column kept
  std::uint32_t keep_width = 0, keep_height = 0;
  // The mesh height of height step 0; nullopt: from this heightfield's own triangles.
  std::optional<double> base_y;
};

// How many height steps hold everything from `base_y` up to `max_y` (with one to spare).
double HeightSteps(double base_y, double max_y, double ch) {
  return std::ceil((max_y - base_y) / ch) + 1.0;
}

// The mesh height of height step 0 for geometry spanning [min_y, max_y]: a multiple of 1024
// height steps when that leaves room for max_y, so that heightfields of neighbouring tiles (each
// choosing from its own triangles) mostly share it and quantize heights identically; else the
// multiple of one height step at or below min_y.
double BaseHeight(double min_y, double max_y, double ch) {
  const double block = 1024.0 * ch;
  const double blocked = std::floor(min_y / block) * block;
  if (HeightSteps(blocked, max_y, ch) <= RC_SPAN_MAX_HEIGHT) return blocked;
  return std::floor(min_y / ch) * ch;
}

absl::Status TooTall(const std::string& name, double min_y, double max_y, const Settings& s) {
  return absl::InvalidArgumentError(absl::StrCat(
      name, ": the mesh spans ", max_y - min_y, " yards of height; at height_step_yards ",
      s.options->height_step_yards, " Recast holds at most ", RC_SPAN_MAX_HEIGHT,
      " steps: raise VoxelizeOptions.height_step_yards"));
}

// Where a heightfield lies: `border` columns around the job's kept columns, w x h in all, its
// corner at mesh point (ox, oz). Triangles are handed to Recast relative to that corner (in
// double, then float), which keeps float precision for meshes far from the origin.
struct HeightfieldFrame {
  int border = 0;
  int w = 0, h = 0;           // columns
  double ox = 0.0, oz = 0.0;  // the corner, mesh coordinates
  double ox_end = 0.0, oz_end = 0.0;
};

HeightfieldFrame FrameOf(const HeightfieldJob& job, const Settings& s) {
  const VoxelizeOptions& o = *s.options;
  HeightfieldFrame f;
  f.border = s.border;
  f.w = static_cast<int>(job.keep_width) + 2 * f.border;
  f.h = static_cast<int>(job.keep_height) + 2 * f.border;
  f.ox = o.origin_x + (static_cast<double>(job.x0) - f.border) * o.column_yards;
  f.oz = o.origin_z + (static_cast<double>(job.y0) - f.border) * o.column_yards;
  f.ox_end = f.ox + f.w * o.column_yards;
  f.oz_end = f.oz + f.h * o.column_yards;
  return f;
}

// The triangles touching a heightfield, classified.
struct PickedTriangles {
  std::vector<std::uint32_t> triangles;  // indices into the mesh
  std::vector<AreaKey> keys;             // per picked triangle; only meaningful when standable
  std::vector<SlopeClass> slopes;        // per picked triangle
  double min_y = std::numeric_limits<double>::infinity();  // their height range, mesh y
  double max_y = -std::numeric_limits<double>::infinity();
  // At least as many spans as Recast makes of them: each triangle makes at most one span in
  // each column it touches (SpanBound).
  double span_bound = 0.0;
};

// At most how many columns of frame f the triangle a, b, c touches, from above: those of its
// bounds clipped to the frame, and no more than its area plus twice its perimeter plus 4 (in
// columns: a touched column lies in the triangle grown by one column, whose area is at most
// that), so neither a large flat triangle nor a long sliver is counted as its whole bounds.
double SpanBound(const float* a, const float* b, const float* c, const double lo[3],
                 const double hi[3], const HeightfieldFrame& f, double cs) {
  const double across = (std::min(hi[0], f.ox_end) - std::max(lo[0], f.ox)) / cs + 2.0;
  const double along = (std::min(hi[2], f.oz_end) - std::max(lo[2], f.oz)) / cs + 2.0;
  const double e0x = double{b[0]} - a[0], e0z = double{b[2]} - a[2];
  const double e1x = double{c[0]} - a[0], e1z = double{c[2]} - a[2];
  const double area = std::abs(e0x * e1z - e0z * e1x) / 2.0;
  const double perimeter = std::hypot(e0x, e0z) + std::hypot(e1x, e1z) +
                           std::hypot(double{c[0]} - b[0], double{c[2]} - b[2]);
  return std::min(across * along, area / (cs * cs) + 2.0 * perimeter / cs + 4.0);
}

// The triangles of `mesh` (those listed in `triangles`, or all when null) whose bounds touch
// frame f, with their slope classes and area keys.
PickedTriangles PickTriangles(const TriangleMesh& mesh, const std::vector<std::uint32_t>* triangles,
                              const HeightfieldFrame& f, const VoxelizeOptions& o) {
  PickedTriangles picked;
  const std::uint32_t total =
      triangles ? static_cast<std::uint32_t>(triangles->size()) : mesh.triangle_count();
  for (std::uint32_t i = 0; i < total; ++i) {
    const std::uint32_t t = triangles ? (*triangles)[i] : i;
    const float* v[3];
    for (int k = 0; k < 3; ++k) {
      v[k] = &mesh.vertices[3 * std::size_t{mesh.indices[3 * std::size_t{t} + k]}];
    }
    double lo[3], hi[3];
    for (int axis = 0; axis < 3; ++axis) {
      lo[axis] = std::min({v[0][axis], v[1][axis], v[2][axis]});
      hi[axis] = std::max({v[0][axis], v[1][axis], v[2][axis]});
    }
    if (hi[0] < f.ox || lo[0] > f.ox_end || hi[2] < f.oz || lo[2] > f.oz_end) continue;
    picked.triangles.push_back(t);
    const SlopeClass slope = ClassifySlope(v[0], v[1], v[2], o);
    picked.slopes.push_back(slope);
    picked.keys.push_back(MakeAreaKey(mesh.tags[t], slope == kUnstandable ? kSlopePlain : slope));
    picked.min_y = std::min(picked.min_y, lo[1]);
    picked.max_y = std::max(picked.max_y, hi[1]);
    picked.span_bound += SpanBound(v[0], v[1], v[2], lo, hi, f, o.column_yards);
  }
  return picked;
}

// The area ids of a heightfield: the distinct keys of its standable triangles, in key order (see
// MakeAreaKey); area id i + 1 is table[i]. Errors: more than kMaxAreaIds keys
// (RESOURCE_EXHAUSTED for a whole-mesh job, INVALID_ARGUMENT for a tile).
absl::StatusOr<std::vector<AreaKey>> AreaTable(const PickedTriangles& picked,
                                               const HeightfieldJob& job) {
  std::vector<AreaKey> table;
  for (std::size_t i = 0; i < picked.triangles.size(); ++i) {
    if (picked.slopes[i] != kUnstandable) table.push_back(picked.keys[i]);
  }
  std::sort(table.begin(), table.end());
  table.erase(std::unique(table.begin(), table.end()), table.end());
  if (table.size() > kMaxAreaIds) {
    const std::string message =
        absl::StrCat(job.name, ": ", table.size(),
                     " distinct (triangle tag, slope class) pairs; Recast's area ids hold at most ",
                     kMaxAreaIds, " per heightfield");
    return job.whole ? absl::ResourceExhaustedError(message) : absl::InvalidArgumentError(message);
  }
  return table;
}

// The picked triangles as Recast takes them: *soup their corners relative to the frame's corner
// and `base_y` (9 floats each), *areas their area ids (RC_NULL_AREA where unstandable).
void MakeSoup(const TriangleMesh& mesh, const PickedTriangles& picked,
              const std::vector<AreaKey>& table, const HeightfieldFrame& f, double base_y,
              std::vector<float>* soup, std::vector<unsigned char>* areas) {
  const std::size_t count = picked.triangles.size();
  soup->resize(count * 9);
  areas->resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t t = picked.triangles[i];
    for (int k = 0; k < 3; ++k) {
      const float* v = &mesh.vertices[3 * std::size_t{mesh.indices[3 * std::size_t{t} + k]}];
      (*soup)[9 * i + 3 * k + 0] = static_cast<float>(v[0] - f.ox);
      (*soup)[9 * i + 3 * k + 1] = static_cast<float>(v[1] - base_y);
      (*soup)[9 * i + 3 * k + 2] = static_cast<float>(v[2] - f.oz);
    }
    (*areas)[i] = picked.slopes[i] == kUnstandable
                      ? RC_NULL_AREA
                      : static_cast<unsigned char>(
                            1 + (std::lower_bound(table.begin(), table.end(), picked.keys[i]) -
                                 table.begin()));
  }
}

using HeightfieldPtr = std::unique_ptr<rcHeightfield, HeightfieldDeleter>;
using CompactHeightfieldPtr = std::unique_ptr<rcCompactHeightfield, CompactHeightfieldDeleter>;

// A heightfield of frame f, `height_steps` high, with the soup rasterized into it. Spans whose
// tops lie within a step merge their areas (the larger id wins), as Recast's demo.
absl::StatusOr<HeightfieldPtr> Rasterize(rcContext& ctx, const std::vector<float>& soup,
                                         const std::vector<unsigned char>& areas,
                                         const HeightfieldFrame& f, double height_steps,
                                         const HeightfieldJob& job, const Settings& s) {
  const VoxelizeOptions& o = *s.options;
  HeightfieldPtr hf(rcAllocHeightfield());
  const float bmin[3] = {0.0f, 0.0f, 0.0f};
  const float bmax[3] = {static_cast<float>(f.w * o.column_yards),
                         static_cast<float>(height_steps * o.height_step_yards),
                         static_cast<float>(f.h * o.column_yards)};
  if (!hf || !rcCreateHeightfield(&ctx, *hf, f.w, f.h, bmin, bmax, s.cs, s.ch)) {
    return absl::InternalError(
        absl::StrCat(job.name, ": Recast could not create a ", f.w, " x ", f.h, " heightfield"));
  }
  if (!rcRasterizeTriangles(&ctx, soup.data(), areas.data(), static_cast<int>(areas.size()), *hf,
                            s.walkable_climb)) {
    return absl::InternalError(absl::StrCat(job.name, ": Recast could not rasterize"));
  }
  return hf;
}

// Recast's filters: low-hanging obstacles, ledges (on request), low headroom.
void FilterSpans(rcContext& ctx, rcHeightfield& hf, const Settings& s) {
  rcFilterLowHangingWalkableObstacles(&ctx, s.walkable_climb, hf);
  if (s.options->filter_ledges) rcFilterLedgeSpans(&ctx, s.walkable_height, s.walkable_climb, hf);
  rcFilterWalkableLowHeightSpans(&ctx, s.walkable_height, hf);
}

// The compact heightfield of hf, eroded by the agent's radius. Errors: more walkable spans than
// it indexes (RESOURCE_EXHAUSTED for a whole-mesh job, INTERNAL for a tile); INTERNAL when
// Recast fails.
absl::StatusOr<CompactHeightfieldPtr> BuildCompact(rcContext& ctx, rcHeightfield& hf,
                                                   const HeightfieldJob& job, const Settings& s) {
  const int span_count = rcGetHeightFieldSpanCount(&ctx, hf);
  if (span_count > 0xFFFFFF) {  // rcCompactCell::index has 24 bits
    const std::string message =
        absl::StrCat(job.name, ": ", span_count,
                     " walkable spans, more than Recast's compact heightfield indexes");
    return job.whole ? absl::ResourceExhaustedError(message) : absl::InternalError(message);
  }
  CompactHeightfieldPtr chf(rcAllocCompactHeightfield());
  if (!chf || !rcBuildCompactHeightfield(&ctx, s.walkable_height, s.walkable_climb, hf, *chf)) {
    return absl::InternalError(
        absl::StrCat(job.name, ": Recast could not build the compact heightfield"));
  }
  if (s.erode_radius > 0 && !rcErodeWalkableArea(&ctx, s.erode_radius, *chf)) {
    return absl::InternalError(absl::StrCat(job.name, ": Recast could not erode"));
  }
  return chf;
}

// Places a surface for every walkable compact span of the job's kept columns (within the
// continent's `width_columns` x `height_columns`). The solid spans of the column (hf) give the
// headroom: up to the bottom of the next span above, whatever it is (the compact span's own `h`
// saturates at 255 steps); none above is open sky.
void PlaceSurfaces(const rcHeightfield& hf, const rcCompactHeightfield& chf,
                   const std::vector<AreaKey>& table, double base_y, const HeightfieldFrame& f,
                   const HeightfieldJob& job, const Settings& s, std::uint32_t width_columns,
                   std::uint32_t height_columns, ContinentBuilder& builder, VoxelizeStats& stats) {
  const VoxelizeOptions& o = *s.options;
  const int border = f.border;
  std::vector<SurfaceSpec> column;  // the kept column's surfaces, lowest first
  for (int hy = border; hy < border + static_cast<int>(job.keep_height); ++hy) {
    const std::uint32_t y = job.y0 + static_cast<std::uint32_t>(hy - border);
    if (y >= height_columns) break;
    for (int hx = border; hx < border + static_cast<int>(job.keep_width); ++hx) {
      const std::uint32_t x = job.x0 + static_cast<std::uint32_t>(hx - border);
      if (x >= width_columns) break;
      const rcCompactCell& cell = chf.cells[hx + hy * f.w];
      std::uint32_t ci = cell.index;
      const std::uint32_t cend = cell.index + cell.count;
      column.clear();
      for (const rcSpan* span = hf.spans[hx + hy * f.w]; span != nullptr; span = span->next) {
        if (span->area == RC_NULL_AREA) continue;
        // Compact spans are the solid spans that were walkable when it was built, in order;
        // erosion may since have cleared their areas.
        unsigned char area = span->area;
        if (ci < cend && chf.spans[ci].y == span->smax) area = chf.areas[ci++];
        if (area == RC_NULL_AREA) continue;
        SurfaceSpec spec = SpecOfAreaKey(table[area - 1]);
        spec.height_yards = static_cast<float>(base_y + span->smax * o.height_step_yards);
        spec.headroom_yards =
            span->next != nullptr
                ? static_cast<float>((static_cast<double>(span->next->smin) - span->smax) *
                                     o.height_step_yards)
                : std::numeric_limits<float>::infinity();
        column.push_back(spec);
      }
      // Solid spans come lowest first: past 31, the lowest go.
      const std::size_t drop = column.size() > kMaxFloors ? column.size() - kMaxFloors : 0;
      stats.dropped_surfaces += drop;
      for (std::size_t i = drop; i < column.size(); ++i) builder.AddSurface(x, y, column[i]);
      stats.spans += column.size() - drop;
    }
  }
}

// Rasterizes the triangles of `mesh` (those listed in `triangles`, or all when null) into one
// heightfield, filters it, and places a surface for every walkable span of the kept columns.
// For a whole-mesh job, RESOURCE_EXHAUSTED when the heightfield needs more area ids or holds more
// walkable spans than Recast can (the caller then goes tile by tile, nothing placed yet).
absl::Status VoxelizeHeightfield(const TriangleMesh& mesh,
                                 const std::vector<std::uint32_t>* triangles,
                                 const HeightfieldJob& job, const Settings& s,
                                 std::uint32_t width_columns, std::uint32_t height_columns,
                                 ContinentBuilder& builder, VoxelizeStats& stats) {
  const VoxelizeOptions& o = *s.options;
  const HeightfieldFrame frame = FrameOf(job, s);
  const PickedTriangles picked = PickTriangles(mesh, triangles, frame, o);
  if (picked.triangles.empty()) return absl::OkStatus();
  if (picked.span_bound > kMaxHeightfieldSpans) {
    const std::string message = absl::StrCat(
        job.name, ": its ", picked.triangles.size(), " triangles may make up to ",
        static_cast<std::uint64_t>(picked.span_bound), " spans (one a column a triangle touches), ",
        "more than the ", static_cast<std::uint64_t>(kMaxHeightfieldSpans),
        " one heightfield holds: raise column_yards");
    return job.whole ? absl::ResourceExhaustedError(message) : absl::InvalidArgumentError(message);
  }
  const absl::StatusOr<std::vector<AreaKey>> table = AreaTable(picked, job);
  if (!table.ok()) return table.status();

  const double base_y =
      job.base_y ? *job.base_y : BaseHeight(picked.min_y, picked.max_y, o.height_step_yards);
  const double height_steps = HeightSteps(base_y, picked.max_y, o.height_step_yards);
  if (height_steps > RC_SPAN_MAX_HEIGHT) return TooTall(job.name, picked.min_y, picked.max_y, s);

  std::vector<float> soup;
  std::vector<unsigned char> areas;
  MakeSoup(mesh, picked, *table, frame, base_y, &soup, &areas);
  rcContext ctx(/*state=*/false);  // no logging, no timers
  const absl::StatusOr<HeightfieldPtr> hf =
      Rasterize(ctx, soup, areas, frame, height_steps, job, s);
  if (!hf.ok()) return hf.status();
  std::vector<float>().swap(soup);  // the heightfield holds the triangles
  if (absl::Status stop = o.stop.Check("voxelizing"); !stop.ok()) return stop;
  FilterSpans(ctx, **hf, s);
  const absl::StatusOr<CompactHeightfieldPtr> chf = BuildCompact(ctx, **hf, job, s);
  if (!chf.ok()) return chf.status();
  if (absl::Status stop = o.stop.Check("voxelizing"); !stop.ok()) return stop;
  PlaceSurfaces(**hf, **chf, *table, base_y, frame, job, s, width_columns, height_columns, builder,
                stats);
  return absl::OkStatus();
}

absl::StatusOr<Continent> Finish(ContinentBuilder& builder, const Settings& settings,
                                 const std::function<void(ContinentBuilder&)>& builder_hook) {
  if (builder_hook) builder_hook(builder);
  return builder.Build(settings.rules, settings.options->stop);
}

// The triangles of each of tiles_x x tiles_y tiles (row by row): those whose bounds touch the tile
// and its border. Counted first: INVALID_ARGUMENT when they would be more than kMaxTileTriangles.
absl::StatusOr<std::vector<std::vector<std::uint32_t>>> TrianglesPerTile(const TriangleMesh& mesh,
                                                                         const Settings& s,
                                                                         std::uint32_t tiles_x,
                                                                         std::uint32_t tiles_y) {
  const VoxelizeOptions& o = *s.options;
  const double reach = s.border + 1;  // columns beyond a tile whose triangles it takes
  auto tile_range = [&](double lo, double hi, std::uint32_t tiles, std::uint32_t* first,
                        std::uint32_t* last) {
    const double t0 = std::floor((lo - reach) / kTileColumns);
    const double t1 = std::floor((hi + reach) / kTileColumns);
    if (t1 < 0 || t0 >= tiles) return false;
    *first = static_cast<std::uint32_t>(std::max(0.0, t0));
    *last = static_cast<std::uint32_t>(std::min<double>(tiles - 1, t1));
    return true;
  };
  // The tiles triangle t touches: false when none.
  auto tiles_of = [&](std::uint32_t t, std::uint32_t* tx0, std::uint32_t* tx1, std::uint32_t* ty0,
                      std::uint32_t* ty1) {
    const float* v[3];
    for (int k = 0; k < 3; ++k) {
      v[k] = &mesh.vertices[3 * std::size_t{mesh.indices[3 * std::size_t{t} + k]}];
    }
    // The triangle's bounds in columns, x and y.
    const double lo[2] = {(std::min({v[0][0], v[1][0], v[2][0]}) - o.origin_x) / o.column_yards,
                          (std::min({v[0][2], v[1][2], v[2][2]}) - o.origin_z) / o.column_yards};
    const double hi[2] = {(std::max({v[0][0], v[1][0], v[2][0]}) - o.origin_x) / o.column_yards,
                          (std::max({v[0][2], v[1][2], v[2][2]}) - o.origin_z) / o.column_yards};
    return tile_range(lo[0], hi[0], tiles_x, tx0, tx1) &&
           tile_range(lo[1], hi[1], tiles_y, ty0, ty1);
  };
  std::uint64_t pairs = 0;
  std::uint32_t tx0, tx1, ty0, ty1;
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
    if (tiles_of(t, &tx0, &tx1, &ty0, &ty1)) {
      pairs += std::uint64_t{tx1 - tx0 + 1} * (ty1 - ty0 + 1);
    }
  }
  if (pairs > kMaxTileTriangles) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the mesh's ", mesh.triangle_count(), " triangles touch ", pairs,
        " tiles in all (a triangle counted once a tile), more than the ", kMaxTileTriangles,
        " one build takes: raise column_yards, or split its largest triangles"));
  }
  std::vector<std::vector<std::uint32_t>> per_tile(std::size_t{tiles_x} * tiles_y);
  for (std::uint32_t t = 0; t < mesh.triangle_count(); ++t) {
    if (!tiles_of(t, &tx0, &tx1, &ty0, &ty1)) continue;
    for (std::uint32_t ty = ty0; ty <= ty1; ++ty) {
      for (std::uint32_t tx = tx0; tx <= tx1; ++tx) per_tile[ty * tiles_x + tx].push_back(t);
    }
  }
  return per_tile;
}

// Voxelizes `mesh` tile by tile: each tile's triangles are those whose bounds touch the tile and
// its border.
absl::Status VoxelizeMeshByTiles(const TriangleMesh& mesh, const Settings& s,
                                 std::uint32_t width_columns, std::uint32_t height_columns,
                                 std::optional<double> base_y, ContinentBuilder& builder,
                                 VoxelizeStats& stats) {
  const VoxelizeOptions& o = *s.options;
  const std::uint32_t tiles_x = (width_columns + kTileColumns - 1) / kTileColumns;
  const std::uint32_t tiles_y = (height_columns + kTileColumns - 1) / kTileColumns;
  absl::StatusOr<std::vector<std::vector<std::uint32_t>>> per_tile =
      TrianglesPerTile(mesh, s, tiles_x, tiles_y);
  if (!per_tile.ok()) return per_tile.status();
  const std::uint32_t total = tiles_x * tiles_y;
  for (std::uint32_t ty = 0; ty < tiles_y; ++ty) {
    for (std::uint32_t tx = 0; tx < tiles_x; ++tx) {
      if (o.stop.requested()) return BuildStop::Stopped("voxelizing");
      std::vector<std::uint32_t>& triangles = (*per_tile)[ty * tiles_x + tx];
      HeightfieldJob job;
      job.name = absl::StrCat("tile ", tx, ",", ty);
      job.x0 = tx * kTileColumns;
      job.y0 = ty * kTileColumns;
      job.keep_width = job.keep_height = kTileColumns;
      job.base_y = base_y;
      const absl::Status status = VoxelizeHeightfield(mesh, &triangles, job, s, width_columns,
                                                      height_columns, builder, stats);
      if (!status.ok()) return status;
      std::vector<std::uint32_t>().swap(triangles);
      ++stats.heightfields;
      if (o.progress) o.progress(ty * tiles_x + tx + 1, total);
    }
  }
  return absl::OkStatus();
}

// The extent is 1 x 1 columns at least and kMaxVoxelizeColumns along each side at most: checked
// before anything that size is allocated.
absl::Status CheckExtent(const TriangleMesh& mesh, const VoxelizeOptions& o,
                         std::uint32_t width_columns, std::uint32_t height_columns) {
  if (width_columns == 0 || height_columns == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the extent must be at least 1 x 1 columns (got ", width_columns, " x ",
                     height_columns, ")"));
  }
  if (width_columns > kMaxVoxelizeColumns || height_columns > kMaxVoxelizeColumns) {
    float min[3], max[3];
    mesh.Bounds(min, max);
    return absl::InvalidArgumentError(absl::StrCat(
        "the mesh spans ", double{max[0]} - min[0], " x ", double{max[2]} - min[2],
        " yards (x, z): an extent of ", width_columns, " x ", height_columns,
        " columns at column_yards ", NumberText(o.column_yards), "; a continent holds at most ",
        kMaxVoxelizeColumns, " x ", kMaxVoxelizeColumns, " columns (raise column_yards)"));
  }
  return absl::OkStatus();
}

}  // namespace

void PlaceOriginAtMeshCorner(const TriangleMesh& mesh, VoxelizeOptions* options,
                             std::int64_t* origin_column_x, std::int64_t* origin_column_y) {
  float min[3], max[3];
  mesh.Bounds(min, max);
  auto column = [&](float lowest) -> std::int64_t {
    if (!std::isfinite(lowest) || !(options->column_yards > 0.0)) return 0;
    // Clamped far inside int64 (and exact in double): a mesh that far out is refused later, by
    // its extent.
    constexpr double kFar = 4503599627370496.0;  // 2^52
    return static_cast<std::int64_t>(
        std::clamp(std::floor(lowest / options->column_yards), -kFar, kFar));
  };
  *origin_column_x = column(min[0]);
  *origin_column_y = column(min[2]);
  options->origin_x = static_cast<double>(*origin_column_x) * options->column_yards;
  options->origin_z = static_cast<double>(*origin_column_y) * options->column_yards;
}

void MeshExtent(const TriangleMesh& mesh, const VoxelizeOptions& options,
                std::uint32_t* width_columns, std::uint32_t* height_columns) {
  float min[3], max[3];
  mesh.Bounds(min, max);
  auto columns = [&](double extent) -> std::uint32_t {
    if (!(options.column_yards > 0.0) || !std::isfinite(extent)) return 0;
    const double n = std::ceil(extent / options.column_yards);
    if (n < 1.0) return mesh.vertices.empty() ? 0 : 1;
    return static_cast<std::uint32_t>(std::min(n, 4294967295.0));
  };
  *width_columns = columns(max[0] - options.origin_x);
  *height_columns = columns(max[2] - options.origin_z);
}

absl::StatusOr<Continent> VoxelizeMesh(const TriangleMesh& mesh, const VoxelizeOptions& options,
                                       ContinentId id, std::uint32_t width_columns,
                                       std::uint32_t height_columns, VoxelizeStats* stats,
                                       const std::function<void(ContinentBuilder&)>& builder_hook) {
  const auto started = std::chrono::steady_clock::now();
  absl::StatusOr<Settings> settings = MakeSettings(options);
  if (!settings.ok()) return settings.status();
  if (absl::Status status = ValidateMesh(mesh, "the mesh"); !status.ok()) return status;
  if (mesh.triangle_count() == 0) {
    return absl::InvalidArgumentError("the mesh has no triangles");
  }
  if (absl::Status status = CheckExtent(mesh, options, width_columns, height_columns);
      !status.ok()) {
    return status;
  }
  VoxelizeStats local;
  local.triangles = mesh.triangle_count();

  // One base height for the whole mesh when its height fits Recast's span range, so every tile
  // quantizes heights alike (and as VoxelizeTiles would, see BaseHeight); per tile otherwise.
  float min[3], max[3];
  mesh.Bounds(min, max);
  std::optional<double> base_y = BaseHeight(min[1], max[1], options.height_step_yards);
  const bool fits = HeightSteps(*base_y, max[1], options.height_step_yards) <= RC_SPAN_MAX_HEIGHT;
  if (!fits) base_y.reset();

  ContinentBuilder builder(id, width_columns, height_columns);
  bool whole = fits && width_columns <= options.whole_mesh_max_columns &&
               height_columns <= options.whole_mesh_max_columns;
  if (whole) {
    HeightfieldJob job;
    job.name = "the mesh";
    job.whole = true;
    job.keep_width = width_columns;
    job.keep_height = height_columns;
    job.base_y = base_y;
    absl::Status status = VoxelizeHeightfield(mesh, nullptr, job, *settings, width_columns,
                                              height_columns, builder, local);
    if (status.code() == absl::StatusCode::kResourceExhausted) {
      whole = false;  // too much for one heightfield (nothing placed yet): tile by tile
    } else if (!status.ok()) {
      return status;
    } else {
      local.heightfields = 1;
      if (options.progress) options.progress(1, 1);
    }
  }
  if (!whole) {
    absl::Status status =
        VoxelizeMeshByTiles(mesh, *settings, width_columns, height_columns, base_y, builder, local);
    if (!status.ok()) return status;
  }
  absl::StatusOr<Continent> continent = Finish(builder, *settings, builder_hook);
  local.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (stats != nullptr) *stats = local;
  return continent;
}

absl::StatusOr<Continent> VoxelizeTiles(
    std::uint32_t tiles_x, std::uint32_t tiles_y,
    const std::function<TriangleMesh(std::uint32_t tx, std::uint32_t ty)>& tile_mesh,
    const VoxelizeOptions& options, ContinentId id, VoxelizeStats* stats,
    const std::function<void(ContinentBuilder&)>& builder_hook) {
  const auto started = std::chrono::steady_clock::now();
  absl::StatusOr<Settings> settings = MakeSettings(options);
  if (!settings.ok()) return settings.status();
  if (tiles_x == 0 || tiles_y == 0 || tiles_x > 256 || tiles_y > 256) {
    return absl::InvalidArgumentError(
        absl::StrCat("tiles must be 1 to 256 along each side (got ", tiles_x, " x ", tiles_y, ")"));
  }
  if (!tile_mesh) return absl::InvalidArgumentError("tile_mesh is not set");
  const std::uint32_t width_columns = tiles_x * kTileColumns;
  const std::uint32_t height_columns = tiles_y * kTileColumns;
  ContinentBuilder builder(id, width_columns, height_columns);
  VoxelizeStats local;
  const std::uint32_t total = tiles_x * tiles_y;
  for (std::uint32_t ty = 0; ty < tiles_y; ++ty) {
    for (std::uint32_t tx = 0; tx < tiles_x; ++tx) {
      if (options.stop.requested()) return BuildStop::Stopped("voxelizing");
      const std::string name = absl::StrCat("tile ", tx, ",", ty);
      const TriangleMesh mesh = tile_mesh(tx, ty);
      if (options.stop.requested()) return BuildStop::Stopped("voxelizing");
      if (absl::Status status = ValidateMesh(mesh, name); !status.ok()) return status;
      local.triangles += mesh.triangle_count();
      HeightfieldJob job;
      job.name = name;
      job.x0 = tx * kTileColumns;
      job.y0 = ty * kTileColumns;
      job.keep_width = job.keep_height = kTileColumns;
      const absl::Status status = VoxelizeHeightfield(mesh, nullptr, job, *settings, width_columns,
                                                      height_columns, builder, local);
      if (!status.ok()) return status;
      ++local.heightfields;
      if (options.progress) options.progress(ty * tiles_x + tx + 1, total);
    }
  }
  absl::StatusOr<Continent> continent = Finish(builder, *settings, builder_hook);
  local.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (stats != nullptr) *stats = local;
  return continent;
}

}  // namespace walk::nav
