#include "nav/demo/demo_world.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "nav/grid/grid_builder.h"

namespace walk::nav {
namespace {

// ---------------------------------------------------------------------------------------------
// Deterministic randomness. Only integer hashing, +, -, *, /, sqrt and floor reach the geometry:
// those are exact (IEEE) on every machine, unlike std:: distributions or sin and exp.

std::uint64_t Mix64(std::uint64_t z) {
  z += 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A seed for one purpose, derived from the world's seed.
std::uint64_t Salt(std::uint64_t seed, std::uint64_t salt) {
  return Mix64(seed ^ Mix64(salt * 0x632BE59BD9B4E019ULL + 1));
}

// splitmix64.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t Next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  double Unit() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double Uniform(double lo, double hi) { return lo + (hi - lo) * Unit(); }
  int Int(int lo, int hi) {  // [lo, hi]
    return lo + static_cast<int>(Next() % static_cast<std::uint64_t>(hi - lo + 1));
  }

 private:
  std::uint64_t state_;
};

double Hash01(std::uint64_t seed, std::int64_t ix, std::int64_t iy) {
  const std::uint64_t h = Mix64(seed ^ (static_cast<std::uint64_t>(ix) * 0x9E3779B97F4A7C15ULL) ^
                                (static_cast<std::uint64_t>(iy) * 0xC2B2AE3D27D4EB4FULL));
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

double Smoothstep(double t) {
  t = std::clamp(t, 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

// Value noise in [-1, 1] with lattice spacing 1, smoothstep-interpolated.
double Noise(std::uint64_t seed, double x, double y) {
  const double fx = std::floor(x), fy = std::floor(y);
  const auto ix = static_cast<std::int64_t>(fx);
  const auto iy = static_cast<std::int64_t>(fy);
  const double sx = Smoothstep(x - fx), sy = Smoothstep(y - fy);
  const double a = Hash01(seed, ix, iy), b = Hash01(seed, ix + 1, iy);
  const double c = Hash01(seed, ix, iy + 1), d = Hash01(seed, ix + 1, iy + 1);
  const double top = a + (b - a) * sx;
  const double bottom = c + (d - c) * sx;
  return 2.0 * (top + (bottom - top) * sy) - 1.0;
}

// ---------------------------------------------------------------------------------------------
// Plane geometry, in yards: x east, y south (the mesh's z).

struct Vec2 {
  double x = 0.0, y = 0.0;
};
Vec2 operator+(Vec2 a, Vec2 b) { return {a.x + b.x, a.y + b.y}; }
Vec2 operator-(Vec2 a, Vec2 b) { return {a.x - b.x, a.y - b.y}; }
Vec2 operator*(Vec2 a, double k) { return {a.x * k, a.y * k}; }
double Dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }
double Length(Vec2 a) { return std::sqrt(Dot(a, a)); }

struct Box {
  double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
  bool Overlaps(const Box& o) const { return x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1; }
  bool Contains(Vec2 p) const { return p.x >= x0 && p.x <= x1 && p.y >= y0 && p.y <= y1; }
  Box Grown(double m) const { return {x0 - m, y0 - m, x1 + m, y1 + m}; }
};

Box BoxAround(Vec2 c, double r) { return {c.x - r, c.y - r, c.x + r, c.y + r}; }

Box BoxOf(const std::vector<Vec2>& points) {
  Box b{points[0].x, points[0].y, points[0].x, points[0].y};
  for (const Vec2& p : points) {
    b.x0 = std::min(b.x0, p.x);
    b.y0 = std::min(b.y0, p.y);
    b.x1 = std::max(b.x1, p.x);
    b.y1 = std::max(b.y1, p.y);
  }
  return b;
}

// Distance from p to segment ab; *t receives the nearest point's parameter in [0, 1].
double SegmentDistance(Vec2 p, Vec2 a, Vec2 b, double* t) {
  const Vec2 ab = b - a;
  const double len2 = Dot(ab, ab);
  double u = len2 > 0.0 ? Dot(p - a, ab) / len2 : 0.0;
  u = std::clamp(u, 0.0, 1.0);
  *t = u;
  return Length(p - (a + ab * u));
}

// The eight directions, east first, counter-clockwise in the map's terms.
constexpr double kRootHalf = 0.70710678118654752440;
constexpr std::array<Vec2, 8> kEightWays = {{{1.0, 0.0},
                                             {kRootHalf, kRootHalf},
                                             {0.0, 1.0},
                                             {-kRootHalf, kRootHalf},
                                             {-1.0, 0.0},
                                             {-kRootHalf, -kRootHalf},
                                             {0.0, -1.0},
                                             {kRootHalf, -kRootHalf}}};

// ---------------------------------------------------------------------------------------------
// Sizes of things, yards unless named otherwise.

constexpr int kMarginColumns = 4;    // geometry made beyond each side of a tile
constexpr double kInset = 0.04;      // quads stop this short of column boundaries
constexpr double kBankRise = 0.3;    // the bank above the water's edge
constexpr double kMaxBlend = 250.0;  // widest blend of the terrain toward a feature
constexpr double kMaxRiverHalfWidth = 9.0;
constexpr double kRoadHalfWidth = 3.0;
constexpr double kDeckHalfWidth = 3.6;
constexpr double kDeckClearance = 3.0;  // deck above the highest water under it
constexpr double kRampSlope = 0.16;     // 0.33 yards a column: walked
constexpr double kFloorHeight = 3.2;
constexpr double kStepRise = 0.4;  // kFloorHeight / kStepsPerFlight
constexpr int kStepsPerFlight = 8;
constexpr double kDoorHeight = 2.7;
constexpr double kGroundFloorRise = 0.3;  // a building's ground floor above the town
constexpr double kTreeHeight = 7.0;
constexpr double kMesaShape = 0.18;  // a mesa's radius varies by this fraction
constexpr double kLakeShape = 0.22;

// Blends height h toward `target` by how far beyond a feature's edge the point lies: the target
// at the edge and inside, h from `width` out, where the width grows with the difference so no
// blended slope is steeper than a quarter (about 14 degrees: walked).
double BlendToward(double h, double target, double edge_distance) {
  if (edge_distance <= 0.0) return target;
  const double width = std::clamp(12.0 + 6.0 * std::abs(h - target), 12.0, kMaxBlend);
  if (edge_distance >= width) return h;
  return target + (h - target) * Smoothstep(edge_distance / width);
}

// ---------------------------------------------------------------------------------------------
// The plan: features laid out once for the whole world, as small vectors and polylines.

struct River {
  double x0 = 0.0;  // points[i].x = x0 + i * step: a river is a function of x
  double step = 12.0;
  std::vector<Vec2> points;   // west to east (the way it flows)
  std::vector<double> level;  // water level at each point, never rising downstream
  std::vector<double> half_width;
  double y_min = 0.0, y_max = 0.0;
};

struct Lake {
  Vec2 center;
  double radius = 0.0;
  double level = 0.0;
  std::uint64_t shape = 0;
};

struct Town {
  Vec2 center;
  double radius = 0.0;
  double level = 0.0;
  int faction = 0;  // 0: A, 1: B
};

struct Road {
  std::vector<Vec2> points;
  std::vector<double> arc;  // yards from points[0]
};

struct Bridge {
  std::vector<Vec2> points;  // the road from before one ramp to after the other, every 2 yards
  double deck_from = 0.0;    // arc (from points[0]) where the deck starts and ends
  double deck_to = 0.0;
  double ramp = 0.0;  // length of each ramp
  double deck_level = 0.0;
  Box box;  // everything the bridge touches
};

// A building on the column grid. Local coordinates: u along the door's wall (width columns),
// v away from it (depth columns); the door is in the wall at v = 0.
struct Building {
  int town = 0;
  std::int64_t x0 = 0, y0 = 0;  // first column of the footprint
  int width = 0, depth = 0;
  int orient = 0;  // the door faces: 0 -y, 1 +y, 2 -x, 3 +x
  int floors = 0;
  double base = 0.0;  // ground floor height
  bool lift = false;  // a lift from the ground floor to the top floor at (width - 2, 1)
  std::uint16_t zone = 0;
  std::uint8_t hub = 0;

  int footprint_x() const { return orient < 2 ? width : depth; }
  int footprint_y() const { return orient < 2 ? depth : width; }
};

struct Mesa {
  Vec2 center;
  double radius = 0.0;
  double cliff = 0.0;
  std::uint64_t shape = 0;
  int dx = 0, dy = 0;                   // the lift's side
  std::int64_t lift_x = 0, lift_y = 0;  // the lift's column, just outside the cliff
  double platform = 0.0;                // the balcony's height (over the lift column and the next)
  double lift_foot = 0.0;               // the ground's height in the lift column
};

struct Crag {
  Vec2 center;
  double radius = 0.0;
  double height = 0.0;
};

// Which features a tile (or a query) must look at.
struct Context {
  std::vector<std::uint32_t> rivers, lakes, towns, bridges, crags, mesas, buildings;
};

// Zone names: a word from each list.
constexpr std::array<const char*, 24> kZoneFirst = {
    "Amber",  "Ashen", "Briar", "Cinder",  "Dusk",    "Elder", "Frost",  "Gloam",
    "Hollow", "Iron",  "Jade",  "Kestrel", "Lantern", "Mist",  "North",  "Oak",
    "Pale",   "Quill", "Raven", "Silver",  "Thorn",   "Umber", "Vesper", "Willow"};
constexpr std::array<const char*, 16> kZoneSecond = {
    "Vale",  "Reach",   "Fields", "Hills",     "Marsh", "Wood", "Downs",    "Fen",
    "Heath", "Barrens", "Glen",   "Highlands", "Shore", "Moor", "Crossing", "Steppe"};

class Plan {
 public:
  static absl::StatusOr<std::unique_ptr<Plan>> Make(const DemoOptions& options);

  TriangleMesh TileMesh(std::uint32_t tx, std::uint32_t ty) const;
  void AddLifts(ContinentBuilder& builder) const;
  const std::vector<Zone>& zones() const { return zones_; }
  const DemoLandmarks& landmarks() const { return landmarks_; }

 private:
  explicit Plan(const DemoOptions& options);
  absl::Status Lay();
  void LayRivers();
  void LayLakes();
  void LayTowns();
  void LayRoads();
  void IndexRoads();
  void LayBridges();
  void LayBuildings();
  void LayMesas();
  void LayCrags();
  void LayZones();
  absl::Status FindLandmarks();

  // Terrain.
  double BaseHeight(Vec2 p) const;
  // The ground's height: the noise; towns flattened; water's valleys; bridges' ramps; crags. Water
  // comes after towns so that every bank meets its water at the bank's height.
  double Height(Vec2 p, const Context& c) const;
  double Embankment(const Bridge& b, Vec2 p) const;
  struct RiverHit {
    double distance = 0.0, level = 0.0, half_width = 0.0;
  };
  bool NearestOnRiver(const River& r, Vec2 p, double limit, RiverHit* hit) const;
  double LakeEdgeDistance(const Lake& lake, Vec2 p) const;
  bool MesaInside(const Mesa& m, Vec2 p) const;
  bool WaterAt(Vec2 p, const Context& c, double* level) const;
  // Distance to the nearest water's edge (negative inside), at most `limit`; *level (when given)
  // receives that water's level, and is left alone when none is within the limit.
  double WaterDistance(Vec2 p, double limit, double* level = nullptr) const;
  double RoadDistance(Vec2 p, double limit) const;
  double RiverYAt(const River& r, double x) const;
  std::uint16_t ZoneAt(Vec2 p) const;
  bool ForestAt(Vec2 p) const;
  Context ContextFor(const Box& box) const;
  Context Everything() const;

  // Columns.
  Vec2 ColumnCentre(std::int64_t x, std::int64_t y) const {
    return {(static_cast<double>(x) + 0.5) * cs_, (static_cast<double>(y) + 0.5) * cs_};
  }
  bool InFootprint(const Building& b, std::int64_t x, std::int64_t y) const {
    return x >= b.x0 && y >= b.y0 && x < b.x0 + b.footprint_x() && y < b.y0 + b.footprint_y();
  }
  // The tag of open ground (or a mesa top) at a column centre, and whether a tree stands there.
  TriangleTag GroundTag(std::int64_t x, std::int64_t y, Vec2 centre, const Context& c,
                        bool* tree) const;
  // A column one can stand on in the open: not water, building, mesa, tree or crag; flat.
  bool PlainGround(std::int64_t x, std::int64_t y, const Context& c, double* height) const;

  // Buildings: local (u, v) in columns to yards.
  Vec2 Local(const Building& b, double u, double v) const;
  void LocalColumn(const Building& b, int u, int v, std::int64_t* x, std::int64_t* y) const;
  void EmitBuilding(const Building& b, TriangleMesh& mesh) const;
  void EmitBridge(const Bridge& b, TriangleMesh& mesh) const;

  DemoOptions options_;
  double cs_ = 0.0;
  std::int64_t columns_x_ = 0, columns_y_ = 0;
  double width_ = 0.0, height_ = 0.0;  // yards

  std::uint64_t seed_base_[3] = {};
  std::uint64_t seed_forest_[2] = {};
  std::uint64_t seed_tree_ = 0;
  std::uint64_t seed_warp_[2] = {};

  std::vector<River> rivers_;
  int faction_river_ = 0;
  std::vector<Lake> lakes_;
  std::vector<Town> towns_;
  std::vector<Road> roads_;
  std::vector<Bridge> bridges_;
  std::vector<Building> buildings_;
  std::vector<Mesa> mesas_;
  std::vector<Crag> crags_;

  // Road segments by 64-yard bucket: (road, segment) pairs.
  static constexpr double kBucket = 64.0;
  double bucket_x0_ = 0.0, bucket_y0_ = 0.0;
  std::int64_t buckets_x_ = 0, buckets_y_ = 0;
  std::vector<std::uint32_t> bucket_first_;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> bucket_items_;

  // Zones: one site per cell of a zones_x_ x zones_y_ grid, id 1 + iy * zones_x_ + ix.
  int zones_x_ = 0, zones_y_ = 0;
  double zone_w_ = 0.0, zone_h_ = 0.0;
  std::vector<Vec2> zone_sites_;
  std::vector<Zone> zones_;

  DemoLandmarks landmarks_;
};

Plan::Plan(const DemoOptions& options) : options_(options) {
  cs_ = options.column_yards;
  columns_x_ = std::int64_t{options.tiles_x} * kTileColumns;
  columns_y_ = std::int64_t{options.tiles_y} * kTileColumns;
  width_ = static_cast<double>(columns_x_) * cs_;
  height_ = static_cast<double>(columns_y_) * cs_;
  for (int i = 0; i < 3; ++i) seed_base_[i] = Salt(options.seed, 1 + i);
  seed_forest_[0] = Salt(options.seed, 10);
  seed_forest_[1] = Salt(options.seed, 11);
  seed_tree_ = Salt(options.seed, 12);
  seed_warp_[0] = Salt(options.seed, 20);
  seed_warp_[1] = Salt(options.seed, 21);
}

absl::StatusOr<std::unique_ptr<Plan>> Plan::Make(const DemoOptions& options) {
  if (options.tiles_x < 1 || options.tiles_x > 256) {
    return absl::InvalidArgumentError(
        absl::StrCat("DemoOptions.tiles_x must be 1 to 256 (got ", options.tiles_x, ")"));
  }
  if (options.tiles_y < 1 || options.tiles_y > 256) {
    return absl::InvalidArgumentError(
        absl::StrCat("DemoOptions.tiles_y must be 1 to 256 (got ", options.tiles_y, ")"));
  }
  if (!std::isfinite(options.column_yards) || options.column_yards < 0.5 ||
      options.column_yards > 8.0) {
    return absl::InvalidArgumentError(
        absl::StrCat("DemoOptions.column_yards must be 0.5 to 8 (got ", options.column_yards, ")"));
  }
  std::unique_ptr<Plan> plan(new Plan(options));
  if (absl::Status status = plan->Lay(); !status.ok()) return status;
  return plan;
}

absl::Status Plan::Lay() {
  LayRivers();
  LayLakes();
  LayTowns();
  LayRoads();
  IndexRoads();
  LayBridges();
  LayBuildings();
  LayMesas();
  LayCrags();
  LayZones();
  return FindLandmarks();
}

// ---------------------------------------------------------------------------------------------
// Terrain.

double Plan::BaseHeight(Vec2 p) const {
  return 20.0 + 16.0 * Noise(seed_base_[0], p.x / 600.0, p.y / 600.0) +
         5.0 * Noise(seed_base_[1], p.x / 180.0, p.y / 180.0) +
         1.2 * Noise(seed_base_[2], p.x / 50.0, p.y / 50.0);
}

bool Plan::NearestOnRiver(const River& r, Vec2 p, double limit, RiverHit* hit) const {
  const auto n = static_cast<std::int64_t>(r.points.size());
  if (p.y < r.y_min - limit || p.y > r.y_max + limit) return false;
  double best = limit;
  bool found = false;
  std::int64_t i0 = static_cast<std::int64_t>(std::floor((p.x - r.x0) / r.step));
  i0 = std::clamp<std::int64_t>(i0, 0, n - 2);
  auto test = [&](std::int64_t i) {
    double t = 0.0;
    const auto k = static_cast<std::size_t>(i);
    const double d = SegmentDistance(p, r.points[k], r.points[k + 1], &t);
    if (d < best) {
      best = d;
      found = true;
      hit->distance = d;
      hit->level = r.level[k] + (r.level[k + 1] - r.level[k]) * t;
      hit->half_width = r.half_width[k] + (r.half_width[k + 1] - r.half_width[k]) * t;
    }
  };
  for (std::int64_t i = i0; i >= 0; --i) {
    if (p.x - r.points[static_cast<std::size_t>(i + 1)].x > best) break;
    test(i);
  }
  for (std::int64_t i = i0 + 1; i + 1 < n; ++i) {
    if (r.points[static_cast<std::size_t>(i)].x - p.x > best) break;
    test(i);
  }
  return found;
}

double Plan::RiverYAt(const River& r, double x) const {
  const auto n = static_cast<std::int64_t>(r.points.size());
  const double f = (x - r.x0) / r.step;
  const std::int64_t i =
      std::clamp<std::int64_t>(static_cast<std::int64_t>(std::floor(f)), 0, n - 2);
  const double t = std::clamp(f - static_cast<double>(i), 0.0, 1.0);
  const Vec2 a = r.points[static_cast<std::size_t>(i)];
  const Vec2 b = r.points[static_cast<std::size_t>(i + 1)];
  return a.y + (b.y - a.y) * t;
}

double Plan::LakeEdgeDistance(const Lake& lake, Vec2 p) const {
  const Vec2 d = p - lake.center;
  const double len = Length(d);
  if (len < 1e-9) return -lake.radius;
  // Far away the shape does not matter, only that the point is beyond any blend.
  if (len > lake.radius * (1.0 + kLakeShape) + kMaxBlend)
    return len - lake.radius * (1.0 + kLakeShape);
  const double r = lake.radius * (1.0 + kLakeShape * Noise(lake.shape, 1.6 * d.x / len + 8.0,
                                                           1.6 * d.y / len + 8.0));
  return len - r;
}

bool Plan::MesaInside(const Mesa& m, Vec2 p) const {
  const Vec2 d = p - m.center;
  const double len = Length(d);
  if (len < 1e-9) return true;
  const double r =
      m.radius * (1.0 + kMesaShape * Noise(m.shape, 1.6 * d.x / len + 3.0, 1.6 * d.y / len + 3.0));
  return len < r;
}

double Plan::Embankment(const Bridge& b, Vec2 p) const {
  constexpr double kNone = -std::numeric_limits<double>::infinity();
  if (!b.box.Contains(p)) return kNone;
  double best = std::numeric_limits<double>::infinity(), arc = 0.0;
  for (std::size_t i = 0; i + 1 < b.points.size(); ++i) {
    double t = 0.0;
    const double d = SegmentDistance(p, b.points[i], b.points[i + 1], &t);
    if (d < best) {
      best = d;
      arc = (static_cast<double>(i) + t) * 2.0;
    }
  }
  const double along = std::max({0.0, b.deck_from - arc, arc - b.deck_to});
  if (along > b.ramp) return kNone;
  const double top = b.deck_level - kRampSlope * along;
  const double side = best - (kRoadHalfWidth + 1.0);
  return side <= 0.0 ? top : top - 0.4 * side;
}

double Plan::Height(Vec2 p, const Context& c) const {
  double h = BaseHeight(p);
  for (std::uint32_t i : c.towns) {
    const Town& town = towns_[i];
    h = BlendToward(h, town.level, Length(p - town.center) - town.radius);
  }
  for (std::uint32_t i : c.rivers) {
    RiverHit hit;
    if (NearestOnRiver(rivers_[i], p, kMaxRiverHalfWidth + kMaxBlend, &hit)) {
      h = BlendToward(h, hit.level + kBankRise, hit.distance - hit.half_width);
    }
  }
  for (std::uint32_t i : c.lakes) {
    const Lake& lake = lakes_[i];
    h = BlendToward(h, lake.level + kBankRise, LakeEdgeDistance(lake, p));
  }
  for (std::uint32_t i : c.bridges) h = std::max(h, Embankment(bridges_[i], p));
  for (std::uint32_t i : c.crags) {
    const Crag& crag = crags_[i];
    const double d = Length(p - crag.center);
    if (d < crag.radius) h += crag.height * (1.0 - d / crag.radius);
  }
  return h;
}

bool Plan::WaterAt(Vec2 p, const Context& c, double* level) const {
  for (std::uint32_t i : c.lakes) {
    if (LakeEdgeDistance(lakes_[i], p) < 0.0) {
      *level = lakes_[i].level;
      return true;
    }
  }
  for (std::uint32_t i : c.rivers) {
    RiverHit hit;
    if (NearestOnRiver(rivers_[i], p, kMaxRiverHalfWidth, &hit) && hit.distance < hit.half_width) {
      *level = hit.level;
      return true;
    }
  }
  return false;
}

double Plan::WaterDistance(Vec2 p, double limit, double* level) const {
  double best = limit;
  for (const River& r : rivers_) {
    RiverHit hit;
    if (NearestOnRiver(r, p, best + kMaxRiverHalfWidth, &hit) &&
        hit.distance - hit.half_width < best) {
      best = hit.distance - hit.half_width;
      if (level != nullptr) *level = hit.level;
    }
  }
  for (const Lake& lake : lakes_) {
    const double d = LakeEdgeDistance(lake, p);
    if (d < best) {
      best = d;
      if (level != nullptr) *level = lake.level;
    }
  }
  return best;
}

double Plan::RoadDistance(Vec2 p, double limit) const {
  if (buckets_x_ == 0) return limit;
  double best = limit;
  const auto bx0 = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::floor((p.x - limit - bucket_x0_) / kBucket)), 0,
      buckets_x_ - 1);
  const auto bx1 = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::floor((p.x + limit - bucket_x0_) / kBucket)), 0,
      buckets_x_ - 1);
  const auto by0 = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::floor((p.y - limit - bucket_y0_) / kBucket)), 0,
      buckets_y_ - 1);
  const auto by1 = std::clamp<std::int64_t>(
      static_cast<std::int64_t>(std::floor((p.y + limit - bucket_y0_) / kBucket)), 0,
      buckets_y_ - 1);
  for (std::int64_t by = by0; by <= by1; ++by) {
    for (std::int64_t bx = bx0; bx <= bx1; ++bx) {
      const auto bucket = static_cast<std::size_t>(by * buckets_x_ + bx);
      for (std::uint32_t k = bucket_first_[bucket]; k < bucket_first_[bucket + 1]; ++k) {
        const auto [road, segment] = bucket_items_[k];
        const Road& r = roads_[road];
        double t = 0.0;
        best = std::min(best, SegmentDistance(p, r.points[segment], r.points[segment + 1], &t));
      }
    }
  }
  return best;
}

