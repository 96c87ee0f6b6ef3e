// Which of the plan's features a tile (or a query) must look at. Internal to nav/demo.
#pragma once

#include <cstdint>
#include <vector>

namespace walk::nav::demo {

// Indices into the plan's features, each list increasing.
struct Context {
  std::vector<std::uint32_t> rivers, lakes, towns, bridges, crags, mesas, buildings;
};

}  // namespace walk::nav::demo
