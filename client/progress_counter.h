// A running count on stderr for long inputs, shown only when someone watches (stderr is a
// terminal), so piped and tested runs print nothing extra.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <iostream>
#include <string>
#include <utility>

namespace walk::client {

class ProgressCounter {
 public:
  // `label` starts the line ("walkgrid trailfollow"), `unit` follows the count ("positions").
  ProgressCounter(std::string label, std::string unit)
      : label_(std::move(label)), unit_(std::move(unit)), shown_(isatty(STDERR_FILENO) != 0) {}
  ~ProgressCounter() { Finish(); }
  ProgressCounter(const ProgressCounter&) = delete;
  ProgressCounter& operator=(const ProgressCounter&) = delete;

  // Counts one more; redraws the line every kEvery.
  void Tick() {
    if (++count_ % kEvery == 0 && shown_) {
      std::cerr << "\r" << label_ << ": " << count_ << " " << unit_ << std::flush;
      drawn_ = true;
    }
  }
  // Ends the line if one was drawn (before printing anything else on stderr).
  void Finish() {
    if (!drawn_) return;
    std::cerr << "\r" << label_ << ": " << count_ << " " << unit_ << "\n";
    drawn_ = false;
  }

 private:
  static constexpr std::uint64_t kEvery = 100000;
  std::string label_;
  std::string unit_;
  bool shown_;
  bool drawn_ = false;
  std::uint64_t count_ = 0;
};

}  // namespace walk::client
