#include "nav/navmesh/cost_filter.h"

#include <algorithm>

#include "DetourNavMesh.h"
#include "DetourNavMeshQuery.h"

namespace walk::nav {

static_assert(DT_MAX_AREAS == kNavMeshClassLimit, "CostFilter prices Detour's 64 areas");

struct CostFilter::Impl : dtQueryFilter {};

CostFilter::CostFilter(const NavMeshPricing& pricing, std::uint16_t exempt_a,
                       std::uint16_t exempt_b)
    : impl_(std::make_unique<Impl>()) {
  Set(pricing, exempt_a, exempt_b);
}

void CostFilter::Set(const NavMeshPricing& pricing, std::uint16_t exempt_a,
                     std::uint16_t exempt_b) {
  if (metric_ == pricing.metric && ground_ == pricing.ground && exempt_a_ == exempt_a &&
      exempt_b_ == exempt_b) {
    return;
  }
  metric_ = pricing.metric;
  ground_ = pricing.ground;
  exempt_a_ = exempt_a;
  exempt_b_ = exempt_b;
  const double speed = pricing.run_yards_per_second();
  const int classes = static_cast<int>(pricing.ground->classes().size());
  std::array<double, DT_MAX_AREAS> multiplier;
  multiplier.fill(1.0);
  double least = classes > 0 ? kNavMeshMaxMultiplier : 1.0;
  for (int area = 0; area < classes; ++area) {
    multiplier[area] = pricing.ClassMultiplier(static_cast<std::uint8_t>(area), exempt_a, exempt_b);
    least = std::min(least, multiplier[area]);
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
