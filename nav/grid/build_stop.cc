#include "nav/grid/build_stop.h"

#include <string>

namespace walk::nav {

absl::Status BuildStop::Check(std::string_view what) const {
  return requested() ? Stopped(what) : absl::OkStatus();
}

absl::Status BuildStop::Stopped(std::string_view what) {
  return absl::CancelledError(std::string(what) + ": stopped before it was done");
}

}  // namespace walk::nav