std::uint16_t Plan::ZoneAt(Vec2 p) const {
  const Vec2 q{p.x + 0.12 * zone_w_ * Noise(seed_warp_[0], p.x / 350.0, p.y / 350.0),
               p.y + 0.12 * zone_h_ * Noise(seed_warp_[1], p.x / 350.0, p.y / 350.0)};
  const int ix = std::clamp(static_cast<int>(std::floor(q.x / zone_w_)), 0, zones_x_ - 1);
  const int iy = std::clamp(static_cast<int>(std::floor(q.y / zone_h_)), 0, zones_y_ - 1);
  double best = std::numeric_limits<double>::infinity();
  int id = 0;
  for (int jy = std::max(0, iy - 1); jy <= std::min(zones_y_ - 1, iy + 1); ++jy) {
    for (int jx = std::max(0, ix - 1); jx <= std::min(zones_x_ - 1, ix + 1); ++jx) {
      const int k = jy * zones_x_ + jx;
      const Vec2 d = q - zone_sites_[static_cast<std::size_t>(k)];
      const double d2 = Dot(d, d);
      if (d2 < best) {
        best = d2;
        id = k + 1;
      }
    }
  }
  return static_cast<std::uint16_t>(id);
}

bool Plan::ForestAt(Vec2 p) const {
  const double f = 0.7 * Noise(seed_forest_[0], p.x / 260.0, p.y / 260.0) +
                   0.3 * Noise(seed_forest_[1], p.x / 90.0, p.y / 90.0);
  return f > 0.18;
}

