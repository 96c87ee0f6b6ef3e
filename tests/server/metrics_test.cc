// Tests of walkd's metrics: the gauges read at scrape time, the WalkMetrics families (names,
// labels, help texts, buckets), and the metrics port (the Exposer with /healthz and /readyz) on
// ephemeral loopback ports, its exposition checked by promtool.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nav/query/answer.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "prometheus/text_serializer.h"
#include "server/metrics_exposer.h"
#include "server/metrics_gauges.h"
#include "server/walk_metrics.h"
#include "tests/server/http_get.h"

namespace walk::server {
namespace {

using walk::testing::HttpGet;
using walk::testing::HttpReply;
using walk::testing::HttpRequest;
using walk::testing::SampleValue;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr char kTextContentType[] = "text/plain; charset=utf-8";

// Succeeds if `text` contains `part`; on failure shows both.
::testing::AssertionResult Contains(absl::string_view text, absl::string_view part) {
  if (absl::StrContains(text, part)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << part << "\" not found in:\n" << text;
}

// What a scrape of `collectable` says, in the text exposition format.
std::string Exposition(const prometheus::Collectable& collectable) {
  std::ostringstream out;
  prometheus::TextSerializer().Serialize(out, collectable.Collect());
  return out.str();
}

TEST(CallbackGaugesTest, ReadsEveryGaugeAtEachCollect) {
  CallbackGauges gauges;
  double depth = 3;
  gauges.Add("walk_queue_depth", "Queued walks.", [&depth] { return depth; });
  gauges.Add("walk_broken_reading", "Reads NaN.", [] { return kNaN; });

  std::vector<prometheus::MetricFamily> families = gauges.Collect();
  ASSERT_EQ(families.size(), 2u);
  EXPECT_EQ(families[0].name, "walk_queue_depth");
  EXPECT_EQ(families[0].help, "Queued walks.");
  EXPECT_EQ(families[0].type, prometheus::MetricType::Gauge);
  ASSERT_EQ(families[0].metric.size(), 1u);
  EXPECT_TRUE(families[0].metric[0].label.empty());
  EXPECT_EQ(families[0].metric[0].gauge.value, 3);
  EXPECT_EQ(families[1].name, "walk_broken_reading");

  depth = 7.5;
  EXPECT_EQ(Exposition(gauges),
            "# HELP walk_queue_depth Queued walks.\n"
            "# TYPE walk_queue_depth gauge\n"
            "walk_queue_depth 7.5\n"
            "# HELP walk_broken_reading Reads NaN.\n"
            "# TYPE walk_broken_reading gauge\n"
            "walk_broken_reading Nan\n");
}

TEST(ProcessGaugesTest, ReportsPlausibleValues) {
  CallbackGauges gauges;
  AddProcessGauges(gauges);
  const std::string text = Exposition(gauges);
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
  EXPECT_EQ(SampleValue(Exposition(gauges), "process_start_time_seconds"), start);
  for (const char* help : {"# HELP process_resident_memory_bytes Resident memory size in bytes.\n",
                           "# HELP process_virtual_memory_bytes Virtual memory size in bytes.\n",
                           "# HELP process_start_time_seconds Start time of the process since "
                           "unix epoch in seconds.\n",
                           "# HELP process_open_fds Number of open file descriptors.\n"}) {
    EXPECT_TRUE(Contains(text, help));
  }
}

TEST(WalkMetricsTest, UnlabeledFamiliesStartAtZeroAndLabeledOnesAppearWhenUsed) {
  prometheus::Registry registry;
  WalkMetrics metrics(registry);
  const std::string text = Exposition(registry);
  EXPECT_TRUE(Contains(text, "\nwalk_search_nodes_expanded_total 0\n"));
  EXPECT_TRUE(Contains(text, "\nwalk_search_heap_operations_total 0\n"));
  EXPECT_TRUE(Contains(text, "\nwalk_worlds_loaded 0\n"));
  EXPECT_TRUE(Contains(text, "\nwalk_worlds_failed 0\n"));
  for (const char* name :
       {"walk_requests_total", "walk_request_duration_seconds", "walk_searches_total",
        "walk_walks_total", "walk_band_zero_walks_total", "walk_store_lookups_total",
        "walk_batch_pairs_total", "walk_live_requests_total", "walk_live_events_total"}) {
    EXPECT_FALSE(absl::StrContains(text, name)) << name << " in:\n" << text;
  }
}

TEST(WalkMetricsTest, RecordsEveryFamilyWithItsNameLabelsAndHelp) {
  prometheus::Registry registry;
  WalkMetrics metrics(registry);
  metrics.RecordRequest("Walk", "OK", 0.003);
  metrics.RecordRequest("Walk", "OK", 2.0);
  metrics.RecordRequest("Walk", "NOT_FOUND", 0.00001);
  metrics.RecordRequest("Info", "OK", kNaN);  // counted, not observed
  nav::WalkAnswer answer;
  answer.status = nav::WalkStatus::kOk;
  answer.method = nav::Method::kStraightLine;
  answer.stats.nodes_expanded = 40;
  answer.stats.heap_operations = 90;
  metrics.RecordWalk(answer, 0);
  metrics.RecordWalk(answer, 0);
  metrics.SetCchCustomizeSeconds("default", 1.5);
  metrics.RecordBandZeroWalk(20);
  metrics.SetWorlds(2, 1);
  metrics.RecordStoreLookup(true);
  metrics.RecordStoreLookup(false);
  metrics.RecordStoreLookups(5, 0);
  metrics.RecordBatchPair("stored");
  metrics.RecordBatchPairs("routed", 4);
  metrics.RecordBatchPairs("failed", 0);  // no child
  metrics.RecordLiveRequest("LivePath", "OK");
  metrics.RecordLiveEvents("zama", "cache_hit", 3);
  metrics.RecordLiveEvents("zama", "cache_miss", 0);  // no child
  metrics.SetLiveWorld("zama", 7, 12, 3);
  metrics.SetLiveFallbacksWaiting(5);
  metrics.DeclareWorldReloads("arena");  // both series, at 0
  metrics.DeclareWorldReloads("city");
  metrics.RecordWorldReload("city", true);
  metrics.RecordWorldReload("city", false);
  metrics.RecordWorldReload("city", true);

  const std::string text = Exposition(registry);
  const std::string straight_line = nav::MethodName(nav::Method::kStraightLine);
  const std::string ok = nav::WalkStatusName(nav::WalkStatus::kOk);
  for (const std::string& line : std::vector<std::string>{
           "# HELP walk_requests_total RPCs finished, by method and gRPC code.\n"
           "# TYPE walk_requests_total counter\n",
           "walk_requests_total{code=\"OK\",method=\"Walk\"} 2\n",
           "walk_requests_total{code=\"NOT_FOUND\",method=\"Walk\"} 1\n",
           "walk_requests_total{code=\"OK\",method=\"Info\"} 1\n",
           "# HELP walk_request_duration_seconds Time from an RPC's arrival to its reply, "
           "seconds.\n# TYPE walk_request_duration_seconds histogram\n",
           "walk_request_duration_seconds_count{method=\"Walk\"} 3\n",
           "walk_request_duration_seconds_sum{method=\"Walk\"} 2.00301\n",
           "# HELP walk_searches_total Walks answered, by the search that answered them.\n"
           "# TYPE walk_searches_total counter\n",
           "walk_searches_total{method=\"" + straight_line + "\"} 2\n",
           "# HELP walk_search_nodes_expanded_total Surfaces or nodes the searches took off "
           "their heaps.\n# TYPE walk_search_nodes_expanded_total counter\n"
           "walk_search_nodes_expanded_total 80\n",
           "# HELP walk_search_heap_operations_total Heap pushes, decrease-keys and pops of the "
           "searches.\n# TYPE walk_search_heap_operations_total counter\n"
           "walk_search_heap_operations_total 180\n",
           "# HELP walk_walks_total Walks answered, by walk status and danger band.\n"
           "# TYPE walk_walks_total counter\n",
           "walk_walks_total{band=\"0\",status=\"" + ok + "\"} 2\n",
           "walk_cch_customize_seconds{world=\"default\"} 1.5\n",
           "# HELP walk_band_zero_walks_total Danger-band walks answered by band 0's walk "
           "without a danger search, by band.\n# TYPE walk_band_zero_walks_total counter\n"
           "walk_band_zero_walks_total{band=\"20\"} 1\n",
           "# HELP walk_worlds_loaded Worlds loaded and serving.\n"
           "# TYPE walk_worlds_loaded gauge\nwalk_worlds_loaded 2\n",
           "# HELP walk_worlds_failed Worlds that failed to load.\n"
           "# TYPE walk_worlds_failed gauge\nwalk_worlds_failed 1\n",
           "# HELP walk_store_lookups_total Walk-store lookups, by result (hit or miss).\n"
           "# TYPE walk_store_lookups_total counter\n",
           "walk_store_lookups_total{result=\"hit\"} 6\n",
           "walk_store_lookups_total{result=\"miss\"} 1\n",
           "# HELP walk_batch_pairs_total Pairs of WalkBatch streams, by outcome.\n"
           "# TYPE walk_batch_pairs_total counter\n",
           "walk_batch_pairs_total{outcome=\"stored\"} 1\n",
           "walk_batch_pairs_total{outcome=\"routed\"} 4\n",
           "# HELP walk_live_requests_total LiveService calls finished, by method and gRPC code.\n"
           "# TYPE walk_live_requests_total counter\n"
           "walk_live_requests_total{code=\"OK\",method=\"LivePath\"} 1\n",
           "# HELP walk_live_events_total What each live world did: paths, cache hits and "
           "misses, searches, direct lines, kept routes, fallbacks deferred and served, "
           "updates, ... (docs/operations.md).\n# TYPE walk_live_events_total counter\n"
           "walk_live_events_total{event=\"cache_hit\",world=\"zama\"} 3\n",
           "walk_live_revision{world=\"zama\"} 7\n",
           "walk_live_path_cache_entries{world=\"zama\"} 12\n",
           "walk_live_unit_routes{world=\"zama\"} 3\n",
           "walk_live_fallbacks_waiting 5\n",
           "# HELP walk_world_reloads_total Reloads that found a world's files changed, by "
           "world and result: reloaded (the new world serves) or failed (the old one still "
           "does).\n# TYPE walk_world_reloads_total counter\n",
           "walk_world_reloads_total{result=\"reloaded\",world=\"arena\"} 0\n",
           "walk_world_reloads_total{result=\"failed\",world=\"arena\"} 0\n",
           "walk_world_reloads_total{result=\"reloaded\",world=\"city\"} 2\n",
           "walk_world_reloads_total{result=\"failed\",world=\"city\"} 1\n",
       }) {
    EXPECT_TRUE(Contains(text, line));
  }
  EXPECT_FALSE(absl::StrContains(text, "outcome=\"failed\""));
  EXPECT_FALSE(absl::StrContains(text, "event=\"cache_miss\""));
  EXPECT_FALSE(absl::StrContains(text, "walk_request_duration_seconds_count{method=\"Info\"}"));
}

TEST(WalkMetricsTest, RequestDurationBucketsAreTenMicrosecondsTimesPowersOfTwoAndAHalf) {
  prometheus::Registry registry;
  WalkMetrics metrics(registry);
  metrics.RecordRequest("Walk", "OK", 0.00001);  // on the first bound: in its bucket
  metrics.RecordRequest("Walk", "OK", 0.003);
  metrics.RecordRequest("Walk", "OK", 2.0);  // only in +Inf

  std::vector<prometheus::MetricFamily> families = registry.Collect();
  const prometheus::MetricFamily* family = nullptr;
  for (const prometheus::MetricFamily& f : families) {
    if (f.name == "walk_request_duration_seconds") family = &f;
  }
  ASSERT_NE(family, nullptr);
  ASSERT_EQ(family->metric.size(), 1u);
  const prometheus::ClientMetric::Histogram& histogram = family->metric[0].histogram;
  ASSERT_EQ(histogram.bucket.size(), 15u);
  double bound = 0.00001;
  for (int i = 0; i < 14; ++i) {
    EXPECT_EQ(histogram.bucket[i].upper_bound, bound) << "bucket " << i;
    bound *= 2.5;
  }
  EXPECT_EQ(histogram.bucket[14].upper_bound, kInf);
  // 0.003 falls in (0.00244140625, 0.006103515625], bucket 7.
  EXPECT_EQ(histogram.bucket[0].cumulative_count, 1u);
  EXPECT_EQ(histogram.bucket[6].cumulative_count, 1u);
  EXPECT_EQ(histogram.bucket[7].cumulative_count, 2u);
  EXPECT_EQ(histogram.bucket[13].cumulative_count, 2u);
  EXPECT_EQ(histogram.bucket[14].cumulative_count, 3u);
  EXPECT_EQ(histogram.sample_count, 3u);

  const std::string text = Exposition(registry);
  EXPECT_TRUE(
      Contains(text, "walk_request_duration_seconds_bucket{method=\"Walk\",le=\"1e-05\"} 1\n"));
  EXPECT_TRUE(
      Contains(text, "walk_request_duration_seconds_bucket{method=\"Walk\",le=\"+Inf\"} 3\n"));
}

TEST(WalkMetricsTest, ThreadsGetExactTotals) {
  prometheus::Registry registry;
  WalkMetrics metrics(registry);
  constexpr int kThreads = 8;
  constexpr int kIterations = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&metrics, t] {
      const std::string method = absl::StrCat("Method", t % 3);
      for (int i = 0; i < kIterations; ++i) {
        metrics.RecordRequest(method, "OK", 0.001);
        metrics.RecordBatchPair("stored");
      }
    });
  }
  // Scrapes while the others update.
  for (int i = 0; i < 50; ++i) EXPECT_FALSE(Exposition(registry).empty());
  for (std::thread& thread : threads) thread.join();

