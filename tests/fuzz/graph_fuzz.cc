// Abstract graph files (nav/abstract/abstract_graph_format.h): ParseAbstractGraph for the fuzz
// world (fuzz_support.h), as LoadAbstractGraph reads graph.walkgraph beside its grid, and again
// with the sections' checksums left unchecked, so that bytes no writer made reach the checks of
// the arrays themselves (a mutation almost never keeps a CRC-32C whole). A graph either accepts
// must be sound: arrays of matching lengths, an order that is a permutation, every arc between
// nodes that exist, a price for every arc and profile.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "nav/abstract/abstract_graph_format.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

void CheckParsed(const walk::nav::World& world, const std::string& bytes, bool verify) {
  using namespace walk;
  nav::GraphParseOptions options;
  options.verify_checksums = verify;
  absl::StatusOr<nav::AbstractGraph> graph =
      nav::ParseAbstractGraph(world, bytes, "fuzz/graph.walkgraph", options);
  if (!graph.ok()) {
    const absl::StatusCode code = graph.status().code();
    WALK_FUZZ_CHECK(code == absl::StatusCode::kDataLoss ||
                    code == absl::StatusCode::kFailedPrecondition);
    return;
  }
  WALK_FUZZ_CHECK(graph->continents.size() == world.continents.size());
  for (const nav::ContinentGraph& g : graph->continents) {
    const std::size_t n = g.node_surface.size();
    WALK_FUZZ_CHECK(g.first_arc.size() == n + 1 && g.order.size() == n);
    std::vector<bool> seen(n, false);
    for (std::uint32_t node : g.order) {
      WALK_FUZZ_CHECK(node < n && !seen[node]);
      seen[node] = true;
    }
    for (std::uint32_t head : g.arc_head) WALK_FUZZ_CHECK(head < n);
    WALK_FUZZ_CHECK(g.prices.size() == graph->profiles.size());
    for (const nav::ArcPrices& p : g.prices) {
      WALK_FUZZ_CHECK(p.seconds.size() == g.arc_head.size());
      WALK_FUZZ_CHECK(p.mix_first.size() == g.arc_head.size() + 1);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const walk::nav::World& world = walk::fuzz::FuzzWorld();
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  CheckParsed(world, bytes, /*verify=*/true);
  CheckParsed(world, bytes, /*verify=*/false);
  return 0;
}