Context Plan::ContextFor(const Box& box) const {
  Context c;
  for (std::uint32_t i = 0; i < rivers_.size(); ++i) {
    const River& r = rivers_[i];
    const double reach = kMaxRiverHalfWidth + kMaxBlend;
    if (r.y_min - reach <= box.y1 && r.y_max + reach >= box.y0) c.rivers.push_back(i);
  }
  for (std::uint32_t i = 0; i < lakes_.size(); ++i) {
    const Lake& l = lakes_[i];
    if (BoxAround(l.center, l.radius * (1.0 + kLakeShape) + kMaxBlend).Overlaps(box)) {
      c.lakes.push_back(i);
    }
  }
  for (std::uint32_t i = 0; i < towns_.size(); ++i) {
    if (BoxAround(towns_[i].center, towns_[i].radius + kMaxBlend).Overlaps(box))
      c.towns.push_back(i);
  }
  for (std::uint32_t i = 0; i < bridges_.size(); ++i) {
    if (bridges_[i].box.Overlaps(box)) c.bridges.push_back(i);
  }
  for (std::uint32_t i = 0; i < crags_.size(); ++i) {
    if (BoxAround(crags_[i].center, crags_[i].radius + 1.0).Overlaps(box)) c.crags.push_back(i);
  }
  for (std::uint32_t i = 0; i < mesas_.size(); ++i) {
    const Mesa& m = mesas_[i];
    if (BoxAround(m.center, m.radius * (1.0 + kMesaShape) + 4.0 * cs_).Overlaps(box)) {
      c.mesas.push_back(i);
    }
  }
  for (std::uint32_t i = 0; i < buildings_.size(); ++i) {
    const Building& b = buildings_[i];
    const Box footprint{static_cast<double>(b.x0) * cs_, static_cast<double>(b.y0) * cs_,
                        static_cast<double>(b.x0 + b.footprint_x()) * cs_,
                        static_cast<double>(b.y0 + b.footprint_y()) * cs_};
    if (footprint.Grown(cs_).Overlaps(box)) c.buildings.push_back(i);
  }
  return c;
}

Context Plan::Everything() const { return ContextFor(Box{-1e12, -1e12, 1e12, 1e12}); }

// ---------------------------------------------------------------------------------------------
// Laying out the world.

void Plan::LayRivers() {
  const int count =
      std::clamp<int>(static_cast<int>((options_.tiles_x + options_.tiles_y) / 6), 1, 24);
  const double band = height_ / count;
  faction_river_ = count / 2;
  for (int i = 0; i < count; ++i) {
    Rng rng(Salt(options_.seed, 100 + static_cast<std::uint64_t>(i)));
    River r;
    const double y_base = band * (i + 0.5) + band * rng.Uniform(-0.08, 0.08);
    const double amplitude = std::min(0.2 * band, 220.0);
    const double wave = rng.Uniform(240.0, 340.0);
    const std::uint64_t s1 = rng.Next(), s2 = rng.Next(), sw = rng.Next();
    r.x0 = -36.0;
    r.step = 12.0;
    const auto n = static_cast<std::size_t>(std::ceil((width_ + 72.0) / r.step)) + 1;
    for (std::size_t k = 0; k < n; ++k) {
      const double x = r.x0 + static_cast<double>(k) * r.step;
      const double y = y_base + amplitude * (0.75 * Noise(s1, x / wave, 0.5) +
                                             0.25 * Noise(s2, 3.0 * x / wave, 0.5));
      r.points.push_back({x, y});
      r.half_width.push_back(6.0 + 3.0 * (0.5 + 0.5 * Noise(sw, x / 400.0, 0.5)));
    }
    // Levels: the ground along the river, sunk a yard, smoothed, then never rising downstream
    // and falling at most half a yard per 12 (0.09 yards a column: swum).
    std::vector<double> raw(n), smooth(n);
    for (std::size_t k = 0; k < n; ++k) raw[k] = BaseHeight(r.points[k]) - 1.0;
    for (std::size_t k = 0; k < n; ++k) {
      double sum = 0.0;
      int m = 0;
      for (std::size_t j = (k >= 5 ? k - 5 : 0); j <= std::min(n - 1, k + 5); ++j, ++m)
        sum += raw[j];
      smooth[k] = sum / m;
    }
    r.level.resize(n);
    r.level[0] = smooth[0];
    for (std::size_t k = 1; k < n; ++k) {
      r.level[k] = std::clamp(smooth[k], r.level[k - 1] - 0.5, r.level[k - 1]);
    }
    r.y_min = r.y_max = r.points[0].y;
    for (const Vec2& p : r.points) {
      r.y_min = std::min(r.y_min, p.y);
      r.y_max = std::max(r.y_max, p.y);
    }
    rivers_.push_back(std::move(r));
  }
}

void Plan::LayLakes() {
  const int count =
      std::clamp<int>(static_cast<int>(options_.tiles_x * options_.tiles_y / 16), 1, 200);
  for (int k = 0; k < count; ++k) {
    Rng rng(Salt(options_.seed, 200 + static_cast<std::uint64_t>(k)));
    River& river = rivers_[static_cast<std::size_t>(k) % rivers_.size()];
    const std::size_t n = river.points.size();
    for (int attempt = 0; attempt < 40; ++attempt) {
      const double f = k == 0 ? rng.Uniform(0.1, 0.2) : rng.Uniform(0.08, 0.92);
      const auto index = static_cast<std::size_t>(f * static_cast<double>(n - 1));
      Lake lake;
      lake.center = river.points[index];
      lake.radius = rng.Uniform(40.0, 65.0);
      lake.shape = rng.Next();
      bool clear = true;
      for (const Lake& other : lakes_) {
        if (Length(other.center - lake.center) < lake.radius + other.radius + 150.0) clear = false;
      }
      if (!clear) continue;
      lake.level = river.level[index];
      // The river is flat through the lake; then its levels are eased in and out again.
      for (std::size_t j = 0; j < n; ++j) {
        if (Length(river.points[j] - lake.center) < lake.radius * 1.3) river.level[j] = lake.level;
      }
      for (std::size_t j = n - 1; j > 0; --j) {
        river.level[j - 1] = std::min(river.level[j - 1], river.level[j] + 0.5);
      }
      for (std::size_t j = 1; j < n; ++j) {
        river.level[j] = std::max(river.level[j], river.level[j - 1] - 0.5);
      }
      lakes_.push_back(lake);
      break;
    }
  }
}

