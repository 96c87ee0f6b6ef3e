// Clearance: how far each cell's centre lies from anything closed, per passability, so that wide
// bodies can be searched without inflating the grid per query.
//
// A cell's clearance d is the distance from its centre to the nearest point of any cell closed to
// the passability; the cells just outside the map count as closed. A closed cell has d = 0, an
// open cell beside a closed one d = 0.5, an open cell with a closed diagonal neighbour only
// d = √2 / 2. It is stored exactly as the integer 4·d²: for a closed cell at offset (dx, dy),
// 4·d² = max(2|dx| − 1, 0)² + max(2|dy| − 1, 0)². Values are capped at kClearanceCap = 4 ·
// kMaxBodyRadius² (d = 8 cells): nothing further away can matter to a body the API accepts.
//
// Computed separably: per row, the nearest closed column within the cap on either side; then per
// cell, the minimum over the rows within the cap above and below. A block of cells costs
// O(cells · kClearanceReach). A closed cell changes the clearance of cells at most
// kClearanceReach cells away (Chebyshev), so after the cells of a rectangle changed, Update
// recomputes that rectangle grown by kClearanceReach and nothing else; where no cell within the
// reach of that block is open to one passability only (no forest), the heavy map copies the
// light one instead of computing it again.
//
// What a body needs (BodyClass): a cell is enterable by a body of radius r when it is open and
// its clearance is at least r (touching is allowed: r = 0.5 fits a one-cell corridor, r = 1.5
// needs three cells). A formation of half-width w pays an overlap price on entering a cell whose
// clearance is below w (OverlapPrice); nothing is refused for it.
//
// Memory: 2 bytes a cell per passability, plus scratch of 2 bytes a cell of the block being
// computed and its reach (the whole map after a full computation; kept).
//
// Thread safety: const members may be called concurrently; ComputeAll and Update need exclusive
// access (LiveGrid's rebuilds, under the world's exclusive lock).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "nav/live/cell.h"

namespace walk::nav::live {

// The largest body radius and formation half-width accepted, in cells. Larger ones are
// INVALID_ARGUMENT (ValidateBody).
inline constexpr double kMaxBodyRadius = 8.0;
// Cells (Chebyshev) within which a closed cell can lower a clearance below the cap.
inline constexpr std::int32_t kClearanceReach = 8;
// The stored cap, as 4·d²: 4 · kMaxBodyRadius².
inline constexpr std::uint16_t kClearanceCap = 256;
static_assert(kClearanceCap == 4 * kClearanceReach * kClearanceReach, "cap and reach agree");
// The overlap price at zero clearance: two straight steps' worth. See OverlapPrice.
inline constexpr std::uint32_t kOverlapCost = 20;
// Formation half-widths are used in steps of 1/kHalfWidthSteps cell, rounded up.
inline constexpr std::int32_t kHalfWidthSteps = 16;

// A body as searches and yes/no tests use it: two small integers, so that equal classes give
// equal answers (the path cache keys on them).
struct BodyClass {
  // The clearance a cell needs, as 4·d²: ceil(4·radius²). 0: any open cell (radius 0).
  std::uint16_t need = 0;
  // The formation half-width in 1/kHalfWidthSteps cell, rounded up. 0: no overlap price.
  std::uint16_t half_width = 0;
  bool wide() const { return need != 0 || half_width != 0; }
  friend bool operator==(const BodyClass&, const BodyClass&) = default;
};

// OK when `radius` and `half_width` (cells) are finite and within [0, kMaxBodyRadius]; else
// INVALID_ARGUMENT naming `radius` or `formation_half_width`.
absl::Status ValidateBody(double radius, double half_width);
// The class of a validated body.
BodyClass ClassifyBody(double radius, double half_width = 0.0);

// The overlap price of entering an open cell of clearance `clearance4` (as 4·d²) for a formation
// of half-width w = half_width / kHalfWidthSteps: round(kOverlapCost · (w − d) / w) when d < w,
// else 0. At most kOverlapCost − 1 (an open cell has d >= 0.5).
std::uint32_t OverlapPrice(std::uint16_t clearance4, std::uint16_t half_width);
// OverlapPrice for every clearance 0 .. kClearanceCap, as a table of kClearanceCap + 1 entries.
void FillOverlapTable(std::uint16_t half_width, std::uint8_t* table);

class Clearance {
 public:
  // Sizes the map for a width × height grid. Values are undefined until ComputeAll.
  void Resize(std::int32_t width, std::int32_t height);
  // Computes every cell from the open bits of `flags` (LiveGrid's: kLightOpen, kHeavyOpen).
  void ComputeAll(const std::uint8_t* flags);
  // Brings the map up to date after the cells of `changed` (clipped to the map) changed and no
  // other cell did.
  void Update(const std::uint8_t* flags, const CellRect& changed);

  // The clearance of cell `i` for `p`, as 4·d², capped at kClearanceCap.
  std::uint16_t At(CellIndex i, Passability p) const { return values_[Slot(p)][i]; }
  const std::uint16_t* values(Passability p) const { return values_[Slot(p)].data(); }
  std::size_t MemoryBytes() const;

  // Compute's buffers, kept between calls.
  struct Scratch {
    std::vector<std::uint16_t> terms;  // per row of the block and its reach: horizontal terms
    std::vector<std::uint8_t> closed;  // one row's columns: 0 closed, else far
    std::vector<std::uint8_t> near;    // one row's distances to the nearest closed column
    std::vector<std::int16_t> row;     // one output row, before it is copied out
  };
  // The clearances of `r` (inside the map) for cells open when flags[i] & open_bit, computed from
  // scratch into out[y * width + x] (a whole map's array). Update and tests use it.
  static void Compute(const std::uint8_t* flags, std::uint8_t open_bit, std::int32_t width,
                      std::int32_t height, const CellRect& r, std::uint16_t* out, Scratch* scratch);

 private:
  static int Slot(Passability p) { return static_cast<int>(p); }

  std::int32_t width_ = 0;
  std::int32_t height_ = 0;
  std::vector<std::uint16_t> values_[kPassabilityCount];
  Scratch scratch_;
};

}  // namespace walk::nav::live
