#include "nav/abstract/legs.h"

#include "nav/cost/zone_mix.h"

namespace walk::nav {

Leg ComputeLeg(const LegRequest& request, CellSearch& search) {
  const Continent& c = request.c;
  const ContinentGraph& graph = request.graph;
  const std::uint32_t cell_columns = request.cell_columns;
  const Metric& base = request.base;
  const SurfaceId s = request.surface;
  Leg leg;
  // Every portal of the cell: its own nodes and those one step outside it.
  const std::span<const std::uint32_t> nodes =
      graph.CellPortals(cell_columns, c.column_x[s], c.column_y[s]);
  if (nodes.empty()) return leg;
  std::vector<SurfaceId> targets;
  targets.reserve(nodes.size());
  for (std::uint32_t n : nodes) targets.push_back(graph.node_surface[n]);
  search.Run(c, CellOf(c, cell_columns, s), base,
             {.origin = s, .backward = request.backward, .targets = targets});
  std::vector<PathStep> steps;
  for (std::uint32_t n : nodes) {
    const SurfaceId t = graph.node_surface[n];
    if (!search.Settled(t)) continue;
    search.Steps(t, &steps);
    const PieceCost cost = PriceSteps(c, request.column_yards, base, steps);
    Leg::Entry e;
    e.node = n;
    e.seconds = cost.seconds;
    e.yards = static_cast<float>(cost.yards);
    e.mix_first = static_cast<std::uint32_t>(leg.mix.size());
    leg.mix.insert(leg.mix.end(), cost.mix.begin(), cost.mix.end());
    e.mix_end = static_cast<std::uint32_t>(leg.mix.size());
    leg.entries.push_back(e);
  }
  return leg;
}

}  // namespace walk::nav
