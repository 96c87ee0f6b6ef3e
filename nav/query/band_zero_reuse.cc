#include "nav/query/band_zero_reuse.h"

namespace walk::nav {

bool BandZeroAnswers(const WalkAnswer& base, const Metric& band) {
  if (!band.prices_danger()) return true;
  if (base.status != WalkStatus::kOk) return true;
  for (const ZoneCell& cell : base.zone_cells) {
    if (cell.zone == 0 || cell.zone == base.from_zone || cell.zone == base.to_zone) continue;
    if (band.ZoneMultiplier(cell.zone) != 1.0) return false;
  }
  return true;
}

}  // namespace walk::nav
