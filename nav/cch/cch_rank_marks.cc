#include "nav/cch/cch_rank_marks.h"

#include <bit>

namespace walk::nav {

CchRankMarks::CchRankMarks(std::uint32_t rank_count)
    : bits_((rank_count + 63) / 64, 0), words_((bits_.size() + 63) / 64, 0) {}

void CchRankMarks::Collect(std::vector<std::uint32_t>* ranks) {
  // Each 64-rank word of marks that has any is itself marked one level up, so a scan of the
  // upper level finds them in order.
  ranks->clear();
  for (std::size_t u = 0; u < words_.size(); ++u) {
    for (std::uint64_t upper = words_[u]; upper != 0; upper &= upper - 1) {
      const std::size_t word = u * 64 + static_cast<std::size_t>(std::countr_zero(upper));
      for (std::uint64_t marks = bits_[word]; marks != 0; marks &= marks - 1) {
        ranks->push_back(static_cast<std::uint32_t>(
            word * 64 + static_cast<std::size_t>(std::countr_zero(marks))));
      }
      bits_[word] = 0;
    }
    words_[u] = 0;
  }
}

}  // namespace walk::nav
