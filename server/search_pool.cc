#include "server/search_pool.h"

#include <algorithm>

namespace walk::server {

SearchPool::SearchPool(int threads) {
  for (int i = 0; i < std::max(1, threads); ++i) threads_.emplace_back([this] { Run(); });
}

SearchPool::~SearchPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void SearchPool::Submit(Task task, Priority priority, const void* call) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (priority == Priority::kBatch) {
      batch_.push_back(std::move(task));
    } else {
      // A call's tasks come together most often: its entry is looked for from the back.
      auto queued = call == nullptr
                        ? interactive_.rend()
                        : std::find_if(interactive_.rbegin(), interactive_.rend(),
                                       [call](const CallTasks& c) { return c.call == call; });
      if (queued != interactive_.rend()) {
        queued->tasks.push_back(std::move(task));
      } else {
        interactive_.push_back({call, {}});
        interactive_.back().tasks.push_back(std::move(task));
      }
    }
  }
  wake_.notify_one();
}

std::size_t SearchPool::Pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::size_t pending = batch_.size();
  for (const CallTasks& c : interactive_) pending += c.tasks.size();
  return pending;
}

SearchPool::Task SearchPool::TakeLocked() {
  Task task;
  if (!interactive_.empty()) {
    CallTasks& front = interactive_.front();
    task = std::move(front.tasks.front());
    front.tasks.pop_front();
    if (!front.tasks.empty()) interactive_.push_back(std::move(front));
    interactive_.pop_front();
  } else if (!batch_.empty()) {
    task = std::move(batch_.front());
    batch_.pop_front();
  }
  return task;
}

void SearchPool::Run() {
  nav::Searchers searchers;
  for (;;) {
    Task task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      wake_.wait(lock, [this] { return stopping_ || !interactive_.empty() || !batch_.empty(); });
      task = TakeLocked();
      if (!task) return;  // stopping, and nothing left to run
    }
    task(searchers);
  }
}

}  // namespace walk::server
