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
  struct Pending {
    std::uint32_t arc, direction;
  };
  // Appends the input arcs of slot 2 * arc + direction, with `stack` as scratch.
  void Unpack(const CchMetric& metric, const CchMetricPatch* patch, std::uint32_t arc,
              std::uint32_t direction, std::vector<Pending>* stack,
              std::vector<std::uint32_t>* arc_path) const;

  const Cch* cch_;
  // The arcs up to the meeting (top down), the arcs down from it, and each half's unpacking
  // scratch; the way down's input arcs until they follow the way up's.
  std::vector<std::uint32_t> chain_, down_arcs_, down_path_;
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
    chain_.push_back(s.second);
    r = s.first;
  }
  result.source = endpoint(Cch::kForward, r);
  down_arcs_.clear();
  r = meet;
  for (auto s = step(Cch::kBackward, r); s.first != kInvalidId; s = step(Cch::kBackward, r)) {
    down_arcs_.push_back(s.second);
    r = s.first;
  }
  result.target = endpoint(Cch::kBackward, r);
  if (arc_path != nullptr) {
    down_path_.clear();
    both(
        [&] {
          for (auto it = chain_.rbegin(); it != chain_.rend(); ++it) {
            Unpack(metric, patch, *it, Cch::kForward, &unpack_stack_[0], arc_path);
          }
        },
        [&] {
          for (const std::uint32_t arc : down_arcs_) {
            Unpack(metric, patch, arc, Cch::kBackward, &unpack_stack_[1], &down_path_);
          }
        });
    arc_path->insert(arc_path->end(), down_path_.begin(), down_path_.end());
  }
  return result;
}

}  // namespace walk::nav
