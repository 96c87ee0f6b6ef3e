#include "nav/walk_helper.h"

#include <utility>

namespace walk::nav {

WalkHelper::WalkHelper() : thread_([this] { Loop(); }) {}

WalkHelper::~WalkHelper() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::uint64_t WalkHelper::TryRun(std::function<void(CellSearch&)> job) {
  std::uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (busy_ || stop_) return 0;
    busy_ = true;
    job_ = std::move(job);
    ticket = ++issued_;
  }
  wake_.notify_one();
  return ticket;
}

void WalkHelper::Wait(std::uint64_t ticket) {
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [&] { return done_ >= ticket; });
}

void WalkHelper::Both(absl::FunctionRef<void()> here, absl::FunctionRef<void()> there) {
  const std::uint64_t ticket = TryRun([&](CellSearch&) { there(); });
  here();
  if (ticket != 0) {
    Wait(ticket);
  } else {
    there();
  }
}

void WalkHelper::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || job_ != nullptr; });
    if (job_ == nullptr) return;  // stopping, nothing handed over
    std::function<void(CellSearch&)> job = std::move(job_);
    job_ = nullptr;
    const std::uint64_t ticket = issued_;
    lock.unlock();
    job(search_);
    lock.lock();
    done_ = ticket;
    busy_ = false;
    done_cv_.notify_all();
  }
}

}  // namespace walk::nav
