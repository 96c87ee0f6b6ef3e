// Draws a walk over the ground around it as SVG, so a person can look at a walk instead of
// reading it: each column shaded by its top surface's kind of ground (darker where floors stack),
// the path as a line, its ends and falls marked, the figures in a caption.
#pragma once

#include <string>

#include "walk/v1/walk.pb.h"

namespace walk::client {

// `ground` holds the columns around the walk (FloorsResponse, any stride); `stride` is the
// stride it was asked with. Returns a complete SVG document.
std::string DrawWalkSvg(const walk::v1::PathResponse& path, const walk::v1::FloorsResponse& ground,
                        std::uint32_t stride, const std::string& caption);

}  // namespace walk::client