void Plan::LayTowns() {
  const int count =
      std::clamp<int>(static_cast<int>(options_.tiles_x * options_.tiles_y / 3), 4, 400);
  const double spacing0 = 0.55 * std::sqrt(width_ * height_ / count);
  const River& split = rivers_[static_cast<std::size_t>(faction_river_)];
  for (int k = 0; k < count; ++k) {
    Rng rng(Salt(options_.seed, 300 + static_cast<std::uint64_t>(k)));
    const int side = k % 2;  // faction A north of the faction river, B south
    Town best;
    double best_penalty = std::numeric_limits<double>::infinity();
    double spacing = spacing0;
    for (int attempt = 0; attempt < 600 && best_penalty > 0.0; ++attempt) {
      if (attempt > 0 && attempt % 60 == 0) spacing *= 0.85;
      Town t;
      t.radius = rng.Uniform(48.0, 60.0);
      const double margin = t.radius + 45.0;
      t.center = {rng.Uniform(margin, std::max(margin, width_ - margin)),
                  rng.Uniform(margin, std::max(margin, height_ - margin))};
      t.faction = side;
      t.level = BaseHeight(t.center);
      double penalty = 0.0;
      const bool north = t.center.y < RiverYAt(split, t.center.x);
      if (north != (side == 0)) penalty += 1e6;
      // Far enough from water that the valley toward it (BlendToward's width) stays outside.
      const double reach = t.radius + kMaxBlend + 20.0;
      double level = t.level;
      const double edge = WaterDistance(t.center, reach, &level);
      const double valley = std::min(12.0 + 6.0 * std::abs(t.level - level - kBankRise), kMaxBlend);
      penalty += std::max(0.0, t.radius + 20.0 + valley - edge);
      for (const Town& other : towns_) {
        penalty += std::max(0.0, spacing - Length(other.center - t.center));
      }
      if (penalty < best_penalty) {
        best_penalty = penalty;
        best = t;
      }
    }
    towns_.push_back(best);
  }
}

void Plan::LayRoads() {
  // A minimum spanning tree over the towns (Prim, ties to the lower index).
  const std::size_t n = towns_.size();
  std::vector<bool> in_tree(n, false);
  std::vector<double> best(n, std::numeric_limits<double>::infinity());
  std::vector<std::size_t> parent(n, 0);
  best[0] = 0.0;
  for (std::size_t round = 0; round < n; ++round) {
    std::size_t u = n;
    for (std::size_t i = 0; i < n; ++i) {
      if (!in_tree[i] && (u == n || best[i] < best[u])) u = i;
    }
    in_tree[u] = true;
    if (round > 0) {
      const Vec2 a = towns_[parent[u]].center, b = towns_[u].center;
      Rng rng(Salt(options_.seed, 1000 + static_cast<std::uint64_t>(u)));
      const std::uint64_t wiggle = rng.Next(), wiggle2 = rng.Next();
      const double length = Length(b - a);
      const Vec2 along = (b - a) * (1.0 / length);
      const Vec2 across{-along.y, along.x};
      const double amplitude = std::min(0.18 * length, 90.0);
      const auto steps = static_cast<int>(std::max(2.0, std::ceil(length / 6.0)));
      Road road;
      for (int s = 0; s <= steps; ++s) {
        const double t = static_cast<double>(s) / steps;
        const double sway = amplitude * 4.0 * t * (1.0 - t) *
                            (0.75 * Noise(wiggle, t * length / 170.0, 0.5) +
                             0.25 * Noise(wiggle2, t * length / 60.0, 0.5));
        Vec2 p = a + (b - a) * t + across * sway;
        p.x = std::clamp(p.x, 8.0, width_ - 8.0);
        p.y = std::clamp(p.y, 8.0, height_ - 8.0);
        road.points.push_back(p);
      }
      road.arc.push_back(0.0);
      for (std::size_t i = 1; i < road.points.size(); ++i) {
        road.arc.push_back(road.arc.back() + Length(road.points[i] - road.points[i - 1]));
      }
      roads_.push_back(std::move(road));
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (in_tree[i]) continue;
      const double d = Length(towns_[i].center - towns_[u].center);
      if (d < best[i]) {
        best[i] = d;
        parent[i] = u;
      }
    }
  }
}

void Plan::IndexRoads() {
  bucket_x0_ = -2.0 * kBucket;
  bucket_y0_ = -2.0 * kBucket;
  buckets_x_ = static_cast<std::int64_t>(std::ceil((width_ + 4.0 * kBucket) / kBucket));
  buckets_y_ = static_cast<std::int64_t>(std::ceil((height_ + 4.0 * kBucket) / kBucket));
  const auto total = static_cast<std::size_t>(buckets_x_ * buckets_y_);
  std::vector<std::uint32_t> counts(total + 1, 0);
  auto each = [&](auto&& visit) {
    for (std::uint32_t r = 0; r < roads_.size(); ++r) {
      const Road& road = roads_[r];
      for (std::uint32_t s = 0; s + 1 < road.points.size(); ++s) {
        const Box b = BoxOf({road.points[s], road.points[s + 1]}).Grown(1.0);
        const auto bx0 = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::floor((b.x0 - bucket_x0_) / kBucket)), 0,
            buckets_x_ - 1);
        const auto bx1 = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::floor((b.x1 - bucket_x0_) / kBucket)), 0,
            buckets_x_ - 1);
        const auto by0 = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::floor((b.y0 - bucket_y0_) / kBucket)), 0,
            buckets_y_ - 1);
        const auto by1 = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::floor((b.y1 - bucket_y0_) / kBucket)), 0,
            buckets_y_ - 1);
        for (std::int64_t by = by0; by <= by1; ++by) {
          for (std::int64_t bx = bx0; bx <= bx1; ++bx) {
            visit(static_cast<std::size_t>(by * buckets_x_ + bx), r, s);
          }
        }
      }
    }
  };
  each([&](std::size_t bucket, std::uint32_t, std::uint32_t) { ++counts[bucket + 1]; });
  for (std::size_t i = 0; i < total; ++i) counts[i + 1] += counts[i];
  bucket_first_ = counts;
  bucket_items_.resize(counts[total]);
  std::vector<std::uint32_t> next(counts.begin(), counts.end() - 1);
  each([&](std::size_t bucket, std::uint32_t r, std::uint32_t s) {
    bucket_items_[next[bucket]++] = {r, s};
  });
}

void Plan::LayBridges() {
  Context water;
  for (std::uint32_t i = 0; i < rivers_.size(); ++i) water.rivers.push_back(i);
  for (std::uint32_t i = 0; i < lakes_.size(); ++i) water.lakes.push_back(i);
  for (const Road& road : roads_) {
    const double length = road.arc.back();
    auto point_at = [&](double s) {
      s = std::clamp(s, 0.0, length);
      const auto it = std::upper_bound(road.arc.begin(), road.arc.end(), s);
      std::size_t i = static_cast<std::size_t>(it - road.arc.begin());
      i = std::clamp<std::size_t>(i, 1, road.points.size() - 1);
      const double seg = road.arc[i] - road.arc[i - 1];
      const double t = seg > 0.0 ? (s - road.arc[i - 1]) / seg : 0.0;
      return road.points[i - 1] + (road.points[i] - road.points[i - 1]) * t;
    };
    // Stretches of the road over water (or within 1.5 yards of it), a yard at a time.
    struct Wet {
      double from, to, low, high;
      bool water;
    };
    std::vector<Wet> stretches;
    const auto samples = static_cast<std::int64_t>(std::floor(length));
    for (std::int64_t k = 0; k <= samples; ++k) {
      const double s = static_cast<double>(k);
      const Vec2 p = point_at(s);
      if (WaterDistance(p, 2.0) >= 1.5) continue;
      double level = 0.0;
      const bool in = WaterAt(p, water, &level);
      if (!stretches.empty() && s - stretches.back().to <= 15.0) {
        Wet& w = stretches.back();
        w.to = s;
        if (in) {
          w.low = w.water ? std::min(w.low, level) : level;
          w.high = w.water ? std::max(w.high, level) : level;
          w.water = true;
        }
      } else {
        stretches.push_back({s, s, level, level, in});
      }
    }
    for (const Wet& w : stretches) {
      if (!w.water) continue;
      Bridge b;
      b.deck_level = w.high + kDeckClearance;
      b.ramp = (b.deck_level - (w.low + kBankRise)) / kRampSlope + 2.0;
      const double deck_from = w.from - 2.0, deck_to = w.to + 2.0;
      const double start = deck_from - b.ramp - 6.0, end = deck_to + b.ramp + 6.0;
      const auto count = static_cast<int>(std::ceil((end - start) / 2.0));
      for (int k = 0; k <= count; ++k) b.points.push_back(point_at(start + 2.0 * k));
      // point_at clamps to the road: arcs of points before the road's start collapse onto it,
      // which only shortens a ramp that would run into a town anyway.
      b.deck_from = deck_from - start;
      b.deck_to = deck_to - start;
      b.box = BoxOf(b.points).Grown(kDeckHalfWidth + kRoadHalfWidth + 1.0 +
                                    (kDeckClearance + 1.0) / 0.4);
      bridges_.push_back(std::move(b));
    }
  }
}

Vec2 Plan::Local(const Building& b, double u, double v) const {
  double x = 0.0, y = 0.0;
  switch (b.orient) {
    case 0:
      x = u;
      y = v;
      break;
    case 1:
      x = u;
      y = b.depth - v;
      break;
    case 2:
      x = v;
      y = u;
      break;
    default:
      x = b.depth - v;
      y = u;
      break;
  }
  return {(static_cast<double>(b.x0) + x) * cs_, (static_cast<double>(b.y0) + y) * cs_};
}

void Plan::LocalColumn(const Building& b, int u, int v, std::int64_t* x, std::int64_t* y) const {
  const Vec2 p = Local(b, u + 0.5, v + 0.5);
  *x = static_cast<std::int64_t>(std::floor(p.x / cs_));
  *y = static_cast<std::int64_t>(std::floor(p.y / cs_));
}

