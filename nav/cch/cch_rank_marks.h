// A set of a hierarchy's ranks as a two-level bitmap: a bit a rank, and a bit a 64-rank word of
// them that has any, so that the ranks a query marks come out in ascending order without a sort.
#pragma once

#include <cstdint>
#include <vector>

namespace walk::nav {

// Sized once; Collect clears what it reads, so nothing is cleared per query. Not thread-safe.
class CchRankMarks {
 public:
  explicit CchRankMarks(std::uint32_t rank_count);

  // Marks rank r (below the rank count).
  void Mark(std::uint32_t r) {
    bits_[r / 64] |= std::uint64_t{1} << (r % 64);
    words_[r / 4096] |= std::uint64_t{1} << (r / 64 % 64);
  }
  // Sets `ranks` to the marked ranks, ascending, and clears the marks.
  void Collect(std::vector<std::uint32_t>* ranks);

 private:
  std::vector<std::uint64_t> bits_;   // by rank / 64: a bit a rank
  std::vector<std::uint64_t> words_;  // by rank / 4096: a bit a word of bits_ that has any
};

}  // namespace walk::nav
