// Tests of the metrics registry (values, exposition format, concurrency, promtool acceptance)
// and of the HTTP server that exposes it.
#include "server/metrics.h"

#include <httplib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "server/metrics_http.h"

namespace walk::server {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Succeeds if `text` contains `part`; on failure shows both.
::testing::AssertionResult Contains(absl::string_view text, absl::string_view part) {
  if (absl::StrContains(text, part)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << part << "\" not found in:\n" << text;
}

// The value of the sample line that starts with `series` followed by a space, or NaN.
double SampleValue(const std::string& text, const std::string& series) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (absl::StartsWith(line, series + " ")) {
      double value = kNaN;
      if (absl::SimpleAtod(line.substr(series.size() + 1), &value)) return value;
    }
  }
  return kNaN;
}

TEST(MetricNamesTest, ValidatesMetricAndLabelNames) {
  EXPECT_TRUE(IsValidMetricName("walk_requests_total"));
  EXPECT_TRUE(IsValidMetricName("job:walk_latency:rate5m"));
  EXPECT_TRUE(IsValidMetricName("_x9"));
  EXPECT_FALSE(IsValidMetricName(""));
  EXPECT_FALSE(IsValidMetricName("9lives"));
  EXPECT_FALSE(IsValidMetricName("walk-requests"));
  EXPECT_FALSE(IsValidMetricName("walk requests"));

  EXPECT_TRUE(IsValidLabelName("method"));
  EXPECT_TRUE(IsValidLabelName("_hidden2"));
  EXPECT_FALSE(IsValidLabelName(""));
  EXPECT_FALSE(IsValidLabelName("__name__"));
  EXPECT_FALSE(IsValidLabelName("a:b"));
  EXPECT_FALSE(IsValidLabelName("2xx"));
}

TEST(CounterTest, StartsAtZeroAndIgnoresNegativeIncrements) {
  MetricsRegistry registry;
  CounterFamily& requests = registry.AddCounter("walk_requests_total", "Requests.", {});
  // Exposed before any use.
  EXPECT_TRUE(Contains(registry.Render(), "\nwalk_requests_total 0\n"));

  requests.Get().Increment();
  requests.Get().Increment(2.5);
  requests.Get().Increment(-4);
  requests.Get().Increment(kNaN);
  EXPECT_EQ(requests.Get().Value(), 3.5);
  EXPECT_EQ(registry.Render(),
            "# HELP walk_requests_total Requests.\n"
            "# TYPE walk_requests_total counter\n"
            "walk_requests_total 3.5\n");
}

TEST(GaugeTest, SetAndAdd) {
  MetricsRegistry registry;
  Gauge& depth = registry.AddGauge("walk_queue_depth", "Queued walks.", {}).Get();
  EXPECT_EQ(depth.Value(), 0);
  depth.Set(10);
  depth.Add(-3);
  depth.Add(0.5);
  EXPECT_EQ(depth.Value(), 7.5);
  EXPECT_TRUE(Contains(registry.Render(), "\nwalk_queue_depth 7.5\n"));
}

TEST(HistogramTest, BucketsAreCumulativeWithSumAndCount) {
  MetricsRegistry registry;
  Histogram& latency =
      registry.AddHistogram("walk_latency_seconds", "Latency.", {}, {1, 2, 5}).Get();
  for (double value : {0.5, 1.0, 1.5, 3.0, 10.0}) latency.Observe(value);
  latency.Observe(kNaN);  // ignored

  EXPECT_EQ(latency.Count(), 5u);
  EXPECT_EQ(latency.Sum(), 16);
  // 1.0 sits on a bound and belongs to the le="1" bucket.
  EXPECT_EQ(latency.CumulativeCounts(), (std::vector<uint64_t>{2, 3, 4, 5}));
  EXPECT_EQ(registry.Render(),
            "# HELP walk_latency_seconds Latency.\n"
            "# TYPE walk_latency_seconds histogram\n"
            "walk_latency_seconds_bucket{le=\"1\"} 2\n"
            "walk_latency_seconds_bucket{le=\"2\"} 3\n"
            "walk_latency_seconds_bucket{le=\"5\"} 4\n"
            "walk_latency_seconds_bucket{le=\"+Inf\"} 5\n"
            "walk_latency_seconds_sum 16\n"
            "walk_latency_seconds_count 5\n");
}

