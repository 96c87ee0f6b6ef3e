// walkctl live: an operator's way into walkd's live worlds (LiveService, docs/live_grids.md):
// create, reset, drop and list worlds; path, update, nearest, reachable, group, formation, cell
// and work-cell, each printed plainly or as JSON. Places are cells, or world units with
// `--units world`; replies print both.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/statusor.h"
#include "client/connection.h"
#include "walk/v1/walk.pb.h"

namespace walk::client {

struct LiveArgs {
  std::string world;
  bool heavy = false;  // heavy passability (cavalry, siege): forest blocks
  bool json = false;
  std::string units = "cells";  // how places, radius and slot offsets are read: cells or world
  double radius = 0.0;          // the body's radius, in `units`
  double half_width = 0.0;      // a formation's lateral half-extent, in `units`
  // create
  std::string map_file, layers_file, origin;
  double cell_size = 0.0;
  // path
  bool recover = false;
  // work-cell
  std::string target;
  // path
  std::string from, to;
  bool keep_goal = false;
  std::uint64_t unit = 0;
  // update: one change per argument, e.g. "shut-gate 20" (ParseBlockerChange)
  std::vector<std::string> changes;
  // nearest
  std::string cell;
  // reachable
  std::string a, b;
  // group
  std::string starts, goal;
  // formation (and group with --slots)
  std::string center, slots, formation_from;
  double facing_degrees = 0.0;

  CLI::App *path = nullptr, *update = nullptr, *nearest = nullptr, *reachable = nullptr,
           *group = nullptr, *formation = nullptr, *create = nullptr, *reset = nullptr,
           *drop = nullptr, *list = nullptr, *cell_at = nullptr, *work_cell = nullptr;
};

// Adds `live` and its subcommands to `app`.
void AddLiveCommands(CLI::App& app, LiveArgs& args);
// True when a live subcommand was chosen.
bool LiveChosen(const LiveArgs& args);
// Runs the chosen live subcommand against `connection`; walkctl's exit code.
int RunLive(const Connection& connection, double timeout_s, const LiveArgs& args);

// "X,Y" into a cell. INVALID_ARGUMENT names `field`.
absl::StatusOr<walk::v1::Cell> ParseCell(const std::string& text, const std::string& field);
// "X,Y" into `cell` (whole numbers), or with `world` into `point` (world units). INVALID_ARGUMENT
// names `field`.
absl::Status ParsePlace(const std::string& text, const std::string& field, bool world,
                        walk::v1::Cell* cell, walk::v1::LivePoint* point);
// One change, in words: add-building ID X0 Y0 X1 Y1 | remove-building ID |
// move-building ID X0 Y0 X1 Y1 | add-gate ID OWNER X0 Y0 X1 Y1 open|shut | remove-gate ID |
// open-gate ID | shut-gate ID | harvest X Y | place-tree X Y | place-boulder X Y | place-ore X Y
// (world units). INVALID_ARGUMENT naming the change and the word.
absl::StatusOr<walk::v1::BlockerChange> ParseBlockerChange(const std::string& text);

}  // namespace walk::client
