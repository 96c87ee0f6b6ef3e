// Draws a walk over the ground around it as SVG, so a person can look at a walk instead of
// reading it: each column shaded by its top surface's kind of ground (lighter where floors
// stack), every zone tinted and bordered, the zones the walk's band prices hatched with their
// multiplier, lift landings marked, the path as a line with its ends and falls, a legend of
// everything drawn, and the figures in a caption.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "walk/v1/walk.pb.h"

namespace walk::client {

// A zone of the world (WorldInfo.zones) and what the walk's band charges for entering it.
struct DrawZone {
  std::uint32_t id = 0;
  std::string name;
  std::uint32_t min_level = 0;
  std::uint32_t max_level = 0;
  // The danger multiplier the band charges in this zone (nav/cost/danger.h): 1 when it charges
  // nothing extra, 3 or 20 when it prices the zone. Whether the zone is an end's zone, and so
  // exempt, the drawing reads from the path itself.
  double multiplier = 1.0;
};

// What a drawing needs besides the replies.
struct DrawOptions {
  // The stride the ground was asked with, columns; 0 counts as 1.
  std::uint32_t stride = 1;
  // The danger band the walk was asked in, and whether its profile prices danger in it (false in
  // band 0 and for "shortest", which ignores bands).
  std::uint32_t band = 0;
  bool prices_danger = false;
  // The world's zones, any order. A zone the ground shows but this lacks is drawn under its id,
  // with its levels unknown and no danger.
  std::vector<DrawZone> zones;
  // The line under the drawing.
  std::string caption;
};

// Returns a complete SVG document: `path` drawn over `ground` (the columns around the walk, as
// Floors answers them, in the world's frame, at `options.stride`), with a legend listing every
// kind of ground, mark and zone the drawing shows. The zones of the walk's ends
// (path.walk().from_end / to_end) are exempt, as walkd prices them, and are never hatched.
// Reads nothing but its arguments.
std::string DrawWalkSvg(const walk::v1::PathResponse& path, const walk::v1::FloorsResponse& ground,
                        const DrawOptions& options);

}  // namespace walk::client
