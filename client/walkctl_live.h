// walkctl live: an operator's way into walkd's live worlds (LiveService, docs/live_grids.md):
// path, update, nearest, reachable, group and formation, each printed plainly or as JSON.
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
           *group = nullptr, *formation = nullptr;
};

// Adds `live` and its subcommands to `app`.
void AddLiveCommands(CLI::App& app, LiveArgs& args);
// True when a live subcommand was chosen.
bool LiveChosen(const LiveArgs& args);
// Runs the chosen live subcommand against `connection`; walkctl's exit code.
int RunLive(const Connection& connection, double timeout_s, const LiveArgs& args);

// "X,Y" into a cell. INVALID_ARGUMENT names `field`.
absl::StatusOr<walk::v1::Cell> ParseCell(const std::string& text, const std::string& field);
// One change, in words: add-building ID X0 Y0 X1 Y1 | remove-building ID |
// move-building ID X0 Y0 X1 Y1 | add-gate ID OWNER X0 Y0 X1 Y1 open|shut | remove-gate ID |
// open-gate ID | shut-gate ID | harvest X Y | place-tree X Y | place-boulder X Y | place-ore X Y
// (world units). INVALID_ARGUMENT naming the change and the word.
absl::StatusOr<walk::v1::BlockerChange> ParseBlockerChange(const std::string& text);

}  // namespace walk::client