  const std::string text = Exposition(registry);
  EXPECT_EQ(SampleValue(text, "walk_batch_pairs_total{outcome=\"stored\"}"),
            kThreads * kIterations);
  double requests = 0;
  double observed = 0;
  for (int m = 0; m < 3; ++m) {
    requests += SampleValue(
        text, absl::StrCat("walk_requests_total{code=\"OK\",method=\"Method", m, "\"}"));
    observed += SampleValue(
        text, absl::StrCat("walk_request_duration_seconds_count{method=\"Method", m, "\"}"));
  }
  EXPECT_EQ(requests, kThreads * kIterations);
  EXPECT_EQ(observed, kThreads * kIterations);
}

// A registry and scrape-time gauges to expose, with a sample of each.
struct Collectables {
  Collectables() {
    prometheus::BuildCounter()
        .Name("walk_requests_total")
        .Help("Requests.")
        .Register(*registry)
        .Add({})
        .Increment(7);
    gauges->Add("walk_uptime_seconds", "Seconds since start.", [] { return 12.5; });
  }
  std::vector<std::weak_ptr<prometheus::Collectable>> Both() const { return {registry, gauges}; }

  std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>();
  std::shared_ptr<CallbackGauges> gauges = std::make_shared<CallbackGauges>();
};

std::string Loopback(int port) { return absl::StrCat("127.0.0.1:", port); }

