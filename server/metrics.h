// A small, thread-safe Prometheus metrics registry: counters, gauges, histograms and gauges read
// at scrape time, rendered in the Prometheus text exposition format 0.0.4.
//
// Ownership: the MetricsRegistry owns every family it creates, and each family owns its children
// (one per distinct set of label values). Families and children are never removed, so the
// references returned by AddCounter(), WithLabels() and so on stay valid for the registry's
// lifetime; callers may cache them and must not use them after the registry is destroyed.
//
// Thread safety: every method of every class here may be called from any thread. Updating a
// child (Counter::Increment, Gauge::Set, Histogram::Observe, ...) is lock-free; finding or
// creating a child (WithLabels) and registering or rendering families take a mutex.
//
// Programming errors (an invalid name, a wrong number of label values, ...) are caught with
// assert(). Builds with NDEBUG skip those checks; see each method for what happens then.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace walk::server {

// True if `name` is a valid metric name: [a-zA-Z_:][a-zA-Z0-9_:]*.
bool IsValidMetricName(std::string_view name);

// True if `name` is a valid label name: [a-zA-Z_][a-zA-Z0-9_]* and not starting with "__"
// (reserved for Prometheus itself).
bool IsValidLabelName(std::string_view name);

// `count` histogram upper bounds start, start*factor, start*factor^2, ...
// Requires start > 0, factor > 1 and count >= 1 (asserted; an empty vector without asserts).
std::vector<double> ExponentialBuckets(double start, double factor, int count);

// A value that only goes up (requests served, bytes sent). Lock-free.
class Counter {
 public:
  Counter() = default;
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;

  // Adds `by`. Counters never decrease, so negative (and NaN) increments are ignored.
  void Increment(double by = 1.0);
  double Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

// A value that goes up and down (queue depth, items loaded). Lock-free.
class Gauge {
 public:
  Gauge() = default;
  Gauge(const Gauge&) = delete;
  Gauge& operator=(const Gauge&) = delete;

  void Set(double value) { value_.store(value, std::memory_order_relaxed); }
  // Adds `delta`, which may be negative.
  void Add(double delta);
  double Value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

// Counts observations into buckets by upper bound (Prometheus "le" semantics: an observation v
// falls in the first bucket whose bound is >= v), and tracks their count and sum. Lock-free.
class Histogram {
 public:
  // `upper_bounds` must be strictly increasing and finite; the implicit +Inf bucket is added
  // here (a trailing +Inf in `upper_bounds` is dropped).
  explicit Histogram(std::vector<double> upper_bounds);
  Histogram(const Histogram&) = delete;
  Histogram& operator=(const Histogram&) = delete;

  // Records one observation. NaN is ignored (it would turn the sum into NaN for good).
  void Observe(double value);

  // Number of observations so far (equal to the +Inf bucket).
  uint64_t Count() const;
  // Sum of the observations so far.
  double Sum() const { return sum_.load(std::memory_order_relaxed); }
  // Cumulative counts, one per upper bound and a last one for +Inf (== Count()).
  std::vector<uint64_t> CumulativeCounts() const;
  // The finite upper bounds, without the implicit +Inf.
  const std::vector<double>& upper_bounds() const { return upper_bounds_; }

 private:
  const std::vector<double> upper_bounds_;
  // Non-cumulative counts: bucket_counts_[i] counts observations in (bound[i-1], bound[i]];
  // the last entry is the +Inf bucket.
  std::vector<std::atomic<uint64_t>> bucket_counts_;
  std::atomic<double> sum_{0.0};
};

namespace metrics_internal {

// The part every registered family shares, so the registry can render families of different
// kinds in registration order. Immutable after construction apart from the children.
class Family {
 public:
  Family(std::string name, std::string help, std::vector<std::string> label_names);
  virtual ~Family() = default;
  Family(const Family&) = delete;
  Family& operator=(const Family&) = delete;

  const std::string& name() const { return name_; }
  const std::string& help() const { return help_; }
  const std::vector<std::string>& label_names() const { return label_names_; }

  // Appends the family's "# HELP", "# TYPE" and sample lines to `out`.
  virtual void AppendTo(std::string& out) const = 0;

 protected:
  // Returns `values` when it has one value per label name. Otherwise asserts, and without
  // asserts pads with empty strings or truncates so the exposition stays well-formed.
  std::vector<std::string> FitLabelValues(const std::vector<std::string>& values) const;

 private:
  const std::string name_;
  const std::string help_;
  const std::vector<std::string> label_names_;
};

// The children of one family, keyed (and so ordered) by their label values. Children are
// created on first use and never removed, so their addresses are stable. Thread-safe.
template <typename Child>
class ChildMap {
 public:
  // Returns the child for `values`, creating it with `make()` (which returns a
  // std::unique_ptr<Child>) on first use.
  template <typename Make>
  Child& GetOrCreate(const std::vector<std::string>& values, Make make) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = children_.find(values);
    if (it == children_.end()) it = children_.emplace(values, make()).first;
    return *it->second;
  }

