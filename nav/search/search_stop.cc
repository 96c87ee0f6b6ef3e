#include "nav/search/search_stop.h"

#include "absl/strings/str_cat.h"

namespace walk::nav {

absl::Status SearchStop::Check(std::uint64_t expanded) const {
  if (expanded >= budget) {
    return absl::ResourceExhaustedError(
        absl::StrCat("search: gave up after ", expanded,
                     " surfaces or nodes expanded (walkd's --max-search-expansions)"));
  }
  if (wanted) {
    if (absl::Status still = wanted(); !still.ok()) return still;
  }
  if (deadline != Clock::time_point::max() && Clock::now() >= deadline) {
    return absl::DeadlineExceededError("the call's deadline passed: the search was stopped");
  }
  return absl::OkStatus();
}

}  // namespace walk::nav
