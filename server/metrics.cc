#include "server/metrics.h"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <charconv>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <sstream>

#include "absl/strings/numbers.h"

namespace walk::server {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

static_assert(std::atomic<double>::is_always_lock_free, "metric updates must be lock-free");
static_assert(std::atomic<uint64_t>::is_always_lock_free, "metric updates must be lock-free");

// Adds `delta` to `target` without a lock. A compare-and-swap loop works with every standard
// library (not all have C++20's atomic<double>::fetch_add) and is what that compiles to anyway.
void AtomicAdd(std::atomic<double>& target, double delta) {
  double current = target.load(std::memory_order_relaxed);
  while (!target.compare_exchange_weak(current, current + delta, std::memory_order_relaxed)) {
    // `current` now holds the latest value; retry with it.
  }
}

bool IsAsciiLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// Appends `value` the way Prometheus parses it: "+Inf", "-Inf", "NaN"; integers (exact in a
// double) without a fraction or exponent; anything else in the shortest form that reads back
// to the same double, in printf's %g style ("0.25", "0.0001", "1e-09"), as Go clients write it,
// so bucket labels such as le="0.0001" match theirs.
void AppendValue(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
  } else if (std::isinf(value)) {
    out += value > 0 ? "+Inf" : "-Inf";
  } else if (value == std::trunc(value) && std::fabs(value) < 0x1p63) {
    // An integral double below 2^63 converts to int64_t exactly (and -0 prints as "0").
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), static_cast<int64_t>(value));
    out.append(buffer, result.ptr);
  } else {
    char buffer[32];  // the longest shortest form, "-2.2250738585072014e-308", is 24 chars
    const auto result =
        std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::general);
    assert(result.ec == std::errc());
    out.append(buffer, result.ptr);
  }
}

// Appends `value` as a label value inside double quotes, escaping backslash, double quote and
// newline as the text format requires.
void AppendQuotedLabelValue(std::string& out, std::string_view value) {
  out += '"';
  for (const char c : value) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '"':
        out += "\\\"";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  out += '"';
}

// Appends the "# HELP" and "# TYPE" lines of a family. HELP text escapes backslash and newline.
void AppendHeader(std::string& out, const metrics_internal::Family& family, std::string_view type) {
  out.append("# HELP ").append(family.name()).append(" ");
  for (const char c : family.help()) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  out.append("\n# TYPE ").append(family.name()).append(" ").append(type).append("\n");
}

// Appends one sample line: name+suffix, the labels (plus `le` when given) and the value.
void AppendSample(std::string& out, std::string_view name, std::string_view suffix,
                  const std::vector<std::string>& label_names,
                  const std::vector<std::string>& label_values, const double* le, double value) {
  out.append(name).append(suffix);
  if (!label_names.empty() || le != nullptr) {
    out += '{';
    for (size_t i = 0; i < label_names.size(); ++i) {
      if (i > 0) out += ',';
      out.append(label_names[i]).append("=");
      AppendQuotedLabelValue(out, label_values[i]);
    }
    if (le != nullptr) {
      out += label_names.empty() ? "le=\"" : ",le=\"";
      AppendValue(out, *le);
      out += '"';
    }
    out += '}';
  }
  out += ' ';
  AppendValue(out, value);
  out += '\n';
}

// Drops a trailing +Inf (the +Inf bucket is always implicit) and checks the rest.
std::vector<double> CheckedUpperBounds(std::vector<double> upper_bounds) {
  if (!upper_bounds.empty() && upper_bounds.back() == std::numeric_limits<double>::infinity()) {
    upper_bounds.pop_back();
  }
  for (size_t i = 0; i < upper_bounds.size(); ++i) {
    assert(std::isfinite(upper_bounds[i]) && "histogram bounds must be finite");
    assert((i == 0 || upper_bounds[i - 1] < upper_bounds[i]) &&
           "histogram bounds must be strictly increasing");
  }
  return upper_bounds;
}