// The reply to `method` `path`, failing the test when there is none.
HttpReply Ask(const std::string& address, const std::string& path,
              const std::string& method = "GET") {
  absl::StatusOr<HttpReply> reply = HttpRequest(address, method, path);
  EXPECT_TRUE(reply.ok()) << method << " " << path << ": " << reply.status();
  return reply.ok() ? *reply : HttpReply{};
}

TEST(MetricsExposerTest, ServesMetricsAndProbes) {
  Collectables collectables;
  std::atomic<bool> serving{false};
  MetricsExposer exposer(collectables.Both(), [&serving] { return serving.load(); });
  absl::StatusOr<int> port = exposer.Start("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.status();
  ASSERT_GT(*port, 0);
  const std::string address = Loopback(*port);

  const HttpReply metrics = Ask(address, "/metrics");
  EXPECT_EQ(metrics.status, 200);
  EXPECT_EQ(metrics.headers.at("content-type"), kTextContentType);
  EXPECT_TRUE(Contains(metrics.body, "\nwalk_requests_total 7\n"));
  EXPECT_TRUE(Contains(metrics.body, "\nwalk_uptime_seconds 12.5\n"));
  EXPECT_TRUE(Contains(metrics.body, "# TYPE walk_uptime_seconds gauge\n"));

  const HttpReply healthz = Ask(address, "/healthz");
  EXPECT_EQ(healthz.status, 200);
  EXPECT_EQ(healthz.headers.at("content-type"), kTextContentType);
  EXPECT_EQ(healthz.body, "ok\n");

  const HttpReply not_ready = Ask(address, "/readyz");
  EXPECT_EQ(not_ready.status, 503);
  EXPECT_EQ(not_ready.headers.at("content-type"), kTextContentType);
  EXPECT_EQ(not_ready.body, "not serving\n");
  serving = true;
  const HttpReply ready = Ask(address, "/readyz?probe=1");
  EXPECT_EQ(ready.status, 200);
  EXPECT_EQ(ready.headers.at("content-type"), kTextContentType);
  EXPECT_EQ(ready.body, "serving\n");

  const HttpReply head = Ask(address, "/healthz", "HEAD");
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.headers.at("content-length"), "3");
  EXPECT_EQ(head.body, "");
  const HttpReply head_metrics = Ask(address, "/metrics", "HEAD");
  EXPECT_EQ(head_metrics.status, 200);
  EXPECT_EQ(head_metrics.headers.at("content-type"), kTextContentType);
  EXPECT_EQ(head_metrics.body, "");

  for (const char* path : {"/nope", "/", "/metrics/more", "/healthz/x"}) {
    const HttpReply missing = Ask(address, path);
    EXPECT_EQ(missing.status, 404) << path;
    EXPECT_EQ(missing.body, "not found\n") << path;
  }
  for (const char* method : {"POST", "PUT", "DELETE"}) {
    EXPECT_EQ(Ask(address, "/metrics", method).status, 404) << method;
    EXPECT_EQ(Ask(address, "/healthz", method).status, 404) << method;
  }

  exposer.Stop();
  exposer.Stop();  // idempotent
  EXPECT_EQ(HttpGet(address, "/healthz").status().code(), absl::StatusCode::kUnavailable);
}

