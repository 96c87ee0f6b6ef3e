// A folder path for one test's files: under the system's temp folder, named by `name`, this
// process and the running test, and removed first so the test starts without leftovers.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace walk::nav::testing {

inline std::string TestDir(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() /
                   (name + "-" + std::to_string(::getpid()) + "-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(dir);
  return dir.string();
}

}  // namespace walk::nav::testing
