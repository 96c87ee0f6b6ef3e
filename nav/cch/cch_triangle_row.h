// Relaxing one row of lower triangles, the inner loop of CCH customization, on one lane or on
// eight doubles or sixteen floats (AVX-512, chosen at run time where the processor has it).
#pragma once

#include <cstdint>

namespace walk::nav {

// The arrays one customization reads and writes, by hierarchy arc, its costs in doubles or (a
// metric in whole ticks, nav/cch/cch_weights.h) in floats.
template <typename W>
struct TriangleArrays {
  const std::uint32_t* head;      // arc -> upper end
  const std::uint32_t* position;  // rank b -> arc (a, b), for the rank a being settled
  W* forward;                     // arc -> cost lower -> upper
  W* backward;                    // arc -> cost upper -> lower
  // Arc z's via is at forward_via[z - via_first] (backward_via alike): arrays over every arc
  // (0), or over the settled rank's arcs alone (its first arc).
  std::uint32_t* forward_via;  // how its forward cost was found
  std::uint32_t* backward_via;
  std::uint32_t via_first = 0;
};

// The triangles {v, a, b} through one arc x = (v, a): for every arc y = (v, b) in
// [y_begin, y_end), b above a, arc z = (a, b) = position[head[y]] is bounded by a -> v -> b
// forward and b -> v -> a backward; where that is cheaper, its cost drops and its via becomes
// `middle`. The z of one row are distinct, so the vector version writes the same costs and vias
// as the one-lane one.
void RelaxTriangleRow(const TriangleArrays<double>& arrays, std::uint32_t y_begin,
                      std::uint32_t y_end, double a_to_v, double v_to_a, std::uint32_t middle);
void RelaxTriangleRow(const TriangleArrays<float>& arrays, std::uint32_t y_begin,
                      std::uint32_t y_end, float a_to_v, float v_to_a, std::uint32_t middle);

// Whether RelaxTriangleRow runs on vector lanes: where the processor has AVX-512, unless turned
// off (tests compare both ways). Returns whether it is on after the call.
bool UseVectorTriangles(bool on);
bool VectorTriangles();

}  // namespace walk::nav
