// A recorded walk as walkgrid's trail tools read it: JSON lines, one position a line,
//   {"x": 12.5, "y": -40.0}                      x, y yards in the world's frame
//   {"walk": "w2", "x": 13.0, "y": -41.5, "z": 3.2}
// "walk" (a string or a number) separates several walks in one file: a position whose walk
// differs from the one before starts a new walk. "z", the height the walk was recorded at, is
// optional; null is the same as absent. Blank lines are skipped.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/statusor.h"

namespace walk::client {

struct TrailPosition {
  std::uint64_t index = 0;    // among the trail's positions, from 0
  std::string walk = "null";  // the "walk" value's JSON text ("null" when the line has none)
  double x_yards = 0.0;       // in the world's frame
  double y_yards = 0.0;
  std::optional<double> z_yards;  // the recorded height, when the line has one
};

// Reads positions one at a time from a stream it does not own (memory stays one line).
class TrailReader {
 public:
  // `name` starts every error message ("trail", "--trail walk.jsonl").
  TrailReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  // The next position; nullopt at the end of the stream. INVALID_ARGUMENT naming the line and
  // the field for a line that is not a position ("trail line 7: x: must be a finite number").
  absl::StatusOr<std::optional<TrailPosition>> Next();

  std::uint64_t line_number() const { return line_number_; }

 private:
  std::istream& in_;
  std::string name_;
  std::string line_;
  std::uint64_t line_number_ = 0;
  std::uint64_t positions_ = 0;
};

}  // namespace walk::client
