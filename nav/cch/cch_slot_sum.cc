#include "nav/cch/cch_slot_sum.h"

#include <cassert>

namespace walk::nav {

namespace {
constexpr std::uint32_t kNoChild = ~std::uint32_t{0};
constexpr std::uint32_t kToUnpack = kNoChild - 1;
}  // namespace

void CchSlotSum::OfEach(std::span<const SlotAt> slots, std::span<double> sums) {
  assert(sums.size() == slots.size());
  pieces_.clear();
  for (const SlotAt& at : slots) {
    metric_->PrefetchStep(at.slot, at.tail);
    pieces_.push_back({at, kNoChild, kInvalidId, 0.0});
  }
  Unpack();
  for (std::size_t i = 0; i < slots.size(); ++i) sums[i] = pieces_[i].sum;
}

void CchSlotSum::Unpack() {
  const CchMetric& metric = *metric_;
  for (std::size_t begin = 0, end = pieces_.size(); begin < end;
       begin = end, end = pieces_.size()) {
    // An input arc's value is read at once, a shortcut's from the memo before its step, as a
    // step naming a block of triangles is a search.
    for (std::size_t i = begin; i < end; ++i) {
      Piece& piece = pieces_[i];
      const std::uint32_t input = metric.InputOf(piece.at.slot, piece.at.tail);
      if (input != kInvalidId) {
        piece.sum = input_values_[input];
      } else if (auto it = memo_.find(piece.at.slot); it != memo_.end()) {
        piece.sum = it->second;
      } else {
        piece.child = kToUnpack;
        piece.entry = metric.PrefetchEntry(piece.at.slot, piece.at.tail);
      }
    }
    for (std::size_t i = begin; i < end; ++i) {
      if (pieces_[i].child == kToUnpack && pieces_[i].entry != kInvalidId)
        metric.PrefetchMiddle(pieces_[i].entry);
    }
    for (std::size_t i = begin; i < end; ++i) {
      if (pieces_[i].child != kToUnpack) continue;
      const SlotAt at = pieces_[i].at;
      const CchStep step = metric.StepOf(at.slot, at.tail);
      assert(step.to_lower != kInvalidId);
      // Through middle rank m, as UnpackSlot unpacks it: lower -> m -> upper forward, upper ->
      // m -> lower backward.
      const std::uint32_t m = step.middle;
      const bool forward = (at.slot & 1) == Cch::kForward;
      const SlotAt first{
          forward ? 2 * step.to_lower + Cch::kBackward : 2 * step.to_upper + Cch::kBackward, m};
      const SlotAt second{
          forward ? 2 * step.to_upper + Cch::kForward : 2 * step.to_lower + Cch::kForward, m};
      pieces_[i].child = static_cast<std::uint32_t>(pieces_.size());
      for (const SlotAt& half : {first, second}) {
        metric.PrefetchStep(half.slot, half.tail);
        pieces_.push_back({half, kNoChild, kInvalidId, 0.0});
      }
    }
  }
  // Halves lie after their shortcut, so from the end every shortcut's halves are summed.
  for (std::size_t i = pieces_.size(); i-- > 0;) {
    Piece& piece = pieces_[i];
    if (piece.child == kNoChild) continue;
    piece.sum = pieces_[piece.child].sum + pieces_[piece.child + 1].sum;
    if (memo_.size() >= kMaxKept) memo_.clear();
    memo_.emplace(piece.at.slot, piece.sum);
  }
}

}  // namespace walk::nav