// Connections that open and send nothing (a port scanner, a stuck client) must not keep a
// liveness probe waiting: more of them than the exposer has workers, and /healthz still answers.
TEST(MetricsExposerTest, IdleConnectionsDoNotHoldTheProbes) {
  Collectables collectables;
  MetricsExposer exposer(collectables.Both(), [] { return true; });
  absl::StatusOr<int> port = exposer.Start("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.status();
  std::vector<int> idle;
  for (int i = 0; i < 12; ++i) {
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in at{};
    at.sin_family = AF_INET;
    at.sin_port = htons(static_cast<std::uint16_t>(*port));
    at.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&at), sizeof at), 0);
    idle.push_back(fd);
  }
  for (int probe = 0; probe < 3; ++probe) {
    absl::StatusOr<HttpReply> healthz =
        testing::HttpRequest(Loopback(*port), "GET", "/healthz", /*timeout_s=*/15);
    ASSERT_TRUE(healthz.ok()) << healthz.status();
    EXPECT_EQ(healthz->status, 200);
  }
  for (int fd : idle) close(fd);
  exposer.Stop();
}

TEST(MetricsExposerTest, ReportsErrorsWithTheAddress) {
  Collectables collectables;
  MetricsExposer first(collectables.Both(), nullptr);
  absl::StatusOr<int> port = first.Start("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.status();
  EXPECT_EQ(first.Start("127.0.0.1", 0).status().code(), absl::StatusCode::kFailedPrecondition);

  MetricsExposer second(collectables.Both(), nullptr);
  absl::StatusOr<int> taken = second.Start("127.0.0.1", *port);
  EXPECT_EQ(taken.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_TRUE(Contains(taken.status().message(), Loopback(*port)));

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
  EXPECT_EQ(*again, *port);
  EXPECT_EQ(Ask(Loopback(*port), "/readyz").status, 200);  // no is_serving: always serving
}

TEST(MetricsExposerTest, ListensOnTheAddressAHostNameResolvesTo) {
  Collectables collectables;
  MetricsExposer exposer(collectables.Both(), nullptr);
  absl::StatusOr<int> port = exposer.Start("localhost", 0);
  ASSERT_TRUE(port.ok()) << port.status();
  EXPECT_EQ(Ask(Loopback(*port), "/healthz").body, "ok\n");
}

TEST(MetricsExposerTest, ExposersInOneProcessAnswerEachForItself) {
  Collectables a_collectables;
  Collectables b_collectables;
  b_collectables.gauges->Add("walk_only_b", "Only B has it.", [] { return 1.0; });
  MetricsExposer a(a_collectables.Both(), [] { return true; });
  MetricsExposer b(b_collectables.Both(), [] { return false; });
  absl::StatusOr<int> a_port = a.Start("127.0.0.1", 0);
  ASSERT_TRUE(a_port.ok()) << a_port.status();
  // The same port on another loopback address: told apart by server, not by port.
  absl::StatusOr<int> b_port = b.Start("127.0.0.2", *a_port);
  ASSERT_TRUE(b_port.ok()) << b_port.status();
  const std::string a_address = Loopback(*a_port);
  const std::string b_address = absl::StrCat("127.0.0.2:", *b_port);

  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(Ask(a_address, "/readyz").status, 200);
    EXPECT_EQ(Ask(b_address, "/readyz").status, 503);
    EXPECT_FALSE(absl::StrContains(Ask(a_address, "/metrics").body, "walk_only_b"));
    EXPECT_TRUE(Contains(Ask(b_address, "/metrics").body, "\nwalk_only_b 1\n"));
  }
  b.Stop();
  EXPECT_EQ(Ask(a_address, "/readyz").status, 200);
}

TEST(MetricsExposerTest, StopRightAfterStartDoesNotHang) {
  Collectables collectables;
  for (int i = 0; i < 20; ++i) {
    MetricsExposer exposer(collectables.Both(), nullptr);
    ASSERT_TRUE(exposer.Start("127.0.0.1", 0).ok());
  }  // the destructor stops
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

TEST(PromtoolTest, AcceptsAScrapeOfEveryKindOfMetric) {
  constexpr char kPromtool[] = "/usr/bin/promtool";
  if (access(kPromtool, X_OK) != 0) GTEST_SKIP() << kPromtool << " not installed";

  Collectables collectables;
  prometheus::Registry& registry = *collectables.registry;
  WalkMetrics metrics(registry);
  metrics.RecordRequest("Walk", "OK", 0.003);
  metrics.RecordRequest("quote\"back\\slash\nnewline", "unicode \xc3\xa9", 500);
  nav::WalkAnswer answer;
  metrics.RecordWalk(answer, 0);
  metrics.SetWorlds(1, 0);
  metrics.RecordStoreLookups(3, 1);
  metrics.RecordBatchPairs("stored", 2);
  metrics.RecordLiveRequest("LivePath", "OK");
  metrics.RecordLiveEvents("zama", "path", 1);
  auto& loaded = prometheus::BuildGauge()
                     .Name("walk_maps_loaded")
                     .Help("Maps loaded, by name.")
                     .Register(registry);
  loaded.Add({{"map", "east"}}).Set(1e20);
  loaded.Add({{"map", "west"}}).Set(-kInf);
  loaded.Add({{"map", "north"}}).Set(kNaN);
  loaded.Add({{"map", "south"}}).Set(1.5e-9);
  collectables.gauges->Add("walk_broken_reading", "Reads NaN.", [] { return kNaN; });
  AddProcessGauges(*collectables.gauges);

  MetricsExposer exposer(collectables.Both(), nullptr);
  absl::StatusOr<int> port = exposer.Start("127.0.0.1", 0);
  ASSERT_TRUE(port.ok()) << port.status();
  const HttpReply scrape = Ask(Loopback(*port), "/metrics");
  ASSERT_EQ(scrape.status, 200);
  const std::string& text = scrape.body;
  ASSERT_TRUE(Contains(text, "le=\"+Inf\""));
  ASSERT_TRUE(Contains(text, "process_open_fds"));

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

}  // namespace
}  // namespace walk::server
