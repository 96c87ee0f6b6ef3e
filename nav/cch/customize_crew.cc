#include "nav/cch/customize_crew.h"

namespace walk::nav {

bool CustomizeCrew::Join() {
  std::optional<absl::FunctionRef<bool()>> work;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!work_.has_value() || drained_ || working_ >= most_) return false;
    work.emplace(*work_);
    ++working_;
  }
  const bool worked = (*work)();
  std::lock_guard<std::mutex> lock(mu_);
  if (worked) {
    ++joined_;
  } else {
    drained_ = true;
  }
  if (--working_ == 0) left_.notify_all();
  return worked;
}

void CustomizeCrew::Open(absl::FunctionRef<bool()> work, unsigned most) {
  std::lock_guard<std::mutex> lock(mu_);
  work_.emplace(work);
  drained_ = false;
  most_ = most;
}

void CustomizeCrew::Close() {
  std::unique_lock<std::mutex> lock(mu_);
  work_.reset();
  left_.wait(lock, [this] { return working_ == 0; });
}

std::uint64_t CustomizeCrew::joined() const {
  std::lock_guard<std::mutex> lock(mu_);
  return joined_;
}

}  // namespace walk::nav
