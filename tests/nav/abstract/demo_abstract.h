// The 2 x 2-tile demo world (zones of every danger level, towns, roads, water, floors, lifts)
// and its abstract graph: what the abstract-graph tests walk on.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/demo/demo_world.h"

namespace walk::nav::testing {

// Generated once per test binary.
inline const World& DemoWorld() {
  static const World* world = [] {
    DemoOptions options;
    options.tiles_x = options.tiles_y = 2;
    auto generated = GenerateDemoWorld(options);
    EXPECT_TRUE(generated.ok()) << generated.status();
    return new World(generated.ok() ? *std::move(generated) : World());
  }();
  return *world;
}

// `world`'s abstract graph for `profiles`; empty (and a test failure) when it cannot be built.
inline AbstractGraph Prepare(const World& world, std::vector<std::string> profiles) {
  AbstractGraphOptions options;
  options.profiles = std::move(profiles);
  auto graph = BuildAbstractGraph(world, options);
  EXPECT_TRUE(graph.ok()) << graph.status();
  return graph.ok() ? *std::move(graph) : AbstractGraph();
}

}  // namespace walk::nav::testing
