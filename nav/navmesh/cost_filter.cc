#include "nav/navmesh/cost_filter.h"

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"

namespace walk::nav {

static_assert(DT_MAX_AREAS == 64, "CostFilter prices Detour's 64 areas");

struct CostFilter::Impl : dtQueryFilter {};

CostFilter::CostFilter(const NavMeshPricing& pricing) : impl_(std::make_unique<Impl>()) {
  const double speed = pricing.model.run_yards_per_second;
  std::array<double, DT_MAX_AREAS> multiplier{};
  double least = 0.0;
  for (int area = 0; area < DT_MAX_AREAS; ++area) {
    multiplier[area] = pricing.AreaMultiplier(static_cast<std::uint8_t>(area));
    if (area == 0 || multiplier[area] < least) least = multiplier[area];
  }
  for (int area = 0; area < DT_MAX_AREAS; ++area) {
    seconds_per_yard_[area] = multiplier[area] / speed;
    impl_->setAreaCost(area, static_cast<float>(multiplier[area] / least));
  }
  impl_->setIncludeFlags(pricing.IncludedFlags());
  impl_->setExcludeFlags(0);
}

CostFilter::CostFilter(CostFilter&&) noexcept = default;
CostFilter& CostFilter::operator=(CostFilter&&) noexcept = default;
CostFilter::~CostFilter() = default;

const dtQueryFilter* CostFilter::detour() const { return impl_.get(); }

}  // namespace walk::nav