TEST(HistogramTest, LabeledChildrenShareBoundsAndPutLeLast) {
  MetricsRegistry registry;
  HistogramFamily& family = registry.AddHistogram("walk_path_steps", "Path length.", {"map"},
                                                  {0.25, 100, kInf});  // +Inf is implicit
  family.WithLabels({"east"}).Observe(0.1);
  family.WithLabels({"east"}).Observe(1000);
  EXPECT_EQ(family.WithLabels({"east"}).upper_bounds(), (std::vector<double>{0.25, 100}));
  EXPECT_EQ(registry.Render(),
            "# HELP walk_path_steps Path length.\n"
            "# TYPE walk_path_steps histogram\n"
            "walk_path_steps_bucket{map=\"east\",le=\"0.25\"} 1\n"
            "walk_path_steps_bucket{map=\"east\",le=\"100\"} 1\n"
            "walk_path_steps_bucket{map=\"east\",le=\"+Inf\"} 2\n"
            "walk_path_steps_sum{map=\"east\"} 1000.1\n"
            "walk_path_steps_count{map=\"east\"} 2\n");
}

TEST(HistogramTest, ExponentialBuckets) {
  EXPECT_EQ(ExponentialBuckets(0.5, 2, 4), (std::vector<double>{0.5, 1, 2, 4}));
  EXPECT_EQ(ExponentialBuckets(1, 10, 1), (std::vector<double>{1}));
}

TEST(RenderTest, FormatsNumbersAsPrometheusParsesThem) {
  MetricsRegistry registry;
  GaugeFamily& family = registry.AddGauge("walk_value", "Values.", {"case"});
  const std::vector<std::pair<double, std::string>> cases = {
      {0, "0"},
      {-0.0, "0"},
      {42, "42"},
      {-7, "-7"},
      {0.1, "0.1"},
      {1.5e-7, "1.5e-07"},
      {1e20, "1e+20"},
      {9007199254740992.0, "9007199254740992"},
      {kInf, "+Inf"},
      {-kInf, "-Inf"},
      {kNaN, "NaN"},
      {0.0001, "0.0001"},
      {1e18, "1000000000000000000"},
      {1234567.25, "1.23456725e+06"},
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    family.WithLabels({absl::StrCat("c", i + 10)}).Set(cases[i].first);
  }
  const std::string text = registry.Render();
  for (size_t i = 0; i < cases.size(); ++i) {
    EXPECT_TRUE(
        Contains(text, absl::StrCat("walk_value{case=\"c", i + 10, "\"} ", cases[i].second, "\n")))
        << "value #" << i;
  }
}

TEST(RenderTest, EscapesLabelValuesAndHelp) {
  MetricsRegistry registry;
  registry.AddGauge("walk_odd", "Back\\slash and\nnewline \"kept\".", {"name"})
      .WithLabels({"say \"hi\"\\\nbye"})
      .Set(1);
  EXPECT_EQ(registry.Render(),
            "# HELP walk_odd Back\\\\slash and\\nnewline \"kept\".\n"
            "# TYPE walk_odd gauge\n"
            "walk_odd{name=\"say \\\"hi\\\"\\\\\\nbye\"} 1\n");
}

TEST(RenderTest, FamiliesInRegistrationOrderChildrenByLabelValues) {
  MetricsRegistry registry;
  CounterFamily& zeta = registry.AddCounter("zeta_total", "Registered first.", {"a", "b"});
  registry.AddGauge("alpha", "Registered second.", {});
  registry.AddCounter("empty_total", "Labeled, never used.", {"code"});
  zeta.WithLabels({"y", "1"}).Increment();
  zeta.WithLabels({"x", "2"}).Increment();
  zeta.WithLabels({"x", "10"}).Increment();
  zeta.WithLabels({"", "3"}).Increment();
  EXPECT_EQ(registry.Render(),
            "# HELP zeta_total Registered first.\n"
            "# TYPE zeta_total counter\n"
            "zeta_total{a=\"\",b=\"3\"} 1\n"
            "zeta_total{a=\"x\",b=\"10\"} 1\n"
            "zeta_total{a=\"x\",b=\"2\"} 1\n"
            "zeta_total{a=\"y\",b=\"1\"} 1\n"
            "# HELP alpha Registered second.\n"
            "# TYPE alpha gauge\n"
            "alpha 0\n"
            "# HELP empty_total Labeled, never used.\n"
            "# TYPE empty_total counter\n");
}

TEST(FamilyTest, WithLabelsReturnsTheSameChild) {
  MetricsRegistry registry;
  CounterFamily& family = registry.AddCounter("walk_errors_total", "Errors.", {"code"});
  Counter& first = family.WithLabels({"NOT_FOUND"});
  for (int i = 0; i < 100; ++i) family.WithLabels({absl::StrCat("other", i)});
  EXPECT_EQ(&family.WithLabels({"NOT_FOUND"}), &first);

  CounterFamily& unlabeled = registry.AddCounter("walk_all_total", "All.", {});
  EXPECT_EQ(&unlabeled.Get(), &unlabeled.WithLabels({}));
}

