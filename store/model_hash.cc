#include "store/model_hash.h"

#include "nav/content_hash.h"

namespace walk::store {

std::uint64_t ModelHash(const ModelInputs& inputs) {
  nav::ContentHasher hasher;
  hasher.AddString("walkd-model-v1");
  hasher.AddU64(inputs.grid_content_id);
  hasher.AddU64(inputs.walker_answer_version);
  // The profile by what it prices, not by its name: two names for one pricing share answers.
  const nav::Profile& p = *inputs.profile;
  hasher.AddDouble(p.run_yards_per_second);
  for (double multiplier : p.kind_multiplier) hasher.AddDouble(multiplier);
  hasher.AddDouble(p.smoothing);
  return hasher.Finish();
}

}  // namespace walk::store
