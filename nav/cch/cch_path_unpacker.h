// The end of every CCH query: the meeting of its two directions turned into a result, and the
// path through it unpacked, shortcut by shortcut, to input arcs.
#pragma once

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "nav/cch/cch.h"
#include "nav/cch/cch_metric.h"
#include "nav/cch/cch_metric_patch.h"
#include "nav/cch/cch_request.h"
#include "nav/grid/ids.h"

namespace walk::nav {

// Runs its two arguments, side by side where a second thread is free (e.g. HelperThread).
using CchRunBoth = absl::FunctionRef<void(absl::FunctionRef<void()>, absl::FunctionRef<void()>)>;
// A CchRunBoth on this thread alone: the first, then the second.
inline void CchOneAfterTheOther(absl::FunctionRef<void()> first, absl::FunctionRef<void()> second) {
  first();
  second();
}

// A slot still to unpack: its arc, direction and the arc's lower rank.
struct CchPendingSlot {
  std::uint32_t arc, direction, tail;
};

// Appends the input arcs of slot 2 * top.arc + top.direction (through `patch` over `metric` when
// non-null) to `arc_path`, with `stack` as scratch.
void UnpackSlot(const CchMetric& metric, const CchMetricPatch* patch, CchPendingSlot top,
                std::vector<CchPendingSlot>* stack, std::vector<std::uint32_t>* arc_path);

// Reusable: its scratch is kept from one path to the next. One per query object; not
// thread-safe, except that Conclude's two halves may run on two threads. Keeps a pointer to the
// Cch, which must outlive it.
class CchPathUnpacker {
 public:
  explicit CchPathUnpacker(const Cch& cch) : cch_(&cch) {}

  // A meeting at `meet` (kInvalidId: none) of cost `cost` as a result, its path appended to
  // `arc_path` when that is non-null. `step(d, r)` gives the lower rank and the arc rank r of
  // direction d was reached from ({kInvalidId, _} at an endpoint); `endpoint(d, r)` the index of
  // the endpoint at such a bottom rank. The way up and the way down unpack apart, by `both` (on
  // two threads where it finds them: a path's arcs are read at random places of the metric,
  // hundreds of misses each half). With `patch`, the path is the patched metric's.
  template <typename Step, typename EndpointAt>
  CchResult Conclude(const CchMetric& metric, std::uint32_t meet, double cost, Step step,
                     EndpointAt endpoint, std::vector<std::uint32_t>* arc_path,
                     CchRunBoth both = CchOneAfterTheOther, const CchMetricPatch* patch = nullptr);

 private:
  using Pending = CchPendingSlot;

  const Cch* cch_;
  // The arcs up to the meeting (top down) and down from it, each with its lower rank, and each
  // half's unpacking scratch; the way down's input arcs until they follow the way up's.
  std::vector<Pending> chain_, down_arcs_;
  std::vector<std::uint32_t> down_path_;
  std::vector<Pending> unpack_stack_[2];
};

template <typename Step, typename EndpointAt>
CchResult CchPathUnpacker::Conclude(const CchMetric& metric, std::uint32_t meet, double cost,
                                    Step step, EndpointAt endpoint,
                                    std::vector<std::uint32_t>* arc_path, CchRunBoth both,
                                    const CchMetricPatch* patch) {
  CchResult result;
  if (meet == kInvalidId) return result;  // (cost may be the `below` no way beat)
  result.cost = cost;
  result.found = true;
  // Up from the source to the meeting rank (collected top down, unpacked bottom up), then
  // down to the target.
  chain_.clear();
  std::uint32_t r = meet;
  for (auto s = step(Cch::kForward, r); s.first != kInvalidId; s = step(Cch::kForward, r)) {
    chain_.push_back({s.second, Cch::kForward, s.first});
    r = s.first;
  }
  result.source = endpoint(Cch::kForward, r);
  down_arcs_.clear();
  r = meet;
  for (auto s = step(Cch::kBackward, r); s.first != kInvalidId; s = step(Cch::kBackward, r)) {
    down_arcs_.push_back({s.second, Cch::kBackward, s.first});
    r = s.first;
  }
  result.target = endpoint(Cch::kBackward, r);
  if (arc_path != nullptr) {
    down_path_.clear();
    both(
        [&] {
          for (auto it = chain_.rbegin(); it != chain_.rend(); ++it) {
            UnpackSlot(metric, patch, *it, &unpack_stack_[0], arc_path);
          }
        },
        [&] {
          for (const Pending& arc : down_arcs_) {
            UnpackSlot(metric, patch, arc, &unpack_stack_[1], &down_path_);
          }
        });
    arc_path->insert(arc_path->end(), down_path_.begin(), down_path_.end());
  }
  return result;
}

}  // namespace walk::nav
