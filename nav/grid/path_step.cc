#include "nav/grid/path_step.h"

#include "nav/grid/surface.h"

namespace walk::nav {

double WalkedColumns(const std::vector<PathStep>& steps) {
  double columns = 0.0;  // summed from the start, the order a path-length check sums in
  for (std::size_t i = 1; i < steps.size(); ++i) {
    if (steps[i].via < kDirectionCount) columns += IsDiagonal(steps[i].via) ? kSqrt2 : 1.0;
  }
  return columns;
}

}  // namespace walk::nav
