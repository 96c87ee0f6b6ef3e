// Reading walkctl batch input: JSON lines like
//   {"id": "q1", "world": "W", "from": [x, y], "to": [x, y, z], "profile": "P", "band": 10,
//    "backend": "hybrid"}
// (`id`, `world`, `profile`, `band`, `continent`, `backend` optional; a height optional), or CSV
// with a header naming the same columns:
// id,world,from_x,from_y,from_z,to_x,to_y,to_z,profile,band,continent,backend
// (any order; empty cells are absent). A malformed line is an error naming its line number.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "walk/v1/walk.pb.h"

namespace walk::client {

struct BatchPair {
  std::uint64_t line = 0;  // 1-based line number in the input
  std::string id;          // the caller's id, or "" when none was given
  walk::v1::WalkRequest walk;
};

struct BatchDefaults {
  std::string world = "default";
  std::string profile;
  std::uint32_t band = 0;
  std::string backend;  // "grid", "navmesh", "hybrid"; "": the world's default
};

// Parses one JSON line (line number `line`). INVALID_ARGUMENT says what is wrong with it.
absl::StatusOr<BatchPair> ParseJsonPair(const std::string& text, std::uint64_t line,
                                        const BatchDefaults& defaults);

// Parses CSV: `header` is the first line; each later line one pair.
class CsvPairs {
 public:
  // INVALID_ARGUMENT when the header lacks from_x, from_y, to_x or to_y, or names an unknown
  // column.
  static absl::StatusOr<CsvPairs> FromHeader(const std::string& header);
  absl::StatusOr<BatchPair> Parse(const std::string& text, std::uint64_t line,
                                  const BatchDefaults& defaults) const;

 private:
  std::vector<std::string> columns_;
};

}  // namespace walk::client
