#include "nav/abstract/helper_thread.h"

#include <chrono>
#include <utility>

namespace walk::nav {
namespace {

// How long each side spins before it sleeps (see the header).
constexpr auto kHelperSpin = std::chrono::microseconds(400);
constexpr auto kWaitSpin = std::chrono::microseconds(2000);

// Spins until `ready()` or `limit` has passed; returns ready().
template <typename Ready>
bool SpinFor(std::chrono::microseconds limit, Ready ready) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (unsigned i = 1;; ++i) {
    if (ready()) return true;
    if (i % 64 == 0) {
      if (std::chrono::steady_clock::now() >= deadline) return ready();
      std::this_thread::yield();
    }
#if defined(__x86_64__)
    __builtin_ia32_pause();
#endif
  }
}

}  // namespace

HelperThread::HelperThread() : thread_([this] { Loop(); }) {}

HelperThread::~HelperThread() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::uint64_t HelperThread::TryRun(std::function<void(CellSearch&)> job) {
  std::uint64_t ticket;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (busy_ || stop_) return 0;
    busy_ = true;
    job_ = std::move(job);
    ticket = ++issued_;
    has_job_.store(true, std::memory_order_release);
  }
  wake_.notify_one();
  return ticket;
}

void HelperThread::Wait(std::uint64_t ticket) {
  if (SpinFor(kWaitSpin, [&] { return done_.load(std::memory_order_acquire) >= ticket; })) return;
  std::unique_lock<std::mutex> lock(mu_);
  done_cv_.wait(lock, [&] { return done_.load(std::memory_order_relaxed) >= ticket; });
}

void HelperThread::Both(absl::FunctionRef<void()> here, absl::FunctionRef<void()> there) {
  const std::uint64_t ticket = TryRun([&](CellSearch&) { there(); });
  here();
  if (ticket != 0) {
    Wait(ticket);
  } else {
    there();
  }
}

void HelperThread::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    if (!stop_ && job_ == nullptr) {
      lock.unlock();
      SpinFor(kHelperSpin, [&] { return has_job_.load(std::memory_order_acquire); });
      lock.lock();
    }
    wake_.wait(lock, [&] { return stop_ || job_ != nullptr; });
    if (job_ == nullptr) return;  // stopping, nothing handed over
    std::function<void(CellSearch&)> job = std::move(job_);
    job_ = nullptr;
    has_job_.store(false, std::memory_order_relaxed);
    const std::uint64_t ticket = issued_;
    lock.unlock();
    job(search_);
    lock.lock();
    done_.store(ticket, std::memory_order_release);
    busy_ = false;
    done_cv_.notify_all();
  }
}

}  // namespace walk::nav