TEST(FamilyDeathTest, WrongLabelCountIsAProgrammingError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  MetricsRegistry registry;
  CounterFamily& family = registry.AddCounter("walk_errors_total", "Errors.", {"code", "map"});
  // Asserts in debug builds; without asserts, the values are padded so output stays valid.
  EXPECT_DEBUG_DEATH(family.WithLabels({"NOT_FOUND"}).Increment(), "one label value");
}

TEST(ConcurrencyTest, ThreadsGetExactTotals) {
  MetricsRegistry registry;
  CounterFamily& counters = registry.AddCounter("walk_hits_total", "Hits.", {"shard"});
  HistogramFamily& histograms =
      registry.AddHistogram("walk_sizes", "Sizes.", {}, ExponentialBuckets(1, 2, 8));
  constexpr int kThreads = 8;
  constexpr int kIterations = 50000;

  std::atomic<bool> done{false};
  std::thread scraper([&] {  // renders while the others update, to exercise the locking
    while (!done) EXPECT_FALSE(registry.Render().empty());
  });
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kIterations; ++i) {
        counters.WithLabels({"all"}).Increment();
        counters.WithLabels({absl::StrCat("s", t)}).Increment(0.5);
        histograms.Get().Observe(i % 300);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  done = true;
  scraper.join();

  EXPECT_EQ(counters.WithLabels({"all"}).Value(), kThreads * kIterations);
  for (int t = 0; t < kThreads; ++t) {
    EXPECT_EQ(counters.WithLabels({absl::StrCat("s", t)}).Value(), kIterations * 0.5);
  }
  const Histogram& histogram = histograms.Get();
  EXPECT_EQ(histogram.Count(), uint64_t{kThreads} * kIterations);
  double expected_sum = 0;
  for (int i = 0; i < kIterations; ++i) expected_sum += i % 300;
  EXPECT_EQ(histogram.Sum(), expected_sum * kThreads);  // integers: exact in a double
}

TEST(ProcessMetricsTest, ReportsPlausibleValues) {
  MetricsRegistry registry;
  AddProcessMetrics(registry);
  const std::string text = registry.Render();
  EXPECT_GT(SampleValue(text, "process_resident_memory_bytes"), 1 << 20);
  EXPECT_GE(SampleValue(text, "process_virtual_memory_bytes"),
            SampleValue(text, "process_resident_memory_bytes"));
  EXPECT_GE(SampleValue(text, "process_open_fds"), 3);  // stdin, stdout, stderr
  const double now =
      std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
  const double start = SampleValue(text, "process_start_time_seconds");
  EXPECT_LE(start, now + 1);
  EXPECT_GT(start, now - 24 * 3600);
  // Computed once: a later scrape reports the same start time.
  EXPECT_EQ(SampleValue(registry.Render(), "process_start_time_seconds"), start);
}

