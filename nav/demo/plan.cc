#include "nav/demo/plan.h"

#include <cmath>
#include <cstdint>

#include "absl/strings/str_cat.h"
#include "nav/demo/landmarks.h"
#include "nav/grid/number_text.h"

namespace walk::nav::demo {

Plan::Plan(const DemoOptions& options)
    : options_(options),
      cs_(options.column_yards),
      columns_x_(std::int64_t{options.tiles_x} * kTileColumns),
      columns_y_(std::int64_t{options.tiles_y} * kTileColumns),
      width_(static_cast<double>(columns_x_) * cs_),
      height_(static_cast<double>(columns_y_) * cs_),
      hills_(options.seed),
      forest_(options.seed) {}

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
    return absl::InvalidArgumentError(absl::StrCat(
        "DemoOptions.column_yards must be 0.5 to 8 (got ", NumberText(options.column_yards), ")"));
  }
  std::unique_ptr<Plan> plan(new Plan(options));
  if (absl::Status status = plan->Lay(); !status.ok()) return status;
  return plan;
}

absl::Status Plan::Lay() {
  water_.LayRivers(options_, width_, height_, hills_);
  water_.LayLakes(options_);
  LayTowns();
  roads_.Lay(towns_, options_, width_, height_);
  LayBridges();
  LayBuildings();
  LayMesas();
  LayCrags();
  LayZones();
  absl::StatusOr<DemoLandmarks> landmarks = LocateLandmarks(*this);
  if (!landmarks.ok()) return landmarks.status();
  landmarks_ = *landmarks;
  return absl::OkStatus();
}

Context Plan::ContextFor(const Box& box) const {
  Context c;
  const std::vector<River>& rivers = water_.rivers();
  for (std::uint32_t i = 0; i < rivers.size(); ++i) {
    const River& r = rivers[i];
    const double reach = kMaxRiverHalfWidth + kMaxBlend;
    if (r.y_min - reach <= box.y1 && r.y_max + reach >= box.y0) c.rivers.push_back(i);
  }
  const std::vector<Lake>& lakes = water_.lakes();
  for (std::uint32_t i = 0; i < lakes.size(); ++i) {
    const Lake& l = lakes[i];
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

}  // namespace walk::nav::demo