  // The children and their label values, sorted by label values. The pointers stay valid
  // because nothing is ever erased; the lock is only held while copying them.
  std::vector<std::pair<const std::vector<std::string>*, const Child*>> Snapshot() const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::pair<const std::vector<std::string>*, const Child*>> out;
    out.reserve(children_.size());
    for (const auto& [values, child] : children_) out.emplace_back(&values, child.get());
    return out;
  }

 private:
  mutable std::mutex mu_;
  std::map<std::vector<std::string>, std::unique_ptr<Child>> children_;  // guarded by mu_
};

}  // namespace metrics_internal

class MetricsRegistry;

// A counter metric with a fixed set of label names; one Counter per set of label values.
class CounterFamily final : public metrics_internal::Family {
 public:
  // The counter for `values`, one per label name in registration order (asserted).
  Counter& WithLabels(const std::vector<std::string>& values);
  // The single counter of a family without labels (no lock taken).
  Counter& Get();

  void AppendTo(std::string& out) const override;

 private:
  friend class MetricsRegistry;
  CounterFamily(std::string name, std::string help, std::vector<std::string> label_names);

  metrics_internal::ChildMap<Counter> children_;
  Counter* unlabeled_ = nullptr;  // owned by children_; set when there are no label names
};

// A gauge metric with a fixed set of label names; one Gauge per set of label values.
class GaugeFamily final : public metrics_internal::Family {
 public:
  // The gauge for `values`, one per label name in registration order (asserted).
  Gauge& WithLabels(const std::vector<std::string>& values);
  // The single gauge of a family without labels (no lock taken).
  Gauge& Get();

  void AppendTo(std::string& out) const override;

 private:
  friend class MetricsRegistry;
  GaugeFamily(std::string name, std::string help, std::vector<std::string> label_names);

  metrics_internal::ChildMap<Gauge> children_;
  Gauge* unlabeled_ = nullptr;  // owned by children_; set when there are no label names
};

// A histogram metric with a fixed set of label names and bucket bounds; one Histogram per set of
// label values, all with the same bounds.
class HistogramFamily final : public metrics_internal::Family {
 public:
  // The histogram for `values`, one per label name in registration order (asserted).
  Histogram& WithLabels(const std::vector<std::string>& values);
  // The single histogram of a family without labels (no lock taken).
  Histogram& Get();

  void AppendTo(std::string& out) const override;

 private:
  friend class MetricsRegistry;
  HistogramFamily(std::string name, std::string help, std::vector<std::string> label_names,
                  std::vector<double> upper_bounds);

  const std::vector<double> upper_bounds_;
  metrics_internal::ChildMap<Histogram> children_;
  Histogram* unlabeled_ = nullptr;  // owned by children_; set when there are no label names
};

// Owns metric families and renders them for a Prometheus scrape. Thread-safe; see the file
// comment. Typically one per process, created at startup and outliving every user.
class MetricsRegistry {
 public:
  MetricsRegistry();
  ~MetricsRegistry();
  MetricsRegistry(const MetricsRegistry&) = delete;
  MetricsRegistry& operator=(const MetricsRegistry&) = delete;

  // Registers a family and returns it; the reference is valid for the registry's lifetime.
  // Asserted: `name` is a valid metric name not registered yet, label names are valid and
  // distinct. A family without label names exposes its single child (value 0) right away.
  //
  // Counter names must end with "_total".
  CounterFamily& AddCounter(std::string name, std::string help,
                            std::vector<std::string> label_names);
  GaugeFamily& AddGauge(std::string name, std::string help, std::vector<std::string> label_names);
  // `upper_bounds` must be strictly increasing and finite ("+Inf" is implicit); "le" is not
  // allowed as a label name.
  HistogramFamily& AddHistogram(std::string name, std::string help,
                                std::vector<std::string> label_names,
                                std::vector<double> upper_bounds);

  // Registers an unlabeled gauge whose value is `read()` at each Render(). `read` runs on the
  // rendering thread (an HTTP worker), so it must be thread-safe, quick, and must not register
  // metrics.
  void AddCallbackGauge(std::string name, std::string help, std::function<double()> read);

  // All families in registration order, in the text exposition format 0.0.4.
  std::string Render() const;

 private:
  // Takes ownership of `family` after checking its name is new; returns it.
  metrics_internal::Family& Register(std::unique_ptr<metrics_internal::Family> family);

  mutable std::mutex mu_;
  std::vector<std::unique_ptr<metrics_internal::Family>> families_;  // guarded by mu_
};

// Registers the standard process gauges on `registry`, read from /proc at scrape time:
// process_resident_memory_bytes, process_virtual_memory_bytes, process_start_time_seconds
// (computed once, here) and process_open_fds. A value that cannot be read is reported as NaN.
void AddProcessMetrics(MetricsRegistry& registry);

}  // namespace walk::server
