// Gauges whose values are read when Prometheus scrapes, not set as things happen: memory and
// file descriptors from /proc, the size of a cache, RocksDB's estimate of its keys. A
// prometheus::Collectable, so a prometheus::Exposer collects it beside the registry.
//
// Thread safety: every method may be called from any thread. Collect() reads the gauges on the
// scraping thread (an HTTP worker) without holding the lock Add() takes.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "prometheus/collectable.h"
#include "prometheus/metric_family.h"

namespace walk::server {

class CallbackGauges final : public prometheus::Collectable {
 public:
  CallbackGauges() = default;
  CallbackGauges(const CallbackGauges&) = delete;
  CallbackGauges& operator=(const CallbackGauges&) = delete;

  // Adds an unlabeled gauge `name` (a valid metric name, not added before; asserted) whose value
  // is `read()` at each scrape. `read` runs on the scraping thread, so it must be thread-safe and
  // quick, must not call Add(), and must stay callable as long as this object is collected.
  void Add(std::string name, std::string help, std::function<double()> read);
  // Adds a counter the same way (`name` ends in _total): `read()` must never decrease.
  void AddCounter(std::string name, std::string help, std::function<double()> read);

  // One gauge family per Add(), in the order added, each with what its `read()` returns.
  std::vector<prometheus::MetricFamily> Collect() const override;

 private:
  struct Gauge {
    std::string name;
    std::string help;
    std::function<double()> read;
    bool counter = false;
  };

  mutable std::mutex mu_;
  // Never removed, so Collect() reads them after copying the pointers under mu_.
  std::vector<std::unique_ptr<const Gauge>> gauges_;  // guarded by mu_
};

// Adds the standard process gauges, read from /proc at each scrape:
// process_resident_memory_bytes, process_virtual_memory_bytes, process_start_time_seconds
// (computed once, here) and process_open_fds. A value that cannot be read is reported as NaN.
void AddProcessGauges(CallbackGauges& gauges);

}  // namespace walk::server