void Plan::LayBuildings() {
  struct Spec {
    int width, depth, floors;
  };
  constexpr std::array<Spec, 3> kSpecs = {{{13, 10, 3}, {12, 7, 2}, {12, 7, 2}}};
  constexpr std::array<double, 5> kRadii = {0.42, 0.5, 0.34, 0.58, 0.26};
  for (std::uint32_t t = 0; t < towns_.size(); ++t) {
    const Town& town = towns_[t];
    Rng rng(Salt(options_.seed, 400 + t));
    const int start = rng.Int(0, 7);
    for (std::size_t s = 0; s < kSpecs.size(); ++s) {
      bool placed = false;
      for (double radius : kRadii) {
        for (int k = 0; k < 8 && !placed; ++k) {
          const Vec2 dir =
              kEightWays[static_cast<std::size_t>((start + k + 3 * static_cast<int>(s)) % 8)];
          const Vec2 centre = town.center + dir * (radius * town.radius);
          Building b;
          b.town = static_cast<int>(t);
          b.width = kSpecs[s].width;
          b.depth = kSpecs[s].depth;
          b.floors = kSpecs[s].floors;
          b.lift = s == 0 && town.faction == 1;
          if (std::abs(dir.x) >= std::abs(dir.y)) {
            b.orient = dir.x > 0.0 ? 2 : 3;  // east of the centre: the door faces west
          } else {
            b.orient = dir.y > 0.0 ? 0 : 1;
          }
          b.x0 =
              static_cast<std::int64_t>(std::floor(centre.x / cs_ - b.footprint_x() / 2.0 + 0.5));
          b.y0 =
              static_cast<std::int64_t>(std::floor(centre.y / cs_ - b.footprint_y() / 2.0 + 0.5));
          if (b.x0 < 2 || b.y0 < 2 || b.x0 + b.footprint_x() + 2 > columns_x_ ||
              b.y0 + b.footprint_y() + 2 > columns_y_) {
            continue;
          }
          bool ok = true;
          // Inside the town.
          for (int cx = 0; cx <= 1 && ok; ++cx) {
            for (int cy = 0; cy <= 1 && ok; ++cy) {
              const Vec2 corner{static_cast<double>(b.x0 + cx * b.footprint_x()) * cs_,
                                static_cast<double>(b.y0 + cy * b.footprint_y()) * cs_};
              if (Length(corner - town.center) > town.radius - 2.0) ok = false;
            }
          }
          // Apart from the others, by two columns.
          for (const Building& o : buildings_) {
            if (!ok) break;
            if (b.x0 - 2 < o.x0 + o.footprint_x() && o.x0 - 2 < b.x0 + b.footprint_x() &&
                b.y0 - 2 < o.y0 + o.footprint_y() && o.y0 - 2 < b.y0 + b.footprint_y()) {
              ok = false;
            }
          }
          // Off the roads, and the door's front clear of them.
          for (std::int64_t y = b.y0 - 1; y <= b.y0 + b.footprint_y() && ok; ++y) {
            for (std::int64_t x = b.x0 - 1; x <= b.x0 + b.footprint_x() && ok; ++x) {
              if (RoadDistance(ColumnCentre(x, y), kRoadHalfWidth + 3.0) < kRoadHalfWidth + 3.0) {
                ok = false;
              }
            }
          }
          if (!ok) continue;
          b.base = town.level + kGroundFloorRise;
          b.zone = 0;  // set with the zones
          b.hub = town.faction == 0 ? kMarkHubA : kMarkHubB;
          buildings_.push_back(b);
          placed = true;
        }
        if (placed) break;
      }
    }
  }
}

void Plan::LayMesas() {
  const int count =
      std::clamp<int>(static_cast<int>(options_.tiles_x * options_.tiles_y / 2), 1, 400);
  const Context all = Everything();  // rivers, lakes, towns, bridges: the mesas sit on them
  for (int k = 0; k < count; ++k) {
    Rng rng(Salt(options_.seed, 500 + static_cast<std::uint64_t>(k)));
    Mesa best;
    double best_penalty = std::numeric_limits<double>::infinity();
    for (int attempt = 0; attempt < 300 && best_penalty > 0.0; ++attempt) {
      Mesa m;
      m.radius = rng.Uniform(24.0, 36.0);
      m.cliff = rng.Uniform(6.0, 8.5);
      m.shape = rng.Next();
      const double reach = m.radius * (1.0 + kMesaShape);
      const double margin = reach + 20.0;
      m.center = {rng.Uniform(margin, std::max(margin, width_ - margin)),
                  rng.Uniform(margin, std::max(margin, height_ - margin))};
      const int first_axis = rng.Int(0, 3);
      // The lift's side: walk out from the centre column along an axis to the first column
      // outside; the balcony needs it and the next outside, the top needs room inside.
      const std::int64_t cx = static_cast<std::int64_t>(std::floor(m.center.x / cs_));
      const std::int64_t cy = static_cast<std::int64_t>(std::floor(m.center.y / cs_));
      bool lift = false;
      for (int a = 0; a < 4 && !lift; ++a) {
        static constexpr int kAxes[4][2] = {{1, 0}, {0, 1}, {-1, 0}, {0, -1}};
        const int dx = kAxes[(first_axis + a) % 4][0], dy = kAxes[(first_axis + a) % 4][1];
        std::int64_t out = 0;
        for (std::int64_t s = 1; s < 64; ++s) {
          if (!MesaInside(m, ColumnCentre(cx + s * dx, cy + s * dy))) {
            out = s;
            break;
          }
        }
        if (out < 5) continue;
        bool ok = !MesaInside(m, ColumnCentre(cx + (out + 1) * dx, cy + (out + 1) * dy));
        for (std::int64_t s = 0; s < out && ok; ++s) {
          ok = MesaInside(m, ColumnCentre(cx + s * dx, cy + s * dy));
        }
        // The balcony's two columns have no mesa beside them.
        for (std::int64_t s = out; s <= out + 1 && ok; ++s) {
          for (int side = -1; side <= 1 && ok; side += 2) {
            ok = !MesaInside(m, ColumnCentre(cx + s * dx + side * dy, cy + s * dy + side * dx));
          }
        }
        if (!ok) continue;
        m.dx = dx;
        m.dy = dy;
        m.lift_x = cx + out * dx;
        m.lift_y = cy + out * dy;
        lift = true;
      }
      double penalty = lift ? 0.0 : 1e6;
      penalty += std::max(0.0, reach + 40.0 - WaterDistance(m.center, reach + 40.0));
      for (const Town& t : towns_) {
        penalty += std::max(0.0, t.radius + reach + 40.0 - Length(t.center - m.center));
      }
      penalty += std::max(0.0, reach + 30.0 - RoadDistance(m.center, reach + 30.0));
      for (const Mesa& o : mesas_) {
        penalty += std::max(
            0.0, (o.radius + m.radius) * (1.0 + kMesaShape) + 30.0 - Length(o.center - m.center));
      }
      if (penalty < best_penalty) {
        best_penalty = penalty;
        best = m;
      }
    }
    // The first mesa is always laid (its lift is a landmark); the others only where they fit.
    if (best_penalty >= 1e6 || (k > 0 && best_penalty > 0.0)) continue;
    const Vec2 top = ColumnCentre(best.lift_x - best.dx, best.lift_y - best.dy);
    best.platform = Height(top, all) + best.cliff;
    best.lift_foot = Height(ColumnCentre(best.lift_x, best.lift_y), all);
    mesas_.push_back(best);
  }
}

void Plan::LayCrags() {
  const int count =
      std::clamp<int>(static_cast<int>(2 * options_.tiles_x * options_.tiles_y), 2, 4000);
  constexpr std::array<double, 4> kSlopes = {1.3, 1.45, 1.6, 2.2};  // 52, 55, 58, 66 degrees
  for (int k = 0; k < count; ++k) {
    Rng rng(Salt(options_.seed, 600 + static_cast<std::uint64_t>(k)));
    for (int attempt = 0; attempt < 40; ++attempt) {
      Crag c;
      c.radius = rng.Uniform(7.0, 12.0);
      c.height = c.radius * kSlopes[static_cast<std::size_t>(rng.Int(0, 3))];
      const double margin = c.radius + 5.0;
      c.center = {rng.Uniform(margin, width_ - margin), rng.Uniform(margin, height_ - margin)};
      bool ok = WaterDistance(c.center, c.radius + 30.0) >= c.radius + 30.0 &&
                RoadDistance(c.center, c.radius + 20.0) >= c.radius + 20.0;
      for (const Town& t : towns_) {
        if (!ok) break;
        ok = Length(t.center - c.center) >= t.radius + c.radius + 30.0;
      }
      for (const Mesa& m : mesas_) {
        if (!ok) break;
        ok = Length(m.center - c.center) >= m.radius * (1.0 + kMesaShape) + c.radius + 20.0;
      }
      for (const Crag& o : crags_) {
        if (!ok) break;
        ok = Length(o.center - c.center) >= o.radius + c.radius + 10.0;
      }
      if (!ok) continue;
      crags_.push_back(c);
      break;
    }
  }
}

void Plan::LayZones() {
  zones_x_ = std::max(2, static_cast<int>((options_.tiles_x + 2) / 4));
  zones_y_ = std::max(2, static_cast<int>((options_.tiles_y + 2) / 4));
  zone_w_ = width_ / zones_x_;
  zone_h_ = height_ / zones_y_;
  Rng rng(Salt(options_.seed, 700));
  const int count = zones_x_ * zones_y_;
  for (int iy = 0; iy < zones_y_; ++iy) {
    for (int ix = 0; ix < zones_x_; ++ix) {
      zone_sites_.push_back({zone_w_ * (ix + 0.5 + rng.Uniform(-0.25, 0.25)),
                             zone_h_ * (iy + 0.5 + rng.Uniform(-0.25, 0.25))});
    }
  }
  // Names: the word pairs shuffled (Fisher-Yates on our own generator).
  std::vector<int> pairs(kZoneFirst.size() * kZoneSecond.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) pairs[i] = static_cast<int>(i);
  for (std::size_t i = pairs.size() - 1; i > 0; --i) {
    std::swap(pairs[i], pairs[static_cast<std::size_t>(rng.Next() % (i + 1))]);
  }
  // Levels rise with the distance of the zone's site from the north-west corner.
  std::vector<int> order(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) order[static_cast<std::size_t>(i)] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    const double da =
        Dot(zone_sites_[static_cast<std::size_t>(a)], zone_sites_[static_cast<std::size_t>(a)]);
    const double db =
        Dot(zone_sites_[static_cast<std::size_t>(b)], zone_sites_[static_cast<std::size_t>(b)]);
    return da != db ? da < db : a < b;
  });
  std::vector<int> rank(static_cast<std::size_t>(count));
  for (int r = 0; r < count; ++r)
    rank[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])] = r;
  for (int i = 0; i < count; ++i) {
    Zone z;
    z.id = static_cast<std::uint16_t>(i + 1);
    const int pair = pairs[static_cast<std::size_t>(i) % pairs.size()];
    z.name = absl::StrCat(kZoneFirst[static_cast<std::size_t>(pair) / kZoneSecond.size()], " ",
                          kZoneSecond[static_cast<std::size_t>(pair) % kZoneSecond.size()]);
    if (static_cast<std::size_t>(i) >= pairs.size()) {
      z.name = absl::StrCat(z.name, " ", 1 + static_cast<std::size_t>(i) / pairs.size());
    }
    const int r = rank[static_cast<std::size_t>(i)];
    const int min_level = 1 + (count > 1 ? r * 55 / (count - 1) : 0);
    z.min_level = static_cast<std::uint16_t>(min_level);
    z.max_level = static_cast<std::uint16_t>(std::min(60, min_level + 5 + r % 4));
    zones_.push_back(z);
  }
  for (Building& b : buildings_) {
    b.zone = ZoneAt(Local(b, b.width / 2.0, b.depth / 2.0));
  }
}