// Runs `command` through the shell; returns its exit status and puts stdout+stderr in `output`.
int RunCommand(const std::string& command, std::string& output) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[512];
  size_t read = 0;
  while ((read = fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, read);
  const int status = pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(PromtoolTest, AcceptsEveryKindOfMetric) {
  constexpr char kPromtool[] = "/usr/bin/promtool";
  if (access(kPromtool, X_OK) != 0) GTEST_SKIP() << kPromtool << " not installed";

  MetricsRegistry registry;
  CounterFamily& requests = registry.AddCounter(
      "walk_requests_total", "Walk requests by method and code.", {"method", "code"});
  requests.WithLabels({"Walk", "OK"}).Increment(3);
  requests.WithLabels({"quote\"back\\slash\nnewline", "\\"}).Increment();
  requests.WithLabels({"", "unicode \xc3\xa9"}).Increment(0.25);
  registry.AddCounter("walk_restarts_total", "Never incremented.", {});
  GaugeFamily& loaded = registry.AddGauge("walk_maps_loaded", "Maps loaded.\nBy \\ name.", {"map"});
  loaded.WithLabels({"east"}).Set(1e20);
  loaded.WithLabels({"west"}).Set(-kInf);
  loaded.WithLabels({"north"}).Set(kNaN);
  loaded.WithLabels({"south"}).Set(1.5e-9);
  HistogramFamily& latency = registry.AddHistogram("walk_latency_seconds", "Walk latency.",
                                                   {"method"}, ExponentialBuckets(0.0001, 4, 10));
  latency.WithLabels({"Walk"}).Observe(0.003);
  latency.WithLabels({"Walk"}).Observe(500);  // only in +Inf
  latency.WithLabels({"Batch \"x\""}).Observe(0.0001);
  registry.AddHistogram("walk_path_steps", "Path length.", {}, {10, 100, 1000}).Get().Observe(7);
  registry.AddCallbackGauge("walk_uptime_seconds", "Seconds since start.", [] { return 12.5; });
  registry.AddCallbackGauge("walk_broken_reading", "Reads NaN.", [] { return kNaN; });
  AddProcessMetrics(registry);

  const std::string text = registry.Render();
  ASSERT_TRUE(Contains(text, "le=\"+Inf\""));
  const std::filesystem::path path = std::filesystem::path(::testing::TempDir()) /
                                     absl::StrCat("walk_metrics_", getpid(), ".prom");
  {
    std::ofstream file(path);
    file << text;
    ASSERT_TRUE(file.good()) << "cannot write " << path;
  }
  std::string output;
  const int status =
      RunCommand(absl::StrCat(kPromtool, " check metrics < '", path.string(), "'"), output);
  std::filesystem::remove(path);
  EXPECT_EQ(status, 0) << "promtool output:\n" << output << "\nexposition:\n" << text;
}

TEST(MetricsHttpServerTest, ServesMetricsAndProbes) {
  MetricsRegistry registry;
  registry.AddCounter("walk_requests_total", "Requests.", {}).Get().Increment(7);
  std::atomic<bool> serving{false};
  MetricsHttpServer server(registry, [&serving] { return serving.load(); });
  absl::StatusOr<int> port = server.Start("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.status();
  ASSERT_GT(*port, 0);

  httplib::Client client("127.0.0.1", *port);
  client.set_connection_timeout(std::chrono::seconds(5));
  client.set_read_timeout(std::chrono::seconds(5));

  httplib::Result metrics = client.Get("/metrics");
  ASSERT_TRUE(metrics) << httplib::to_string(metrics.error());
  EXPECT_EQ(metrics->status, 200);
  EXPECT_EQ(metrics->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_EQ(metrics->body, registry.Render());
  EXPECT_TRUE(Contains(metrics->body, "\nwalk_requests_total 7\n"));

  httplib::Result healthz = client.Get("/healthz");
  ASSERT_TRUE(healthz);
  EXPECT_EQ(healthz->status, 200);
  EXPECT_EQ(healthz->body, "ok\n");

  httplib::Result not_ready = client.Get("/readyz");
  ASSERT_TRUE(not_ready);
  EXPECT_EQ(not_ready->status, 503);
  EXPECT_EQ(not_ready->body, "not serving\n");

  serving = true;
  httplib::Result ready = client.Get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);
  EXPECT_EQ(ready->body, "serving\n");

  httplib::Result missing = client.Get("/nope");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 404);
  httplib::Result post = client.Post("/metrics", "x", "text/plain");
  ASSERT_TRUE(post);
  EXPECT_EQ(post->status, 404);

  server.Stop();
  server.Stop();  // idempotent
  EXPECT_FALSE(client.Get("/healthz"));
}

TEST(MetricsHttpServerTest, ReportsBindErrorsWithTheAddress) {
  MetricsRegistry registry;
  MetricsHttpServer first(registry, nullptr);
  absl::StatusOr<int> port = first.Start("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.status();
  EXPECT_EQ(first.Start("127.0.0.1", 0).status().code(), absl::StatusCode::kFailedPrecondition);

  MetricsHttpServer second(registry, nullptr);
  absl::StatusOr<int> taken = second.Start("127.0.0.1", *port);
  EXPECT_EQ(taken.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(Contains(taken.status().message(), absl::StrCat("127.0.0.1:", *port)));

  absl::StatusOr<int> bad_port = second.Start("127.0.0.1", 70000);
  EXPECT_EQ(bad_port.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(bad_port.status().message(), "127.0.0.1:70000"));

  absl::StatusOr<int> bad_host = second.Start("no such host!", 0);
  EXPECT_EQ(bad_host.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(Contains(bad_host.status().message(), "no such host!:0"));

  // Stop, then start again on the same port.
  first.Stop();
  absl::StatusOr<int> again = second.Start("127.0.0.1", *port);
  ASSERT_TRUE(again.ok()) << again.status();
  httplib::Client client("127.0.0.1", *port);
  httplib::Result ready = client.Get("/readyz");
  ASSERT_TRUE(ready);
  EXPECT_EQ(ready->status, 200);  // no is_serving function: always serving
}

TEST(MetricsHttpServerTest, StopRightAfterStartDoesNotHang) {
  MetricsRegistry registry;
  for (int i = 0; i < 20; ++i) {
    MetricsHttpServer server(registry, nullptr);
    ASSERT_TRUE(server.Start("127.0.0.1", 0).ok());
  }  // the destructor stops
}

}  // namespace
}  // namespace walk::server
