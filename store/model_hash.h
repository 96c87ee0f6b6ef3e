// The model: everything that decides a walk's answer, hashed into the half of every store key
// that is not the ends. Nothing that does not change an answer goes in (not a world's folder
// name, not a log setting, not the source code), so an unchanged model keeps its answers and a
// changed one can never return a stale answer.
#pragma once

#include <cstdint>
#include <string>

#include "nav/profile.h"

namespace walk::store {

// The walker's answer version: bump it whenever the walker answers differently for the same
// ends on the same grid (a fix in snapping, searching or measuring). Old answers stop matching.
inline constexpr std::uint32_t kWalkerAnswerVersion = 1;

struct ModelInputs {
  std::uint64_t grid_content_id = 0;  // nav::World::content_id
  const nav::Profile* profile = nullptr;
  std::uint32_t walker_answer_version = kWalkerAnswerVersion;
};

// The model hash of `inputs`: stable across runs, machines and builds.
std::uint64_t ModelHash(const ModelInputs& inputs);

}  // namespace walk::store