// ---------------------------------------------------------------------------------------------
// Columns.

TriangleTag Plan::GroundTag(std::int64_t x, std::int64_t y, Vec2 centre, const Context& c,
                            bool* tree) const {
  TriangleTag tag;
  tag.flags = kFlagTerrain;
  tag.zone = ZoneAt(centre);
  const double road = RoadDistance(centre, kRoadHalfWidth + 5.0);
  if (road < kRoadHalfWidth) tag.marks |= kMarkRoad;
  bool near_town = false;
  for (std::uint32_t i : c.towns) {
    const Town& t = towns_[i];
    const double d = Length(centre - t.center);
    if (d < t.radius) tag.marks |= t.faction == 0 ? kMarkHubA : kMarkHubB;
    if (d < t.radius + 8.0) near_town = true;
  }
  bool near_crag = false;
  for (std::uint32_t i : c.crags) {
    if (Length(centre - crags_[i].center) < crags_[i].radius + 3.0) near_crag = true;
  }
  const bool forest = !near_town && !near_crag && road >= kRoadHalfWidth + 3.0 && ForestAt(centre);
  if (forest) tag.flags |= kFlagForest;
  *tree = false;
  if (forest && road >= kRoadHalfWidth + 5.0 && Hash01(seed_tree_, x, y) < 0.07) {
    *tree = true;
    for (std::uint32_t i : c.mesas) {
      const Mesa& m = mesas_[i];
      if (Length(centre - m.center) < m.radius * (1.0 + kMesaShape) + 10.0) *tree = false;
    }
  }
  return tag;
}

bool Plan::PlainGround(std::int64_t x, std::int64_t y, const Context& c, double* height) const {
  if (x < 1 || y < 1 || x + 1 >= columns_x_ || y + 1 >= columns_y_) return false;
  const Vec2 centre = ColumnCentre(x, y);
  for (std::uint32_t i : c.buildings) {
    const Building& b = buildings_[i];
    if (x >= b.x0 - 1 && y >= b.y0 - 1 && x <= b.x0 + b.footprint_x() &&
        y <= b.y0 + b.footprint_y()) {
      return false;
    }
  }
  for (std::uint32_t i : c.mesas) {
    const Mesa& m = mesas_[i];
    if (Length(centre - m.center) < m.radius * (1.0 + kMesaShape) + 2.0 * cs_) return false;
  }
  for (std::uint32_t i : c.crags) {
    if (Length(centre - crags_[i].center) < crags_[i].radius + 2.0 * cs_) return false;
  }
  double level = 0.0;
  if (WaterDistance(centre, 3.0 * cs_) < 3.0 * cs_) return false;
  if (WaterAt(centre, c, &level)) return false;
  for (std::uint32_t i : c.bridges) {
    if (bridges_[i].box.Contains(centre)) return false;
  }
  bool tree = false;
  GroundTag(x, y, centre, c, &tree);
  if (tree) return false;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (int j = 0; j <= 1; ++j) {
    for (int i = 0; i <= 1; ++i) {
      const double h =
          Height({static_cast<double>(x + i) * cs_, static_cast<double>(y + j) * cs_}, c);
      lo = std::min(lo, h);
      hi = std::max(hi, h);
    }
  }
  if (hi - lo > 0.5) return false;
  *height = hi;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Triangles.

// Adds triangle a, b, c turned counter-clockwise seen from above (an upward normal, Recast's
// convention), whichever way it was given.
void AddUp(TriangleMesh& mesh, std::uint32_t a, std::uint32_t b, std::uint32_t c, TriangleTag tag) {
  const float* va = &mesh.vertices[3 * std::size_t{a}];
  const float* vb = &mesh.vertices[3 * std::size_t{b}];
  const float* vc = &mesh.vertices[3 * std::size_t{c}];
  const double e0x = double{vb[0]} - va[0], e0z = double{vb[2]} - va[2];
  const double e1x = double{vc[0]} - va[0], e1z = double{vc[2]} - va[2];
  const double ny = e0z * e1x - e0x * e1z;
  if (ny < 0.0) std::swap(b, c);
  mesh.AddTriangle(a, b, c, tag);
}

std::uint32_t Vertex(TriangleMesh& mesh, Vec2 p, double height) {
  return mesh.AddVertex(static_cast<float>(p.x), static_cast<float>(height),
                        static_cast<float>(p.y));
}

// A horizontal-ish quad (corners in order round it), as two upward triangles.
void AddFloorQuad(TriangleMesh& mesh, Vec2 p0, Vec2 p1, Vec2 p2, Vec2 p3, double h0, double h1,
                  double h2, double h3, TriangleTag tag) {
  const std::uint32_t a = Vertex(mesh, p0, h0), b = Vertex(mesh, p1, h1);
  const std::uint32_t c = Vertex(mesh, p2, h2), d = Vertex(mesh, p3, h3);
  AddUp(mesh, a, b, c, tag);
  AddUp(mesh, a, c, d, tag);
}

// A vertical quad from a to b, bottoms and tops given at each end.
void AddWall(TriangleMesh& mesh, Vec2 a, Vec2 b, double a_bottom, double b_bottom, double a_top,
             double b_top, TriangleTag tag) {
  const std::uint32_t v0 = Vertex(mesh, a, a_bottom), v1 = Vertex(mesh, b, b_bottom);
  const std::uint32_t v2 = Vertex(mesh, b, b_top), v3 = Vertex(mesh, a, a_top);
  mesh.AddTriangle(v0, v1, v2, tag);
  mesh.AddTriangle(v0, v2, v3, tag);
}

void Plan::EmitBuilding(const Building& b, TriangleMesh& mesh) const {
  const double e = kInset / cs_;  // the inset, in columns
  const TriangleTag indoor{static_cast<std::uint8_t>(kFlagBuilding | kFlagIndoor), b.hub, b.zone};
  const TriangleTag outdoor{kFlagBuilding, b.hub, b.zone};
  const double top = b.base + kFloorHeight * b.floors;
  const double W = b.width, D = b.depth;
  auto slab = [&](double u0, double v0, double u1, double v1, double y, TriangleTag tag) {
    if (u1 <= u0 || v1 <= v0) return;
    AddFloorQuad(mesh, Local(b, u0, v0), Local(b, u1, v0), Local(b, u1, v1), Local(b, u0, v1), y, y,
                 y, y, tag);
  };
  auto wall = [&](double u0, double v0, double u1, double v1, double bottom, double up) {
    AddWall(mesh, Local(b, u0, v0), Local(b, u1, v1), bottom, bottom, up, up, outdoor);
  };
  // The stair core, from the back wall: the first flight's lane (two columns), a wall, the second
  // flight's lane, a wall; each wall one column thick, along the flights' columns (u 2 .. 9).
  auto lane = [&](int flight, double* v0, double* v1) {
    *v0 = flight == 0 ? D - 3.0 : D - 6.0;
    *v1 = *v0 + 2.0;
  };
  // Floors, each with a hole over the flight that comes up to it.
  for (int k = 0; k < b.floors; ++k) {
    const double y = b.base + kFloorHeight * k;
    if (k == 0) {
      slab(e, e, W - e, D - e, y, indoor);
      continue;
    }
    double hv0 = 0.0, hv1 = 0.0;
    lane(k - 1, &hv0, &hv1);
    const double hu0 = 2.0 - e, hu1 = 2.0 + kStepsPerFlight + e;
    hv0 -= e;
    hv1 += e;
    slab(e, e, hu0, D - e, y, indoor);
    slab(hu1, e, W - e, D - e, y, indoor);
    slab(hu0, e, hu1, hv0, y, indoor);
    slab(hu0, hv1, hu1, D - e, y, indoor);
  }
  slab(e, e, W - e, D - e, top, outdoor);  // the roof
  // Stairs: flight f climbs from floor f to floor f + 1, 8 steps of 0.4 yards, one column each;
  // the first eastward (in u) from u = 2, the second back westward over the same columns.
  for (int f = 0; f + 1 < b.floors; ++f) {
    double v0 = 0.0, v1 = 0.0;
    lane(f, &v0, &v1);
    for (int j = 0; j < kStepsPerFlight; ++j) {
      const int u = f == 0 ? 2 + j : 1 + kStepsPerFlight - j;
      const double y = b.base + kFloorHeight * f + kStepRise * (j + 1);
      slab(u + e, v0 + e, u + 1 - e, v1 - e, y, indoor);
      const double riser = f == 0 ? u + e : u + 1 - e;  // on the side of the step below
      AddWall(mesh, Local(b, riser, v0 + e), Local(b, riser, v1 - e), y - kStepRise, y - kStepRise,
              y, y, indoor);
    }
  }
  // Walls along the middle of the outermost columns, a door of two columns in the front one.
  const double bottom = b.base - 0.5;
  for (int f = 0; f + 1 < b.floors; ++f) {
    double v0 = 0.0, v1 = 0.0;
    lane(f, &v0, &v1);
    wall(2.0 + e, v0 - 0.5, 2.0 + kStepsPerFlight - e, v0 - 0.5, bottom, top);
  }
  const double door = std::floor(W / 2.0) - 1.0;
  wall(0.5, D - 0.5, W - 0.5, D - 0.5, bottom, top);
  wall(0.5, 0.5, 0.5, D - 0.5, bottom, top);
  wall(W - 0.5, 0.5, W - 0.5, D - 0.5, bottom, top);
  wall(0.5, 0.5, door - e, 0.5, bottom, top);
  wall(door + 2.0 + e, 0.5, W - 0.5, 0.5, bottom, top);
  wall(door - e, 0.5, door + 2.0 + e, 0.5, b.base + kDoorHeight, top);  // over the door
}

void Plan::EmitBridge(const Bridge& b, TriangleMesh& mesh) const {
  const std::size_t n = b.points.size();
  std::vector<Vec2> across(n);
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 d = b.points[std::min(n - 1, i + 1)] - b.points[i > 0 ? i - 1 : 0];
    const double len = Length(d);
    across[i] = len > 0.0 ? Vec2{-d.y / len, d.x / len} : Vec2{0.0, 1.0};
  }
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double s0 = 2.0 * static_cast<double>(i), s1 = s0 + 2.0;
    if (s1 <= b.deck_from || s0 >= b.deck_to) continue;
    auto at = [&](double s) {
      const double t = std::clamp((s - s0) / 2.0, 0.0, 1.0);
      return std::make_pair(b.points[i] + (b.points[i + 1] - b.points[i]) * t,
                            across[i] + (across[i + 1] - across[i]) * t);
    };
    const auto [p0, n0] = at(std::max(s0, b.deck_from));
    const auto [p1, n1] = at(std::min(s1, b.deck_to));
    const TriangleTag tag{kFlagBuilding, kMarkRoad, ZoneAt((p0 + p1) * 0.5)};
    const double y = b.deck_level;
    AddFloorQuad(mesh, p0 + n0 * kDeckHalfWidth, p1 + n1 * kDeckHalfWidth, p1 - n1 * kDeckHalfWidth,
                 p0 - n0 * kDeckHalfWidth, y, y, y, y, tag);
  }
}