// True if every name is a valid label name and none repeats. Only used in asserts.
[[maybe_unused]] bool AreValidLabelNames(const std::vector<std::string>& names) {
  std::set<std::string_view> seen;
  for (const std::string& name : names) {
    if (!IsValidLabelName(name) || !seen.insert(name).second) return false;
  }
  return true;
}

// A gauge with no labels whose value is read when rendering.
class CallbackGaugeFamily final : public metrics_internal::Family {
 public:
  CallbackGaugeFamily(std::string name, std::string help, std::function<double()> read)
      : Family(std::move(name), std::move(help), {}), read_(std::move(read)) {
    assert(read_ != nullptr);
  }

  void AppendTo(std::string& out) const override {
    AppendHeader(out, *this, "gauge");
    AppendSample(out, name(), "", {}, {}, nullptr, read_ ? read_() : kNaN);
  }

 private:
  const std::function<double()> read_;
};

// Whitespace-separated fields of the first line of `path`, or nothing if it can't be read.
std::vector<std::string> ReadFields(const char* path) {
  std::ifstream file(path);
  std::string line;
  if (!std::getline(file, line)) return {};
  std::istringstream stream(line);
  return {std::istream_iterator<std::string>(stream), std::istream_iterator<std::string>()};
}

// Field `index` (0-based) of /proc/self/statm, a page count, in bytes; NaN if unreadable.
double StatmBytes(size_t index) {
  const std::vector<std::string> fields = ReadFields("/proc/self/statm");
  double pages = 0;
  if (index >= fields.size() || !absl::SimpleAtod(fields[index], &pages)) return kNaN;
  return pages * static_cast<double>(sysconf(_SC_PAGESIZE));
}

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

bool IsValidMetricName(std::string_view name) {
  if (name.empty()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!(IsAsciiLetter(c) || c == '_' || c == ':' || (i > 0 && IsAsciiDigit(c)))) return false;
  }
  return true;
}

bool IsValidLabelName(std::string_view name) {
  if (name.empty() || name.starts_with("__")) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (!(IsAsciiLetter(c) || c == '_' || (i > 0 && IsAsciiDigit(c)))) return false;
  }
  return true;
}

std::vector<double> ExponentialBuckets(double start, double factor, int count) {
  assert(start > 0 && factor > 1 && count >= 1);
  std::vector<double> bounds;
  if (!(start > 0 && factor > 1 && count >= 1)) return bounds;
  bounds.reserve(count);
  double bound = start;
  for (int i = 0; i < count; ++i) {
    bounds.push_back(bound);
    bound *= factor;
  }
  return bounds;
}

void Counter::Increment(double by) {
  if (!(by >= 0)) return;  // negative or NaN
  AtomicAdd(value_, by);
}

void Gauge::Add(double delta) { AtomicAdd(value_, delta); }

Histogram::Histogram(std::vector<double> upper_bounds)
    : upper_bounds_(CheckedUpperBounds(std::move(upper_bounds))),
      bucket_counts_(upper_bounds_.size() + 1) {}

void Histogram::Observe(double value) {
  if (std::isnan(value)) return;
  const size_t bucket =
      std::lower_bound(upper_bounds_.begin(), upper_bounds_.end(), value) - upper_bounds_.begin();
  bucket_counts_[bucket].fetch_add(1, std::memory_order_relaxed);
  AtomicAdd(sum_, value);
}

uint64_t Histogram::Count() const {
  uint64_t count = 0;
  for (const auto& bucket : bucket_counts_) count += bucket.load(std::memory_order_relaxed);
  return count;
}

std::vector<uint64_t> Histogram::CumulativeCounts() const {
  std::vector<uint64_t> counts;
  counts.reserve(bucket_counts_.size());
  uint64_t running = 0;
  for (const auto& bucket : bucket_counts_) {
    running += bucket.load(std::memory_order_relaxed);
    counts.push_back(running);
  }
  return counts;
}

