#include "server/metrics_gauges.h"

#include <dirent.h>
#include <unistd.h>

#include <cassert>
#include <chrono>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <utility>

#include "absl/strings/numbers.h"
#include "prometheus/check_names.h"
#include "prometheus/client_metric.h"
#include "prometheus/metric_type.h"
#include "server/process_memory.h"

namespace walk::server {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Unix time this process started: boot time (/proc/stat "btime") plus the process start time in
// clock ticks since boot (/proc/self/stat field 22). Falls back to the current time.
double ProcessStartTimeSeconds() {
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  double boot_time = -1;
  std::ifstream stat("/proc/stat");
  for (std::string line; std::getline(stat, line);) {
    if (line.starts_with("btime ") && absl::SimpleAtod(line.substr(6), &boot_time)) break;
  }
  // The command name (field 2) is in parentheses and may contain spaces, so count fields from
  // the last ')': field 3 follows it, making field 22 the 20th after it.
  std::ifstream self_stat("/proc/self/stat");
  std::string line;
  std::getline(self_stat, line);
  const size_t paren = line.rfind(')');
  if (boot_time < 0 || paren == std::string::npos) return now;
  std::istringstream rest(line.substr(paren + 1));
  std::string field;
  for (int i = 0; i < 20 && rest >> field; ++i) {
  }
  double start_ticks = 0;
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  if (!rest || ticks_per_second <= 0 || !absl::SimpleAtod(field, &start_ticks)) return now;
  return boot_time + start_ticks / static_cast<double>(ticks_per_second);
}

// Open file descriptors, not counting the one used to list them; NaN if unreadable.
double OpenFileDescriptors() {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return kNaN;
  const std::string own_fd = std::to_string(dirfd(dir));
  double count = 0;
  while (const dirent* entry = readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != ".." && name != own_fd) ++count;
  }
  closedir(dir);
  return count;
}

}  // namespace

void CallbackGauges::Add(std::string name, std::string help, std::function<double()> read) {
  assert(prometheus::CheckMetricName(name) && "metric names must match [a-zA-Z_:][a-zA-Z0-9_:]*");
  assert(read != nullptr);
  std::lock_guard<std::mutex> lock(mu_);
  for ([[maybe_unused]] const auto& gauge : gauges_) {
    assert(gauge->name != name && "gauge added twice");
  }
  gauges_.push_back(std::make_unique<const Gauge>(
      Gauge{std::move(name), std::move(help), std::move(read), /*counter=*/false}));
}

void CallbackGauges::AddCounter(std::string name, std::string help, std::function<double()> read) {
  assert(prometheus::CheckMetricName(name) && name.ends_with("_total"));
  std::lock_guard<std::mutex> lock(mu_);
  for ([[maybe_unused]] const auto& gauge : gauges_) {
    assert(gauge->name != name && "gauge added twice");
  }
  gauges_.push_back(std::make_unique<const Gauge>(
      Gauge{std::move(name), std::move(help), std::move(read), /*counter=*/true}));
}

std::vector<prometheus::MetricFamily> CallbackGauges::Collect() const {
  std::vector<const Gauge*> gauges;
  {
    std::lock_guard<std::mutex> lock(mu_);
    gauges.reserve(gauges_.size());
    for (const auto& gauge : gauges_) gauges.push_back(gauge.get());
  }
  std::vector<prometheus::MetricFamily> families;
  families.reserve(gauges.size());
  for (const Gauge* gauge : gauges) {
    prometheus::ClientMetric sample;
    const double value = gauge->read ? gauge->read() : kNaN;
    if (gauge->counter) {
      sample.counter.value = value;
      families.push_back(prometheus::MetricFamily{
          gauge->name, gauge->help, prometheus::MetricType::Counter, {std::move(sample)}});
      continue;
    }
    sample.gauge.value = value;
    families.push_back(prometheus::MetricFamily{
        gauge->name, gauge->help, prometheus::MetricType::Gauge, {std::move(sample)}});
  }
  return families;
}

void AddProcessGauges(CallbackGauges& gauges) {
  gauges.Add("process_resident_memory_bytes", "Resident memory size in bytes.", [] {
    const ResidentBytes now = ReadResidentBytes();
    return now.total > 0 ? double(now.total) : kNaN;
  });
  gauges.Add("process_virtual_memory_bytes", "Virtual memory size in bytes.", [] {
    const ResidentBytes now = ReadResidentBytes();
    return now.virtual_size > 0 ? double(now.virtual_size) : kNaN;
  });
  const double start_time = ProcessStartTimeSeconds();
  gauges.Add("process_start_time_seconds", "Start time of the process since unix epoch in seconds.",
             [start_time] { return start_time; });
  gauges.Add("process_open_fds", "Number of open file descriptors.",
             [] { return OpenFileDescriptors(); });
}

}  // namespace walk::server