TriangleMesh Plan::TileMesh(std::uint32_t tx, std::uint32_t ty) const {
  const std::int64_t cx0 =
      std::max<std::int64_t>(0, std::int64_t{tx} * kTileColumns - kMarginColumns);
  const std::int64_t cy0 =
      std::max<std::int64_t>(0, std::int64_t{ty} * kTileColumns - kMarginColumns);
  const std::int64_t cx1 =
      std::min<std::int64_t>(columns_x_, (std::int64_t{tx} + 1) * kTileColumns + kMarginColumns);
  const std::int64_t cy1 =
      std::min<std::int64_t>(columns_y_, (std::int64_t{ty} + 1) * kTileColumns + kMarginColumns);
  const std::int64_t nx = cx1 - cx0, ny = cy1 - cy0;
  const Box box{static_cast<double>(cx0) * cs_, static_cast<double>(cy0) * cs_,
                static_cast<double>(cx1) * cs_, static_cast<double>(cy1) * cs_};
  const Context c = ContextFor(box.Grown(cs_));

  // Heights at column corners.
  std::vector<double> corner(static_cast<std::size_t>((nx + 1) * (ny + 1)));
  for (std::int64_t j = 0; j <= ny; ++j) {
    for (std::int64_t i = 0; i <= nx; ++i) {
      corner[static_cast<std::size_t>(j * (nx + 1) + i)] =
          Height({static_cast<double>(cx0 + i) * cs_, static_cast<double>(cy0 + j) * cs_}, c);
    }
  }
  auto corner_at = [&](std::int64_t i, std::int64_t j) {
    return corner[static_cast<std::size_t>(j * (nx + 1) + i)];
  };
  // Which columns are buildings' (index + 1), and which mesas' (index + 1, with a ring around).
  std::vector<std::uint32_t> building(static_cast<std::size_t>(nx * ny), 0);
  for (std::uint32_t k : c.buildings) {
    const Building& b = buildings_[k];
    for (std::int64_t y = std::max(cy0, b.y0); y < std::min(cy1, b.y0 + b.footprint_y()); ++y) {
      for (std::int64_t x = std::max(cx0, b.x0); x < std::min(cx1, b.x0 + b.footprint_x()); ++x) {
        building[static_cast<std::size_t>((y - cy0) * nx + (x - cx0))] = k + 1;
      }
    }
  }
  const std::int64_t rx = nx + 2;  // the mesa raster has one column more on every side
  std::vector<std::uint32_t> mesa(static_cast<std::size_t>((nx + 2) * (ny + 2)), 0);
  for (std::uint32_t k : c.mesas) {
    const Mesa& m = mesas_[k];
    const double reach = m.radius * (1.0 + kMesaShape) + cs_;
    const std::int64_t x0 =
        std::max(cx0 - 1, static_cast<std::int64_t>(std::floor((m.center.x - reach) / cs_)));
    const std::int64_t x1 =
        std::min(cx1, static_cast<std::int64_t>(std::floor((m.center.x + reach) / cs_)));
    const std::int64_t y0 =
        std::max(cy0 - 1, static_cast<std::int64_t>(std::floor((m.center.y - reach) / cs_)));
    const std::int64_t y1 =
        std::min(cy1, static_cast<std::int64_t>(std::floor((m.center.y + reach) / cs_)));
    for (std::int64_t y = y0; y <= y1; ++y) {
      for (std::int64_t x = x0; x <= x1; ++x) {
        if (MesaInside(m, ColumnCentre(x, y))) {
          mesa[static_cast<std::size_t>((y - cy0 + 1) * rx + (x - cx0 + 1))] = k + 1;
        }
      }
    }
  }
  auto mesa_at = [&](std::int64_t x, std::int64_t y) {
    return mesa[static_cast<std::size_t>((y - cy0 + 1) * rx + (x - cx0 + 1))];
  };

  TriangleMesh mesh;
  mesh.vertices.reserve(static_cast<std::size_t>(nx * ny) * 12 + 4096);
  mesh.indices.reserve(static_cast<std::size_t>(nx * ny) * 6 + 4096);
  mesh.tags.reserve(static_cast<std::size_t>(nx * ny) * 2 + 1024);
  const double f = kInset / cs_;
  for (std::int64_t y = cy0; y < cy1; ++y) {
    for (std::int64_t x = cx0; x < cx1; ++x) {
      const std::int64_t i = x - cx0, j = y - cy0;
      if (building[static_cast<std::size_t>(j * nx + i)] != 0) continue;
      const Vec2 centre = ColumnCentre(x, y);
      // The cell's quad, inset from its boundaries so that no column picks up a sliver of its
      // neighbour's triangles (Recast would merge their areas).
      const double x0 = static_cast<double>(x) * cs_ + kInset,
                   x1 = static_cast<double>(x + 1) * cs_ - kInset;
      const double z0 = static_cast<double>(y) * cs_ + kInset,
                   z1 = static_cast<double>(y + 1) * cs_ - kInset;
      const Vec2 pa{x0, z0}, pb{x1, z0}, pc{x1, z1}, pd{x0, z1};
      const std::uint32_t on_mesa = mesa_at(x, y);
      double level = 0.0;
      if (on_mesa == 0 && WaterAt(centre, c, &level)) {
        const TriangleTag tag{static_cast<std::uint8_t>(kFlagTerrain | kFlagWater), 0,
                              ZoneAt(centre)};
        AddFloorQuad(mesh, pa, pb, pc, pd, level, level, level, level, tag);
        continue;
      }
      const double h00 = corner_at(i, j), h10 = corner_at(i + 1, j);
      const double h01 = corner_at(i, j + 1), h11 = corner_at(i + 1, j + 1);
      auto bilinear = [&](double u, double v) {
        return (h00 * (1.0 - u) + h10 * u) * (1.0 - v) + (h01 * (1.0 - u) + h11 * u) * v;
      };
      const double cliff = on_mesa != 0 ? mesas_[on_mesa - 1].cliff : 0.0;
      const double ha = bilinear(f, f) + cliff, hb = bilinear(1.0 - f, f) + cliff;
      const double hc = bilinear(1.0 - f, 1.0 - f) + cliff, hd = bilinear(f, 1.0 - f) + cliff;
      bool tree = false;
      const TriangleTag tag = GroundTag(x, y, centre, c, &tree);
      AddFloorQuad(mesh, pa, pb, pc, pd, ha, hb, hc, hd, tag);
      if (on_mesa != 0) {
        // Cliffs: a vertical wall along each side facing ground that is not this mesa's.
        const TriangleTag rock{kFlagTerrain, 0, tag.zone};
        struct Side {
          int dx, dy;
          Vec2 a, b;
          double ha, hb, foot_a, foot_b;
        };
        const Side sides[4] = {
            {1, 0, pb, pc, hb, hc, h10, h11},
            {-1, 0, pa, pd, ha, hd, h00, h01},
            {0, 1, pd, pc, hd, hc, h01, h11},
            {0, -1, pa, pb, ha, hb, h00, h10},
        };
        for (const Side& s : sides) {
          const std::int64_t sx = x + s.dx, sy = y + s.dy;
          if (sx < 0 || sy < 0 || sx >= columns_x_ || sy >= columns_y_) continue;
          if (mesa_at(sx, sy) == on_mesa) continue;
          const double foot = std::min(s.foot_a, s.foot_b) - 0.3;
          AddWall(mesh, s.a, s.b, foot, foot, s.ha, s.hb, rock);
        }
      }
      if (tree) {
        const double ground = std::max({ha, hb, hc, hd});
        const double r = 0.45;
        const TriangleTag bark{static_cast<std::uint8_t>(kFlagTerrain | kFlagForest), 0, tag.zone};
        AddWall(mesh, centre + Vec2{-r, 0.0}, centre + Vec2{r, 0.0}, ground - 0.3, ground - 0.3,
                ground + kTreeHeight, ground + kTreeHeight, bark);
        AddWall(mesh, centre + Vec2{0.0, -r}, centre + Vec2{0.0, r}, ground - 0.3, ground - 0.3,
                ground + kTreeHeight, ground + kTreeHeight, bark);
      }
    }
  }
  for (std::uint32_t k : c.buildings) EmitBuilding(buildings_[k], mesh);
  for (std::uint32_t k : c.bridges) EmitBridge(bridges_[k], mesh);
  for (std::uint32_t k : c.mesas) {
    // The lift's balcony: over the lift column and the next one out, at the top's height.
    const Mesa& m = mesas_[k];
    const std::int64_t ax = std::min(m.lift_x, m.lift_x + m.dx),
                       bx = std::max(m.lift_x, m.lift_x + m.dx);
    const std::int64_t ay = std::min(m.lift_y, m.lift_y + m.dy),
                       by = std::max(m.lift_y, m.lift_y + m.dy);
    const double x0 = static_cast<double>(ax) * cs_ + kInset,
                 x1 = static_cast<double>(bx + 1) * cs_ - kInset;
    const double z0 = static_cast<double>(ay) * cs_ + kInset,
                 z1 = static_cast<double>(by + 1) * cs_ - kInset;
    const TriangleTag tag{kFlagBuilding, 0, ZoneAt(ColumnCentre(m.lift_x, m.lift_y))};
    AddFloorQuad(mesh, {x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}, m.platform, m.platform, m.platform,
                 m.platform, tag);
  }
  return mesh;
}

void Plan::AddLifts(ContinentBuilder& builder) const {
  for (const Mesa& m : mesas_) {
    builder.AddLift(static_cast<std::uint32_t>(m.lift_x), static_cast<std::uint32_t>(m.lift_y),
                    static_cast<float>(m.lift_foot), static_cast<float>(m.platform));
  }
  for (const Building& b : buildings_) {
    if (!b.lift) continue;
    std::int64_t x = 0, y = 0;
    LocalColumn(b, b.width - 2, 1, &x, &y);
    builder.AddLift(static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
                    static_cast<float>(b.base),
                    static_cast<float>(b.base + kFloorHeight * (b.floors - 1)));
  }
}

// ---------------------------------------------------------------------------------------------
// Landmarks.

DemoPoint Point(std::int64_t x, std::int64_t y, double z) {
  DemoPoint p;
  p.x = static_cast<std::uint32_t>(x);
  p.y = static_cast<std::uint32_t>(y);
  p.z = static_cast<float>(z);
  return p;
}

