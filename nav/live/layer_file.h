// The layer file: a small line-oriented text format placing what a map's characters cannot say
// (buildings with their ids, gates with their owners, crossings, forests, ...) onto a Layers.
//
// One item per line; words separated by spaces or tabs; '#' starts a comment; blank lines are
// ignored. Coordinates are world units (cells are `cell_size` units wide, the top-left corner of
// cell (0, 0) at `origin`); rectangles go through CellsCovering (the cells they cover with area); a
// point names the cell holding it. Ids are unsigned 32-bit integers, unique across buildings and
// gates.
//
//   cell_size S                           world units per cell (default 1); before any placement
//   origin X Y                            cell (0, 0)'s top-left corner (default 0 0); the same
//   ground|blocked|mountain|river X0 Y0 X1 Y1   terrain over the covered cells
//   forest X0 Y0 X1 Y1                    forest floor (light units only)
//   road X0 Y0 X1 Y1                      road: never forest
//   bridge X0 Y0 X1 Y1                    bridge deck (a map crossing, a portal)
//   entrance X0 Y0 X1 Y1                  hill entrance (a map crossing, a portal)
//   tree|boulder|ore X Y                  a harvestable resource on the cell holding (X, Y)
//   building ID X0 Y0 X1 Y1               a solid footprint
//   gate ID OWNER X0 Y0 X1 Y1 open|shut   a gate in structure OWNER
//   gap OWNER X0 Y0 X1 Y1                 a permanent gap in structure OWNER's wall
//
// Lines apply in order, so a later terrain rectangle overrides an earlier one.
#pragma once

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "nav/live/layers.h"

namespace walk::nav::live {

// Applies layer text to `layers`. Errors: INVALID_ARGUMENT "layer line N: ..." naming the line
// (unknown keyword, wrong word count, bad number, point off the map, rectangle covering no cell),
// ALREADY_EXISTS for a repeated id. On error `layers` holds the lines before the bad one.
absl::Status ApplyLayerText(absl::string_view text, Layers* layers);

// Reads and applies a layer file. Errors: NOT_FOUND when it cannot be opened, else those of
// ApplyLayerText prefixed with the path.
absl::Status ApplyLayerFile(const std::string& path, Layers* layers);

}  // namespace walk::nav::live
