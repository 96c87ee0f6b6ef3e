#include "server/store_health.h"

#include <utility>

namespace walk::server {

StoreHealth::StoreHealth(store::WalkStore& store, WalkMetrics& metrics, OnChange on_change,
                         std::chrono::milliseconds retry)
    : store_(store), metrics_(metrics), on_change_(std::move(on_change)), retry_(retry) {
  retrier_ = std::thread([this] { RetryLoop(); });
}

StoreHealth::~StoreHealth() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  retrier_.join();
}

void StoreHealth::WriteFailed(const absl::Status& why) {
  metrics_.RecordStoreError("write");
  bool changed = false;
  std::string text;
  {
    std::lock_guard<std::mutex> lock(mu_);
    changed = !degraded_.exchange(true);
    if (changed) why_ = std::string(why.message());
    text = why_;
  }
  if (changed) {
    wake_.notify_all();
    if (on_change_) on_change_(true, text);
  }
}

void StoreHealth::ReadFailed(const absl::Status& why) {
  (void)why;  // the read is answered as a miss; the count says it happened
  metrics_.RecordStoreError("read");
}

std::string StoreHealth::why() const {
  std::lock_guard<std::mutex> lock(mu_);
  return why_;
}

void StoreHealth::RetryLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (!degraded_) {
      wake_.wait(lock, [this] { return stopping_ || degraded_.load(); });
      continue;
    }
    wake_.wait_for(lock, retry_, [this] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    // RocksDB takes writes again once the cause has passed (a full disk: it waits for room for a
    // memtable, then resumes by itself; until then Resume says it is busy). Its log writer keeps
    // the error, though: the store is opened again for a fresh one before anything is written.
    absl::Status resumed = store_.Resume();
    if (resumed.ok()) resumed = store_.Reopen();
    lock.lock();
    if (!resumed.ok()) continue;  // try again after `retry_`
    degraded_ = false;
    why_.clear();
    lock.unlock();
    if (on_change_) on_change_(false, "");
    lock.lock();
  }
}

}  // namespace walk::server
