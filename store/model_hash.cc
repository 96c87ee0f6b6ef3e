#include "store/model_hash.h"

#include <algorithm>

#include "nav/grid/content_hash.h"

namespace walk::store {

namespace {

// What a metric decides: the cost model's constants, the profile by what it prices and the
// band's danger table.
void AddMetric(const nav::Metric& metric, nav::ContentHasher* h,
               const std::vector<std::uint16_t>* zones = nullptr) {
  nav::ContentHasher& hasher = *h;
  // The cost model: its version and every constant that prices a step (a changed constant changes
  // answers even if someone forgot the version). Lift timing is each ride's own, in the grid's
  // content id: the model's lift constants only time the lifts a builder makes.
  hasher.AddU64(nav::kCostModelVersion);
  const nav::CostModel& m = metric.model();
  for (double value : {m.run_yards_per_second, m.road, m.water, m.steep, m.climb, m.hostile,
                       m.jump_seconds, m.fall_seconds}) {
    hasher.AddDouble(value);
  }
  // The profile by what it prices, not by its name: two names for one pricing share answers.
  const nav::Profile& p = metric.profile();
  hasher.AddU64(static_cast<std::uint64_t>(p.pricing));
  hasher.AddU64(static_cast<std::uint64_t>(p.faction));
  hasher.AddU64(static_cast<std::uint64_t>(p.move));
  hasher.AddDouble(p.smoothing);
  // The band's danger table, not the band's number: bands that price alike share answers.
  auto table = metric.DangerTable();
  if (zones != nullptr) {
    std::erase_if(table, [&](const auto& entry) {
      return !std::binary_search(zones->begin(), zones->end(), entry.first);
    });
  }
  hasher.AddU64(table.size());
  for (const auto& [zone, multiplier] : table) {
    hasher.AddU64(zone);
    hasher.AddDouble(multiplier);
  }
}

}  // namespace

std::uint64_t ModelHash(const ModelInputs& inputs) {
  nav::ContentHasher hasher;
  hasher.AddString("walkd-model-v3");
  hasher.AddU64(inputs.grid_content_id);
  hasher.AddU64(inputs.walker_answer_version);
  hasher.AddU64(inputs.abstract_graph);
  AddMetric(*inputs.metric, &hasher, inputs.zones);
  return hasher.Finish();
}

std::uint64_t NavMeshModelHash(const NavMeshModelInputs& inputs) {
  nav::ContentHasher hasher;
  hasher.AddString("walkd-navmesh-model-v1");
  hasher.AddU64(inputs.navmesh_content_hash);
  hasher.AddU64(inputs.grid_content_id);
  hasher.AddU64(inputs.answer_version);
  AddMetric(*inputs.metric, &hasher);
  return hasher.Finish();
}

std::uint64_t TripModelHash(const TripModelInputs& inputs) {
  nav::ContentHasher hasher;
  hasher.AddString("walkd-trip-model-v1");
  hasher.AddU64(inputs.travel_content_hash);
  hasher.AddU64(inputs.grid_model);
  hasher.AddU64(inputs.answer_version);
  return hasher.Finish();
}

}  // namespace walk::store