namespace metrics_internal {

Family::Family(std::string name, std::string help, std::vector<std::string> label_names)
    : name_(std::move(name)), help_(std::move(help)), label_names_(std::move(label_names)) {
  assert(IsValidMetricName(name_) && "metric names must match [a-zA-Z_:][a-zA-Z0-9_:]*");
  assert(AreValidLabelNames(label_names_) &&
         "label names must match [a-zA-Z_][a-zA-Z0-9_]*, not start with __, and be distinct");
}

std::vector<std::string> Family::FitLabelValues(const std::vector<std::string>& values) const {
  assert(values.size() == label_names_.size() && "one label value per label name");
  std::vector<std::string> fitted = values;
  fitted.resize(label_names_.size());
  return fitted;
}

}  // namespace metrics_internal

CounterFamily::CounterFamily(std::string name, std::string help,
                             std::vector<std::string> label_names)
    : Family(std::move(name), std::move(help), std::move(label_names)) {
  if (this->label_names().empty()) unlabeled_ = &WithLabels({});
}

Counter& CounterFamily::WithLabels(const std::vector<std::string>& values) {
  const auto make = [] { return std::make_unique<Counter>(); };
  if (values.size() != label_names().size()) {
    return children_.GetOrCreate(FitLabelValues(values), make);
  }
  return children_.GetOrCreate(values, make);
}

Counter& CounterFamily::Get() {
  assert(unlabeled_ != nullptr && "Get() is for families without labels");
  return unlabeled_ != nullptr ? *unlabeled_ : WithLabels({});
}

void CounterFamily::AppendTo(std::string& out) const {
  AppendHeader(out, *this, "counter");
  for (const auto& [values, counter] : children_.Snapshot()) {
    AppendSample(out, name(), "", label_names(), *values, nullptr, counter->Value());
  }
}

GaugeFamily::GaugeFamily(std::string name, std::string help, std::vector<std::string> label_names)
    : Family(std::move(name), std::move(help), std::move(label_names)) {
  if (this->label_names().empty()) unlabeled_ = &WithLabels({});
}

Gauge& GaugeFamily::WithLabels(const std::vector<std::string>& values) {
  const auto make = [] { return std::make_unique<Gauge>(); };
  if (values.size() != label_names().size()) {
    return children_.GetOrCreate(FitLabelValues(values), make);
  }
  return children_.GetOrCreate(values, make);
}

Gauge& GaugeFamily::Get() {
  assert(unlabeled_ != nullptr && "Get() is for families without labels");
  return unlabeled_ != nullptr ? *unlabeled_ : WithLabels({});
}

void GaugeFamily::AppendTo(std::string& out) const {
  AppendHeader(out, *this, "gauge");
  for (const auto& [values, gauge] : children_.Snapshot()) {
    AppendSample(out, name(), "", label_names(), *values, nullptr, gauge->Value());
  }
}

HistogramFamily::HistogramFamily(std::string name, std::string help,
                                 std::vector<std::string> label_names,
                                 std::vector<double> upper_bounds)
    : Family(std::move(name), std::move(help), std::move(label_names)),
      upper_bounds_(CheckedUpperBounds(std::move(upper_bounds))) {
  assert(std::find(this->label_names().begin(), this->label_names().end(), "le") ==
             this->label_names().end() &&
         "\"le\" is reserved for histogram buckets");
  if (this->label_names().empty()) unlabeled_ = &WithLabels({});
}

Histogram& HistogramFamily::WithLabels(const std::vector<std::string>& values) {
  const auto make = [this] { return std::make_unique<Histogram>(upper_bounds_); };
  if (values.size() != label_names().size()) {
    return children_.GetOrCreate(FitLabelValues(values), make);
  }
  return children_.GetOrCreate(values, make);
}

Histogram& HistogramFamily::Get() {
  assert(unlabeled_ != nullptr && "Get() is for families without labels");
  return unlabeled_ != nullptr ? *unlabeled_ : WithLabels({});
}

