// What walkgrid's subcommands share in their output: failures, rounding, names, peak memory.
#include "client/walkgrid_commands.h"

#include <cmath>
#include <fstream>
#include <iostream>

namespace walk::client {

void FailCommand(const std::string& command, const std::string& message, int code) {
  std::cerr << "walkgrid " << command << ": " << message << "\n";
  throw CLI::RuntimeError(code);
}

double RoundedYards(double yards) { return std::round(yards * 1000.0) / 1000.0; }

std::string BaseName(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::uint64_t PeakResidentBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) {
      std::uint64_t kib = 0;
      for (char ch : line) {
        if (ch >= '0' && ch <= '9') kib = kib * 10 + static_cast<std::uint64_t>(ch - '0');
      }
      return kib * 1024;
    }
  }
  return 0;
}

}  // namespace walk::client
