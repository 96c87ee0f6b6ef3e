#include "nav/cch/cch_bound.h"

namespace walk::nav {

double CchBound::LowestCostPerUnit(const std::vector<std::uint32_t>& tails,
                                   const std::vector<std::uint32_t>& heads,
                                   const std::vector<double>& weights, const std::vector<float>& x,
                                   const std::vector<float>& y) {
  double lowest = kInfCost;
  for (std::size_t a = 0; a < tails.size(); ++a) {
    const double units = OctileColumns(std::abs(double{x[tails[a]]} - x[heads[a]]),
                                       std::abs(double{y[tails[a]]} - y[heads[a]]));
    if (units > 0.0 && weights[a] < kInfCost) lowest = std::min(lowest, weights[a] / units);
  }
  return lowest < kInfCost ? lowest * (1.0 - 1e-9) : 0.0;
}

double BoundBetween(const CchBound& bound, const Cch& cch, const std::vector<CchEndpoint>& sources,
                    const std::vector<CchEndpoint>& targets) {
  double lowest = kInfCost;
  for (const CchEndpoint& s : sources) {
    if (!(s.cost < kInfCost)) continue;
    const std::uint32_t rs = cch.rank(s.node);
    for (const CchEndpoint& t : targets) {
      if (!(t.cost < kInfCost)) continue;
      const std::uint32_t rt = cch.rank(t.node);
      const double units = OctileColumns(std::abs(double{(*bound.x)[rs]} - (*bound.x)[rt]),
                                         std::abs(double{(*bound.y)[rs]} - (*bound.y)[rt]));
      lowest = std::min(lowest, s.cost + t.cost + bound.cost_per_unit * units);
    }
  }
  return lowest;
}

CchEndpointArea CchEndpointArea::Of(const CchBound& bound, const Cch& cch,
                                    const std::vector<CchEndpoint>& endpoints) {
  CchEndpointArea area;
  for (const CchEndpoint& e : endpoints) {
    if (!(e.cost < kInfCost)) continue;
    const std::uint32_t r = cch.rank(e.node);
    area.x0 = std::min(area.x0, double{(*bound.x)[r]});
    area.y0 = std::min(area.y0, double{(*bound.y)[r]});
    area.x1 = std::max(area.x1, double{(*bound.x)[r]});
    area.y1 = std::max(area.y1, double{(*bound.y)[r]});
    area.cheapest = std::min(area.cheapest, e.cost);
  }
  return area;
}

CchEndpointDisc::CchEndpointDisc(const CchBound& bound, const Cch& cch,
                                 const std::vector<CchEndpoint>& endpoints)
    : cost_per_unit(bound.cost_per_unit) {
  std::size_t n = 0;
  cheapest = kInfCost;
  for (const CchEndpoint& e : endpoints) {
    if (!(e.cost < kInfCost)) continue;
    const std::uint32_t r = cch.rank(e.node);
    x += (*bound.x)[r];
    y += (*bound.y)[r];
    cheapest = std::min(cheapest, e.cost);
    ++n;
  }
  if (n == 0) return;
  x /= static_cast<double>(n);
  y /= static_cast<double>(n);
  for (const CchEndpoint& e : endpoints) {
    if (!(e.cost < kInfCost)) continue;
    const std::uint32_t r = cch.rank(e.node);
    radius =
        std::max(radius, OctileColumns(std::abs((*bound.x)[r] - x), std::abs((*bound.y)[r] - y)));
  }
}

}  // namespace walk::nav