void HistogramFamily::AppendTo(std::string& out) const {
  AppendHeader(out, *this, "histogram");
  for (const auto& [values, histogram] : children_.Snapshot()) {
    // Read the buckets once, so the +Inf bucket and _count agree even during updates.
    const std::vector<uint64_t> cumulative = histogram->CumulativeCounts();
    const double sum = histogram->Sum();
    for (size_t i = 0; i < upper_bounds_.size(); ++i) {
      AppendSample(out, name(), "_bucket", label_names(), *values, &upper_bounds_[i],
                   static_cast<double>(cumulative[i]));
    }
    const double inf = std::numeric_limits<double>::infinity();
    const double count = static_cast<double>(cumulative.back());
    AppendSample(out, name(), "_bucket", label_names(), *values, &inf, count);
    AppendSample(out, name(), "_sum", label_names(), *values, nullptr, sum);
    AppendSample(out, name(), "_count", label_names(), *values, nullptr, count);
  }
}

MetricsRegistry::MetricsRegistry() = default;
MetricsRegistry::~MetricsRegistry() = default;

metrics_internal::Family& MetricsRegistry::Register(
    std::unique_ptr<metrics_internal::Family> family) {
  std::lock_guard<std::mutex> lock(mu_);
  for ([[maybe_unused]] const auto& existing : families_) {
    assert(existing->name() != family->name() && "metric registered twice");
  }
  families_.push_back(std::move(family));
  return *families_.back();
}

CounterFamily& MetricsRegistry::AddCounter(std::string name, std::string help,
                                           std::vector<std::string> label_names) {
  assert(name.ends_with("_total") && "counter names must end with _total");
  // The constructor is private to the registry, hence `new` rather than std::make_unique.
  return static_cast<CounterFamily&>(Register(std::unique_ptr<CounterFamily>(
      new CounterFamily(std::move(name), std::move(help), std::move(label_names)))));
}

GaugeFamily& MetricsRegistry::AddGauge(std::string name, std::string help,
                                       std::vector<std::string> label_names) {
  return static_cast<GaugeFamily&>(Register(std::unique_ptr<GaugeFamily>(
      new GaugeFamily(std::move(name), std::move(help), std::move(label_names)))));
}

HistogramFamily& MetricsRegistry::AddHistogram(std::string name, std::string help,
                                               std::vector<std::string> label_names,
                                               std::vector<double> upper_bounds) {
  return static_cast<HistogramFamily&>(
      Register(std::unique_ptr<HistogramFamily>(new HistogramFamily(
          std::move(name), std::move(help), std::move(label_names), std::move(upper_bounds)))));
}

void MetricsRegistry::AddCallbackGauge(std::string name, std::string help,
                                       std::function<double()> read) {
  Register(
      std::make_unique<CallbackGaugeFamily>(std::move(name), std::move(help), std::move(read)));
}

std::string MetricsRegistry::Render() const {
  // Families are never removed, so render from a copy of the list without holding the lock:
  // callback gauges then run unlocked and registration is never blocked by a slow scrape.
  std::vector<const metrics_internal::Family*> families;
  {
    std::lock_guard<std::mutex> lock(mu_);
    families.reserve(families_.size());
    for (const auto& family : families_) families.push_back(family.get());
  }
  std::string out;
  for (const metrics_internal::Family* family : families) family->AppendTo(out);
  return out;
}

void AddProcessMetrics(MetricsRegistry& registry) {
  registry.AddCallbackGauge("process_resident_memory_bytes", "Resident memory size in bytes.",
                            [] { return StatmBytes(1); });
  registry.AddCallbackGauge("process_virtual_memory_bytes", "Virtual memory size in bytes.",
                            [] { return StatmBytes(0); });
  const double start_time = ProcessStartTimeSeconds();
  registry.AddCallbackGauge("process_start_time_seconds",
                            "Start time of the process since unix epoch in seconds.",
                            [start_time] { return start_time; });
  registry.AddCallbackGauge("process_open_fds", "Number of open file descriptors.",
                            [] { return OpenFileDescriptors(); });
}

}  // namespace walk::server
