// Runs a real walkd (or any program) as a child process for integration tests: captures its
// output line by line, finds the addresses it prints, signals it, and reaps it.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace walk::testing {

// How many times longer than usual the tests' bounded waits may last: WALK_TEST_PATIENCE, which
// tests/CMakeLists.txt sets above 1 in a sanitizer build (several times slower); 1 otherwise.
inline int Patience() {
  const char* value = std::getenv("WALK_TEST_PATIENCE");
  const int patience = value == nullptr ? 1 : std::atoi(value);
  return patience >= 1 && patience <= 100 ? patience : 1;
}

// The output and exit code of a finished command.
struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

class ChildProcess {
 public:
  // Starts `argv` (argv[0] is the program's path) with stdout and stderr captured.
  explicit ChildProcess(const std::vector<std::string>& argv) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(pipe_fds[1], 1);
      dup2(pipe_fds[1], 2);
      close(pipe_fds[0]);
      close(pipe_fds[1]);
      const int null_fd = open("/dev/null", O_RDONLY);
      dup2(null_fd, 0);
      std::vector<char*> args;
      for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(pipe_fds[1]);
    reader_ = std::thread([this, fd = pipe_fds[0]] {
      char buffer[4096];
      ssize_t n;
      while ((n = read(fd, buffer, sizeof buffer)) > 0) {
        std::lock_guard<std::mutex> lock(mu_);
        output_.append(buffer, static_cast<std::size_t>(n));
      }
      close(fd);
    });
  }

  ~ChildProcess() {
    if (pid_ > 0 && !exit_code_) {
      kill(pid_, SIGKILL);
      Wait();
    }
    if (reader_.joinable()) reader_.join();
  }

  std::string output() const {
    std::lock_guard<std::mutex> lock(mu_);
    return output_;
  }

  // Waits (up to `patience`, times Patience()) for a printed line starting with `prefix`; returns
  // the rest of it.
  std::optional<std::string> WaitForLine(const std::string& prefix,
                                         std::chrono::seconds patience = std::chrono::seconds(60)) {
    const auto give_up = std::chrono::steady_clock::now() + patience * Patience();
    while (std::chrono::steady_clock::now() < give_up) {
      const std::string text = output();
      std::size_t at = text.find(prefix);
      if (at != std::string::npos) {
        const std::size_t end = text.find('\n', at);
        if (end != std::string::npos)
          return text.substr(at + prefix.size(), end - at - prefix.size());
      }
      if (Exited()) return std::nullopt;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::nullopt;
  }

  // Waits for the process to end and its output to close; returns everything it printed.
  std::string FinishOutput() {
    Wait();
    if (reader_.joinable()) reader_.join();
    return output();
  }

  void Signal(int signal_number) { kill(pid_, signal_number); }
  pid_t pid() const { return pid_; }

  bool Exited() {
    if (exit_code_) return true;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return true;
    }
    return false;
  }

  // Waits for the process to end and returns its exit code (128 + signal when killed).
  int Wait() {
    if (!exit_code_) {
      int status = 0;
      waitpid(pid_, &status, 0);
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    return *exit_code_;
  }

 private:
  pid_t pid_ = -1;
  std::optional<int> exit_code_;
  mutable std::mutex mu_;
  std::string output_;
  std::thread reader_;
};

// The resident memory of process `pid` now (VmRSS), bytes; 0 when /proc does not say.
inline std::uint64_t ResidentBytes(pid_t pid) {
  FILE* status = std::fopen(("/proc/" + std::to_string(pid) + "/status").c_str(), "r");
  if (status == nullptr) return 0;
  char line[256];
  std::uint64_t kib = 0;
  while (std::fgets(line, sizeof line, status) != nullptr) {
    if (std::sscanf(line, "VmRSS: %lu kB", &kib) == 1) break;
  }
  std::fclose(status);
  return kib * 1024;
}

// The folders FreshTempDir made, removed when the test program exits (a data folder holds a
// store, and a mapped world's grid image: left behind, a few runs fill the disk).
class TempDirsRemovedAtExit {
 public:
  ~TempDirsRemovedAtExit() {
    for (const auto& dir : dirs_) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  }
  void Add(const std::filesystem::path& dir) { dirs_.push_back(dir); }

 private:
  std::vector<std::filesystem::path> dirs_;
};