absl::Status Plan::FindLandmarks() {
  const Context all = Everything();
  DemoLandmarks& l = landmarks_;
  // Open ground nearest (x, y) (in rings of columns) for which `accept` holds.
  auto nearest_plain = [&](std::int64_t x, std::int64_t y, std::int64_t reach, auto&& accept,
                           DemoPoint* out) {
    for (std::int64_t r = 0; r <= reach; ++r) {
      for (std::int64_t dy = -r; dy <= r; ++dy) {
        for (std::int64_t dx = -r; dx <= r; ++dx) {
          if (std::max(std::abs(dx), std::abs(dy)) != r) continue;
          double h = 0.0;
          if (PlainGround(x + dx, y + dy, all, &h) && accept(x + dx, y + dy)) {
            *out = Point(x + dx, y + dy, h);
            return true;
          }
        }
      }
    }
    return false;
  };
  auto column = [&](Vec2 p, std::int64_t* x, std::int64_t* y) {
    *x = static_cast<std::int64_t>(std::floor(p.x / cs_));
    *y = static_cast<std::int64_t>(std::floor(p.y / cs_));
  };
  // Towns: open ground at (or nearest) the centre of each faction's first town.
  for (int faction = 0; faction < 2; ++faction) {
    const Town* town = nullptr;
    for (const Town& t : towns_) {
      if (t.faction == faction) {
        town = &t;
        break;
      }
    }
    if (town == nullptr) return absl::InternalError("demo world: a faction has no town");
    std::int64_t x = 0, y = 0;
    column(town->center, &x, &y);
    DemoPoint* out = faction == 0 ? &l.town_a : &l.town_b;
    auto in_town = [&](std::int64_t px, std::int64_t py) {
      return Length(ColumnCentre(px, py) - town->center) < town->radius - 4.0;
    };
    if (!nearest_plain(x, y, 20, in_town, out)) {
      return absl::InternalError("demo world: no open ground in a town");
    }
  }
  // The bridge: a water column wholly under the deck, nearest the deck's middle.
  bool bridged = false;
  for (const Bridge& b : bridges_) {
    const double middle = (b.deck_from + b.deck_to) / 2.0;
    const auto n = static_cast<std::int64_t>(b.points.size());
    const auto mid = static_cast<std::int64_t>(middle / 2.0);
    for (std::int64_t k = 0; k < n && !bridged; ++k) {
      const std::int64_t i = mid + ((k & 1) ? (k + 1) / 2 : -(k / 2));
      if (i < 0 || i >= n) continue;
      const double s = 2.0 * static_cast<double>(i);
      if (s < b.deck_from + 2.0 || s > b.deck_to - 2.0) continue;
      std::int64_t x = 0, y = 0;
      column(b.points[static_cast<std::size_t>(i)], &x, &y);
      const Vec2 centre = ColumnCentre(x, y);
      double level = 0.0;
      if (!WaterAt(centre, all, &level)) continue;
      // Under the deck: the column's centre near the road's line, away from the deck's ends.
      double best = std::numeric_limits<double>::infinity();
      double arc = 0.0;
      for (std::size_t q = 0; q + 1 < b.points.size(); ++q) {
        double t = 0.0;
        const double d = SegmentDistance(centre, b.points[q], b.points[q + 1], &t);
        if (d < best) {
          best = d;
          arc = (static_cast<double>(q) + t) * 2.0;
        }
      }
      if (best > kDeckHalfWidth - 0.75 * cs_ || arc < b.deck_from + cs_ || arc > b.deck_to - cs_) {
        continue;
      }
      // The ends: on the road three yards beyond each ramp, on dry ground.
      bool ends = true;
      for (int side = 0; side < 2 && ends; ++side) {
        const double end_arc = side == 0 ? b.deck_from - b.ramp - 3.0 : b.deck_to + b.ramp + 3.0;
        const auto at = std::clamp<std::int64_t>(
            static_cast<std::int64_t>(std::floor(end_arc / 2.0 + 0.5)), 0, n - 1);
        std::int64_t ex = 0, ey = 0;
        column(b.points[static_cast<std::size_t>(at)], &ex, &ey);
        double wet = 0.0;
        if (WaterAt(ColumnCentre(ex, ey), all, &wet)) ends = false;
        (side == 0 ? l.bridge_start : l.bridge_end) =
            Point(ex, ey, Height(ColumnCentre(ex, ey), all));
      }
      if (!ends) break;
      l.bridge_deck = Point(x, y, b.deck_level);
      l.bridge_water = Point(x, y, level);
      bridged = true;
    }
    if (bridged) break;
  }
  if (!bridged) return absl::InternalError("demo world: no bridge over water");
  // Town A's main building.
  bool built = false;
  for (const Building& b : buildings_) {
    if (towns_[static_cast<std::size_t>(b.town)].faction != 0 || b.floors < 3) continue;
    std::int64_t x = 0, y = 0;
    LocalColumn(b, b.width - 3, 2, &x, &y);
    l.building_ground = Point(x, y, b.base);
    l.building_upper = Point(x, y, b.base + kFloorHeight * (b.floors - 1));
    built = true;
    break;
  }
  if (!built) return absl::InternalError("demo world: faction A has no three-floor building");
  // The first mesa: its lift, its top, its foot.
  if (mesas_.empty()) return absl::InternalError("demo world: no mesa");
  const Mesa& m = mesas_[0];
  l.lift_bottom = Point(m.lift_x, m.lift_y, m.lift_foot);
  l.lift_top = Point(m.lift_x, m.lift_y, m.platform);
  {
    const std::int64_t x = m.lift_x - 3 * m.dx, y = m.lift_y - 3 * m.dy;
    l.cliff_top = Point(x, y, Height(ColumnCentre(x, y), all) + m.cliff);
  }
  {
    // Out from the centre the other way: the first column outside, then three more.
    const std::int64_t cx = static_cast<std::int64_t>(std::floor(m.center.x / cs_));
    const std::int64_t cy = static_cast<std::int64_t>(std::floor(m.center.y / cs_));
    std::int64_t s = 1;
    while (s < 64 && MesaInside(m, ColumnCentre(cx - s * m.dx, cy - s * m.dy))) ++s;
    s += 3;
    auto outside = [&](std::int64_t px, std::int64_t py) {
      return Length(ColumnCentre(px, py) - m.center) > m.radius * (1.0 + kMesaShape) + cs_;
    };
    if (!nearest_plain(cx - s * m.dx, cy - s * m.dy, 12, outside, &l.cliff_foot)) {
      return absl::InternalError("demo world: no open ground at a cliff's foot");
    }
  }
  // Zones: the lowest and the highest levels.
  const Zone* low = &zones_.front();
  const Zone* high = &zones_.front();
  for (const Zone& z : zones_) {
    if (z.min_level < low->min_level) low = &z;
    if (z.min_level > high->min_level) high = &z;
  }
  for (const Zone* z : {low, high}) {
    const Vec2 site = zone_sites_[z->id - 1u];
    std::int64_t x = 0, y = 0;
    column({std::clamp(site.x, 0.0, width_ - 1.0), std::clamp(site.y, 0.0, height_ - 1.0)}, &x, &y);
    auto in_zone = [&](std::int64_t px, std::int64_t py) {
      return ZoneAt(ColumnCentre(px, py)) == z->id;
    };
    DemoPoint* out = z == low ? &l.low_zone : &l.high_zone;
    if (!nearest_plain(x, y, 200, in_zone, out)) {
      return absl::InternalError(absl::StrCat("demo world: no open ground in zone ", z->id));
    }
  }
  l.low_zone_id = low->id;
  l.high_zone_id = high->id;
  return absl::OkStatus();
}

}  // namespace

VoxelizeOptions DemoVoxelizeOptions(double column_yards) {
  VoxelizeOptions o;
  o.column_yards = column_yards;
  o.height_step_yards = 0.2;
  o.agent_height_yards = 2.0;
  o.agent_radius_yards = 0.0;
  o.step_yards = 0.6;
  o.jump_yards = 1.5;
  o.max_fall_yards = 10.0;
  o.walk_slope_degrees = 50.0;
  o.steep_slope_degrees = 60.0;
  o.climb_slope_degrees = 85.0;
  o.origin_x = 0.0;
  o.origin_z = 0.0;
  o.filter_ledges = false;
  return o;
}

absl::StatusOr<World> GenerateDemoWorld(const DemoOptions& options, VoxelizeStats* stats) {
  absl::StatusOr<std::unique_ptr<Plan>> plan = Plan::Make(options);
  if (!plan.ok()) return plan.status();
  const Plan& p = **plan;
  VoxelizeOptions voxelize = options.voxelize;
  voxelize.column_yards = options.column_yards;
  voxelize.origin_x = 0.0;
  voxelize.origin_z = 0.0;
  absl::StatusOr<Continent> continent = VoxelizeTiles(
      options.tiles_x, options.tiles_y,
      [&p](std::uint32_t tx, std::uint32_t ty) { return p.TileMesh(tx, ty); }, voxelize, 0, stats,
      [&p](ContinentBuilder& builder) { p.AddLifts(builder); });
  if (!continent.ok()) return continent.status();
  World world;
  world.column_yards = options.column_yards;
  world.continents.push_back(*std::move(continent));
  world.zones = p.zones();
  world.content_id = ComputeContentId(world);
  return world;
}

absl::StatusOr<TriangleMesh> DemoTileMesh(const DemoOptions& options, std::uint32_t tx,
                                          std::uint32_t ty) {
  absl::StatusOr<std::unique_ptr<Plan>> plan = Plan::Make(options);
  if (!plan.ok()) return plan.status();
  if (tx >= options.tiles_x || ty >= options.tiles_y) {
    return absl::OutOfRangeError(absl::StrCat("tile ", tx, ",", ty, " is outside the ",
                                              options.tiles_x, " x ", options.tiles_y, " world"));
  }
  return (*plan)->TileMesh(tx, ty);  // the plan is cheap (milliseconds): made afresh each call
}

absl::StatusOr<DemoLandmarks> FindLandmarks(const DemoOptions& options) {
  absl::StatusOr<std::unique_ptr<Plan>> plan = Plan::Make(options);
  if (!plan.ok()) return plan.status();
  return (*plan)->landmarks();
}

SurfaceId LandmarkSurface(const World& world, const DemoPoint& point) {
  const Continent* c = world.FindContinent(0);
  if (c == nullptr || !c->OnMap(point.x, point.y)) return kInvalidId;
  SurfaceId first = 0, end = 0;
  c->ColumnSurfaces(point.x, point.y, &first, &end);
  SurfaceId best = kInvalidId;
  for (SurfaceId s = first; s < end; ++s) {
    if (best == kInvalidId ||
        std::abs(c->height_yards[s] - point.z) < std::abs(c->height_yards[best] - point.z)) {
      best = s;
    }
  }
  return best;
}

}  // namespace walk::nav