// An empty folder under the system's temp folder, named by `prefix`, `name` and this process;
// removed when the test program exits.
inline std::string FreshTempDir(const std::string& prefix, const std::string& name) {
  static TempDirsRemovedAtExit made;
  const auto dir = std::filesystem::temp_directory_path() /
                   (prefix + "-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  made.Add(dir);
  return dir.string();
}

// An empty folder for the running test, named after its suite and `name` (FreshTempDir).
inline std::string MakeTempDir(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return FreshTempDir(test ? test->test_suite_name() : "walkd-it", name);
}

// Links the default world the tests share into the data folder `args` name (`--data DIR`),
// unless it holds one already: walkd then loads it instead of generating and preparing it again
// (tens of seconds each time). The shared one is WALKD_TEST_DEFAULT_WORLD, made once by the
// default_world_cache test as walkd's first start makes it; unset or absent, nothing is linked.
inline void ShareDefaultWorld(const std::vector<std::string>& args) {
  const char* shared = std::getenv("WALKD_TEST_DEFAULT_WORLD");
  if (shared == nullptr ||
      !std::filesystem::exists(std::filesystem::path(shared) / "grid.walkgrid"))
    return;
  for (std::size_t k = 0; k + 1 < args.size(); ++k) {
    if (args[k] != "--data") continue;
    const std::filesystem::path world = std::filesystem::path(args[k + 1]) / "default-world";
    std::error_code ec;
    std::filesystem::create_directories(args[k + 1], ec);
    if (!std::filesystem::exists(world, ec))
      std::filesystem::create_directory_symlink(shared, world, ec);
  }
}

// A walkd started with `args` after `--listen 127.0.0.1:0` and, unless `args` name a metrics
// port (`--metrics-listen 127.0.0.1:0`), `--metrics-listen ""` (the shared default world linked
// into its data folder); the gRPC address it printed ("" when it printed none), and its
// metrics port's when it has one.
struct StartedWalkd {
  std::unique_ptr<ChildProcess> process;
  std::string address;
  std::string metrics_address;  // "HOST:PORT"
};

inline StartedWalkd StartWalkdOnLoopback(const std::string& walkd_bin,
                                         const std::vector<std::string>& args) {
  const bool metrics = std::find(args.begin(), args.end(), "--metrics-listen") != args.end();
  std::vector<std::string> argv = {walkd_bin, "--listen", "127.0.0.1:0"};
  if (!metrics) argv.insert(argv.end(), {"--metrics-listen", ""});
  argv.insert(argv.end(), args.begin(), args.end());
  ShareDefaultWorld(args);
  StartedWalkd walkd;
  walkd.process = std::make_unique<ChildProcess>(argv);
  walkd.address = walkd.process->WaitForLine("walkd: grpc listening on ").value_or("");
  if (metrics) {
    const std::string url = walkd.process->WaitForLine("walkd: metrics on http://").value_or("");
    walkd.metrics_address = url.substr(0, url.find('/'));
  }
  return walkd;
}

// Asks `ready` every 50 ms until it returns true (true), or gives up after 30 s x Patience()
// (false): a bounded wait for a server to come up.
template <typename Ready>
bool WaitUntil(Ready ready) {
  for (int attempt = 0; attempt < 600 * Patience(); ++attempt) {
    if (ready()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

// Runs `argv` to completion (stdin from /dev/null) and returns its exit code and output.
inline CommandResult RunCommand(const std::vector<std::string>& argv) {
  ChildProcess process(argv);
  CommandResult result;
  result.output = process.FinishOutput();
  result.exit_code = process.Wait();
  return result;
}

// Imports MovingAI map `map` into world folder `dir` with `walkgrid` (`import_flags` after the
// map: --continent, --replace) and prepares its abstract graph for `profile`, so long walks go
// over its CCH. Returns the first failing command's output, or nothing when both succeed.
inline std::optional<std::string> ImportAndPrepare(const std::string& walkgrid,
                                                   const std::string& map, const std::string& dir,
                                                   const std::string& profile,
                                                   std::vector<std::string> import_flags = {}) {
  std::vector<std::string> import = {walkgrid, "import-movingai", map, "--out", dir};
  import.insert(import.end(), import_flags.begin(), import_flags.end());
  for (const std::vector<std::string>& argv :
       {import, std::vector<std::string>{walkgrid, "prepare", dir, "--profiles", profile}}) {
    const CommandResult done = RunCommand(argv);
    if (done.exit_code != 0) return done.output;
  }
  return std::nullopt;
}

}  // namespace walk::testing
