#include "client/walkctl_batch.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "client/batch_resume.h"
#include "client/trip_stream.h"
#include "client/walk_client.h"
#include "client/walk_stream.h"
#include "nlohmann/json.hpp"

namespace walk::client {
namespace {

using Clock = std::chrono::steady_clock;

// `name` without `prefix`, in lower case: WALK_STATUS_NO_WALK -> no_walk.
std::string LowerSuffix(const std::string& name, std::size_t prefix) {
  std::string text = name.substr(std::min(prefix, name.size()));
  for (char& ch : text) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return text;
}

// `value` as JSON, the shortest text that reads back to it, in fixed notation with a decimal
// point (as nlohmann::json writes doubles in this range: 12.5, 3.0).
void AppendNumber(double value, std::string* out) {
  char text[64];
  const auto [end, error] =
      std::to_chars(text, text + sizeof text, value, std::chars_format::fixed);
  if (error != std::errc() || !std::isfinite(value)) {
    *out += nlohmann::json(value).dump();  // null for a non-finite value, as before
    return;
  }
  out->append(text, end);
  if (std::find(text, end, '.') == end) *out += ".0";
}

// `{"line":N,"id":...,QUESTION` of a pair's answer line (batch_resume.h).
void AppendLineStart(const BatchPair& pair, bool trip, std::string* out) {
  *out += "{\"line\":";
  *out += std::to_string(pair.line);
  if (!pair.id.empty()) {
    *out += ",\"id\":";
    *out += nlohmann::json(pair.id).dump();
  }
  *out += ',';
  *out += QuestionFields(pair.walk, trip);
}

// The output line of one answered pair, written straight into `out` (a million lines are
// written in a batch: no JSON object a line): the question, the model its answer is under
// (`served`: the model walkd served the question under when asked), the answer.
void AppendAnswerLine(const BatchPair& pair, const PairAnswer& a, const std::string& served,
                      std::string* out) {
  AppendLineStart(pair, /*trip=*/false, out);
  if (a.code == 0) {
    *out += ",\"model\":\"";
    *out += LineModel(served, ModelText(a.model));
    *out += '"';
  }
  if (a.code != 0) {
    *out += ",\"error\":";
    *out += nlohmann::json(absl::StatusCodeToString(static_cast<absl::StatusCode>(a.code)) + ": " +
                           a.message)
                .dump();
    *out += "}\n";
    return;
  }
  static const std::size_t kStatusPrefix = std::string("WALK_STATUS_").size();
  static const std::size_t kMethodPrefix = std::string("METHOD_").size();
  *out += ",\"status\":\"";
  *out += LowerSuffix(walk::v1::WalkStatus_Name(a.status), kStatusPrefix);
  *out += '"';
  if (a.status == walk::v1::WALK_STATUS_OK) {
    *out += ",\"seconds\":";
    AppendNumber(a.seconds, out);
    *out += ",\"yards\":";
    AppendNumber(a.yards, out);
  }
  *out += a.stored ? ",\"stored\":true" : ",\"stored\":false";
  if (a.from_band_zero) *out += ",\"from_band_zero\":true";
  if (a.backend == walk::v1::BACKEND_NAVMESH) *out += ",\"backend\":\"navmesh\"";
  static const std::size_t kHybridPrefix = std::string("HYBRID_CHOICE_").size();
  if (a.hybrid != walk::v1::HYBRID_CHOICE_UNSPECIFIED) {
    *out += ",\"hybrid\":\"";
    *out += LowerSuffix(walk::v1::HybridChoice_Name(a.hybrid), kHybridPrefix);
    *out += '"';
  }
  *out += ",\"method\":\"";
  *out += LowerSuffix(walk::v1::Method_Name(a.method), kMethodPrefix);
  *out += "\"}\n";
}

class Progress {
 public:
  // Counts `done` of `total` pairs, and two shares of them named `first` and `second`.
  explicit Progress(std::uint64_t total, const char* first = "stored",
                    const char* second = "routed")
      : total_(total), first_(first), second_(second), tty_(isatty(2) != 0) {}
  void Update(std::uint64_t done, std::uint64_t stored, std::uint64_t routed, bool last = false) {
    const auto now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - start_).count();
    const double every = tty_ ? 0.2 : 5.0;
    if (!last && std::chrono::duration<double>(now - shown_).count() < every) return;
    shown_ = now;
    const double rate = seconds > 0 ? done / seconds : 0;
    const double share = total_ > 0 ? static_cast<double>(done) / total_ : 1.0;
    if (tty_) {
      const int width = 30, filled = static_cast<int>(share * width);
      std::fprintf(stderr, "\r[%s%s] %3.0f%% %llu/%llu pairs, %.0f pairs/s, %s %llu, %s %llu ",
                   std::string(filled, '=').c_str(), std::string(width - filled, ' ').c_str(),
                   share * 100, static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(total_), rate, first_,
                   static_cast<unsigned long long>(stored), second_,
                   static_cast<unsigned long long>(routed));
      if (last) std::fprintf(stderr, "\n");
    } else {
      std::fprintf(stderr, "walkctl batch: %llu/%llu pairs, %.0f pairs/s, %s %llu, %s %llu\n",
                   static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                   rate, first_, static_cast<unsigned long long>(stored), second_,
                   static_cast<unsigned long long>(routed));
    }
  }

 private:
  std::uint64_t total_;
  const char* first_;
  const char* second_;
  bool tty_;
  Clock::time_point start_ = Clock::now();
  Clock::time_point shown_ = Clock::time_point();
};

// What the client counted of a batch, beside walkd's summary.
struct ClientCounts {
  std::uint64_t asked = 0, failed = 0, refused = 0, malformed = 0, kept = 0;
  StaleCounts stale;
  std::map<std::uint32_t, std::uint64_t> kept_by_band;  // earlier answers kept, by band
};

// Adds walkd's counts of one band into the list `into`.
void AddBandStats(const walk::v1::BandStats& from,
                  google::protobuf::RepeatedPtrField<walk::v1::BandStats>* into) {
  auto it = std::find_if(into->begin(), into->end(),
                         [&](const walk::v1::BandStats& b) { return b.band() == from.band(); });
  if (it == into->end()) {
    *into->Add() = from;
    return;
  }
  it->set_asked(it->asked() + from.asked());
  it->set_stored(it->stored() + from.stored());
  it->set_routed(it->routed() + from.routed());
  it->set_straight(it->straight() + from.straight());
  it->set_failed(it->failed() + from.failed());
  it->set_refused(it->refused() + from.refused());
}

// Every band the batch touched (asked or kept), ascending: walkd's counts and the kept ones.
std::map<std::uint32_t, std::pair<walk::v1::BandStats, std::uint64_t>> BandsOf(
    const walk::v1::BatchSummary& summary, const ClientCounts& counted) {
  std::map<std::uint32_t, std::pair<walk::v1::BandStats, std::uint64_t>> bands;
  for (const walk::v1::BandStats& b : summary.bands()) bands[b.band()].first = b;
  for (const auto& [band, kept] : counted.kept_by_band) bands[band].second = kept;
  for (auto& [band, stats] : bands) stats.first.set_band(band);
  return bands;
}

// The summary line that closes the answers file: the seed's stats line, in total and per band.
nlohmann::ordered_json SummaryLine(const walk::v1::BatchSummary& summary,
                                   const ClientCounts& counted) {
  nlohmann::ordered_json last;
  last["summary"] = {{"asked", counted.asked},
                     {"stored", summary.stored()},
                     {"routed", summary.routed()},
                     {"straight", summary.straight()},
                     {"failed", counted.failed},
                     {"refused", counted.refused},
                     {"malformed", counted.malformed},
                     {"kept", counted.kept},
                     {"stale", {{"pair", counted.stale.pair}, {"model", counted.stale.model}}},
                     {"store_answers_before", summary.store_answers_before()},
                     {"store_answers_after", summary.store_answers_after()},
                     {"wall_s", summary.wall_seconds()}};
  // Per band: asked (sent to walkd), kept (from the file), stored, routed, straight, failed,
  // refused.
  nlohmann::ordered_json bands = nlohmann::ordered_json::object();
  for (const auto& [band, stats] : BandsOf(summary, counted)) {
    const walk::v1::BandStats& b = stats.first;
    bands[std::to_string(band)] = {{"asked", b.asked()},       {"kept", stats.second},
                                   {"stored", b.stored()},     {"routed", b.routed()},
                                   {"straight", b.straight()}, {"failed", b.failed()},
                                   {"refused", b.refused()}};
  }
  last["summary"]["bands"] = bands;
  // Pairs of a danger band answered by band 0's walk, by band (docs/cost_model.md).
  nlohmann::ordered_json reused = nlohmann::ordered_json::object();
  for (const walk::v1::BandCount& c : summary.from_band_zero()) {
    reused[std::to_string(c.band())] = c.count();
  }
  last["summary"]["from_band_zero"] = reused;
  if (summary.trips() > 0) {
    last["summary"]["trips"] = summary.trips();
    last["summary"]["trips_rode"] = summary.trips_rode();
  }
  // Hybrid pairs by what they took, by band (docs/navmesh.md).
  for (const auto& [name, counts] : {std::pair{"navmesh", &summary.navmesh()},
                                     std::pair{"navmesh_none", &summary.navmesh_none()},
                                     std::pair{"navmesh_detour", &summary.navmesh_detour()}}) {
    nlohmann::ordered_json by_band = nlohmann::ordered_json::object();
    for (const walk::v1::BandCount& c : *counts) by_band[std::to_string(c.band())] = c.count();
    if (!by_band.empty()) last["summary"][name] = by_band;
  }
  return last;
}

// The stats line for people (standard error): totals, then a row per band.
std::string HumanSummary(const walk::v1::BatchSummary& summary, const ClientCounts& counted) {
  std::string text = absl::StrFormat(
      "walkctl batch: %d pairs asked, %d kept (%d stale: %d pair changed, %d model changed), "
      "%d malformed; store %d -> %d answers; %.2f s\n",
      counted.asked, counted.kept, counted.stale.pair + counted.stale.model, counted.stale.pair,
      counted.stale.model, counted.malformed, summary.store_answers_before(),
      summary.store_answers_after(), summary.wall_seconds());
  absl::StrAppendFormat(&text, "  %5s %10s %10s %10s %10s %10s %10s %10s\n", "band", "asked",
                        "kept", "stored", "routed", "straight", "failed", "refused");
  for (const auto& [band, stats] : BandsOf(summary, counted)) {
    const walk::v1::BandStats& b = stats.first;
    absl::StrAppendFormat(&text, "  %5d %10d %10d %10d %10d %10d %10d %10d\n", band, b.asked(),
                          stats.second, b.stored(), b.routed(), b.straight(), b.failed(),
                          b.refused());
  }
  return text;
}

// What a stream answered, as output lines by pair (unset: not asked, or never answered).
struct Asked {
  std::vector<std::optional<std::string>> lines;
  std::uint64_t done = 0, failed = 0, refused = 0;
  walk::v1::BatchSummary summary;
  absl::Status status;  // the stream's own outcome
};

// Adds the counts of `from` into `into`, band by band; the store's figures are the largest seen
// and the wall time the longest (parts run side by side, perhaps on different replicas).
void AddSummary(const walk::v1::BatchSummary& from, walk::v1::BatchSummary* into) {
  into->set_asked(into->asked() + from.asked());
  into->set_stored(into->stored() + from.stored());
  into->set_routed(into->routed() + from.routed());
  into->set_straight(into->straight() + from.straight());
  into->set_refused(into->refused() + from.refused());
  into->set_trips(into->trips() + from.trips());
  into->set_trips_rode(into->trips_rode() + from.trips_rode());
  into->set_store_answers_before(
      std::max(into->store_answers_before(), from.store_answers_before()));
  into->set_store_answers_after(std::max(into->store_answers_after(), from.store_answers_after()));
  into->set_wall_seconds(std::max(into->wall_seconds(), from.wall_seconds()));
  using Counts = google::protobuf::RepeatedPtrField<walk::v1::BandCount>;
  auto add = [](const Counts& more, Counts* counts) {
    for (const walk::v1::BandCount& c : more) {
      auto it = std::find_if(counts->begin(), counts->end(),
                             [&](const walk::v1::BandCount& x) { return x.band() == c.band(); });
      if (it == counts->end()) {
        *counts->Add() = c;
      } else {
        it->set_count(it->count() + c.count());
      }
    }
  };
  add(from.failed(), into->mutable_failed());
  add(from.from_band_zero(), into->mutable_from_band_zero());
  add(from.navmesh(), into->mutable_navmesh());
  add(from.navmesh_none(), into->mutable_navmesh_none());
  add(from.navmesh_detour(), into->mutable_navmesh_detour());
  for (const walk::v1::BandStats& b : from.bands()) AddBandStats(b, into->mutable_bands());
  std::sort(into->mutable_bands()->begin(), into->mutable_bands()->end(),
            [](const walk::v1::BandStats& a, const walk::v1::BandStats& b) {
              return a.band() < b.band();
            });
}

// Answers `walks` over WalkBatch calls sharing one channel, at most args.streams open at once
// (4 by default): the walks are cut into pieces that the calls pull as they finish, so a
// balancer that only rotates over replicas already connected spreads the later pieces over
// replicas that connected late. The pieces' answers in order, their summaries added up, the
// first failed piece's status.
StreamedWalks StreamInParts(const BatchArgs& args, const std::vector<walk::v1::WalkRequest>& walks,
                            const StreamOptions& options) {
  const std::size_t streams = static_cast<std::size_t>(std::max(args.streams, 1));
  // Pieces: several per stream, so late replicas get work; large enough that a call's own cost
  // is small beside its pairs'.
  std::size_t piece =
      std::clamp<std::size_t>(walks.size() / (streams * 8) + 1, 64, std::size_t{1} << 16);
  piece = std::min(piece, (walks.size() + streams - 1) / streams);  // a piece for every stream
  piece = std::max<std::size_t>(piece, 1);
  const std::size_t pieces = std::max<std::size_t>((walks.size() + piece - 1) / piece, 1);
  if (streams == 1 || pieces == 1)
    return StreamWalks(args.connection, args.timeout_s, walks, options);
  Connection shared = args.connection;
  shared.shared_channel = args.connection.OpenChannel(64 << 20);
  // Connect before the first call (bounded): a balancer then has its addresses connecting.
  shared.shared_channel->WaitForConnected(std::chrono::system_clock::now() +
                                          std::chrono::seconds(5));
  StreamedWalks all;
  all.answers.resize(walks.size());
  walk::v1::BatchSummary summary;
  std::mutex mu;
  std::size_t next = 0;  // guarded by mu
  auto work = [&] {
    for (;;) {
      std::size_t part;
      {
        std::lock_guard<std::mutex> lock(mu);
        if (next == pieces || !all.status.ok()) return;
        part = next++;
      }
      const std::size_t begin = part * piece;
      const std::size_t end = std::min(walks.size(), begin + piece);
      const std::vector<walk::v1::WalkRequest> mine(walks.begin() + begin, walks.begin() + end);
      StreamOptions own = options;
      own.on_answer = [&](std::size_t k, const PairAnswer& a) {
        std::lock_guard<std::mutex> lock(mu);
        if (options.on_answer) options.on_answer(begin + k, a);
      };
      StreamedWalks got = StreamWalks(shared, args.timeout_s, mine, own);
      std::lock_guard<std::mutex> lock(mu);
      for (std::size_t k = 0; k < got.answers.size(); ++k) {
        all.answers[begin + k] = std::move(got.answers[k]);
      }
      if (got.summary) AddSummary(*got.summary, &summary);
      if (all.status.ok() && !got.status.ok()) all.status = got.status;
    }
  };
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < std::min(streams, pieces); ++t) threads.emplace_back(work);
  for (std::thread& t : threads) t.join();
  all.summary = summary;
  return all;
}

// Streams pairs[to_ask] as walks.
Asked AskWalks(const BatchArgs& args, const std::vector<BatchPair>& pairs,
               const std::vector<std::size_t>& to_ask, const ServedModels& models,
               const walk::v1::Limits& limits) {
  std::vector<walk::v1::WalkRequest> walks;
  walks.reserve(to_ask.size());
  for (std::size_t i : to_ask) walks.push_back(pairs[i].walk);
  Asked asked;
  std::uint64_t stored = 0, routed = 0;
  Progress progress(to_ask.size());
  StreamOptions stream_options;
  stream_options.FitToLimits(limits);
  stream_options.on_answer = [&](std::size_t, const PairAnswer& answer) {
    ++asked.done;
    (answer.stored ? stored : routed) += answer.code == 0 ? 1 : 0;
    progress.Update(asked.done, stored, routed);
  };
  StreamedWalks streamed = StreamInParts(args, walks, stream_options);
  progress.Update(asked.done, stored, routed, true);
  asked.lines.resize(pairs.size());
  for (std::size_t k = 0; k < to_ask.size(); ++k) {
    const std::optional<PairAnswer>& answer = streamed.answers[k];
    if (!answer) continue;
    const BatchPair& pair = pairs[to_ask[k]];
    std::string line;
    AppendAnswerLine(pair, *answer, models.For(pair.walk, /*trip=*/false), &line);
    asked.lines[to_ask[k]] = std::move(line);
    asked.failed += answer->code == 0 && answer->status != walk::v1::WALK_STATUS_OK;
    asked.refused += answer->code != 0;
  }
  asked.summary = streamed.summary.value_or(walk::v1::BatchSummary());
  asked.status = streamed.status;
  return asked;
}

// The output line of one answered trip: the question, the trips' model, the trip.
std::string TripLine(const BatchPair& pair, const TripAnswer& a, const std::string& served) {
  std::string out;
  AppendLineStart(pair, /*trip=*/true, &out);
  nlohmann::ordered_json line;
  if (a.code != 0) {
    line["error"] =
        absl::StatusCodeToString(static_cast<absl::StatusCode>(a.code)) + ": " + a.message;
  } else {
    const walk::v1::TripResponse& trip = a.trip;
    line["model"] = LineModel(served, trip.model_id());
    line["status"] = a.found() ? "ok" : "no_trip";
    if (a.found()) {
      line["seconds"] = trip.seconds();
      line["yards"] = trip.yards();
      line["rode"] = trip.rode();
      line["hearthstone"] = trip.hearthstone_used();
      nlohmann::json legs = nlohmann::json::array();
      for (const walk::v1::TripLeg& leg : trip.legs()) {
        legs.push_back(LowerSuffix(walk::v1::TripLegKind_Name(leg.kind()),
                                   std::string("TRIP_LEG_KIND_").size()));
      }
      line["legs"] = legs;
    }
    if (trip.walk_status() == walk::v1::WALK_STATUS_OK) line["walk_seconds"] = trip.walk_seconds();
    line["walks_priced"] = trip.walks_priced();
    line["walks_stored"] = trip.walks_stored();
  }
  const std::string members = line.dump();  // {...}: its members follow the question
  out += ',';
  out.append(members, 1, std::string::npos);
  out += '\n';
  return out;
}

// Streams pairs[to_ask] as trips (docs/trips.md), each also priced by walking all the way.
Asked AskTrips(const BatchArgs& args, const std::vector<BatchPair>& pairs,
               const std::vector<std::size_t>& to_ask, const ServedModels& models,
               const walk::v1::Limits& limits) {
  StreamOptions fitted;
  fitted.FitToLimits(limits);
  std::vector<walk::v1::TripRequest> trips;
  trips.reserve(to_ask.size());
  for (std::size_t i : to_ask) {
    const walk::v1::WalkRequest& walk = pairs[i].walk;
    walk::v1::TripRequest& trip = trips.emplace_back();
    trip.set_world(walk.world());
    *trip.mutable_from() = walk.from();
    *trip.mutable_to() = walk.to();
    trip.set_profile(walk.profile());
    trip.set_band(walk.band());
    trip.set_price_walk(true);
  }
  Asked asked;
  std::uint64_t rode = 0, walked = 0;
  Progress progress(to_ask.size(), "rode", "walked");
  StreamedTrips streamed = StreamTrips(
      args.connection, args.timeout_s, trips,
      [&](std::size_t, const TripAnswer& a) {
        ++asked.done;
        (a.trip.rode() ? rode : walked) += a.code == 0 ? 1 : 0;
        progress.Update(asked.done, rode, walked);
      },
      fitted.message_pairs);
  progress.Update(asked.done, rode, walked, true);
  asked.lines.resize(pairs.size());
  for (std::size_t k = 0; k < to_ask.size(); ++k) {
    const std::optional<TripAnswer>& answer = streamed.answers[k];
    if (!answer) continue;
    const BatchPair& pair = pairs[to_ask[k]];
    asked.lines[to_ask[k]] = TripLine(pair, *answer, models.For(pair.walk, /*trip=*/true));
    asked.failed += answer->code == 0 && !answer->found();
    asked.refused += answer->code != 0;
  }
  asked.summary = streamed.summary.value_or(walk::v1::BatchSummary());
  asked.status = streamed.status;
  return asked;
}

// Reads every pair of `path`; a malformed line is reported and skipped (counted in `malformed`).
absl::StatusOr<std::vector<BatchPair>> ReadPairs(const std::string& path,
                                                 const BatchDefaults& defaults,
                                                 std::uint64_t* malformed) {
  std::ifstream input(path);
  if (!input) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::vector<BatchPair> pairs;
  const bool csv = absl::EndsWith(path, ".csv");
  std::optional<CsvPairs> csv_pairs;
  std::string text;
  for (std::uint64_t line = 1; std::getline(input, text); ++line) {
    if (text.empty() || text[0] == '#') continue;
    if (csv && !csv_pairs) {
      auto header = CsvPairs::FromHeader(text);
      if (!header.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(path, ": ", header.status().message()));
      }
      csv_pairs = *std::move(header);
      continue;
    }
    absl::StatusOr<BatchPair> pair =
        csv ? csv_pairs->Parse(text, line, defaults) : ParseJsonPair(text, line, defaults);
    if (!pair.ok()) {
      std::cerr << "walkctl: " << path << ": " << pair.status().message() << " (skipped)\n";
      ++*malformed;
      continue;
    }
    pairs.push_back(*std::move(pair));
  }
  return pairs;
}

// Writes the answers file (to a temporary name, renamed into place): every pair's line in input
// order (kept or newly asked; unanswered pairs left out), then `last`. False when it cannot.
bool WriteAnswers(const std::string& out_path, const std::vector<BatchPair>& pairs,
                  std::vector<std::string>& kept, Asked& asked,
                  const nlohmann::ordered_json& last) {
  std::ofstream out(out_path + ".tmp", std::ios::trunc);
  std::string text_out;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (text_out.size() > (1 << 20)) {
      out << text_out;
      text_out.clear();
    }
    if (!kept[i].empty()) {
      text_out += kept[i];
    } else if (asked.lines[i]) {
      text_out += *asked.lines[i];
    }
  }
  out << text_out;
  out << last.dump() << "\n";
  out.close();
  return out && std::rename((out_path + ".tmp").c_str(), out_path.c_str()) == 0;
}

}  // namespace

int DefaultStreams(const ConnectionFiles& files) {
  if (files.lb_policy != "round_robin") return 1;
  for (const char* scheme : {"ipv4:", "ipv6:"}) {
    if (absl::StartsWith(files.address, scheme)) {
      return static_cast<int>(std::count(files.address.begin(), files.address.end(), ',')) + 1;
    }
  }
  return 4;
}

int RunBatch(const BatchArgs& args) {
  ClientCounts counted;
  absl::StatusOr<std::vector<BatchPair>> read =
      ReadPairs(args.pairs_path, args.defaults, &counted.malformed);
  if (!read.ok()) {
    std::cerr << "walkctl: " << read.status().message() << "\n";
    return 2;
  }
  const std::vector<BatchPair>& pairs = *read;

  // The models walkd serves now: every line records its answer's, and an earlier line is kept
  // only under the same one.
  walk::v1::InfoResponse info;
  if (const grpc::Status status = WalkClient(args.connection, 30).Info(&info); !status.ok()) {
    std::cerr << "walkctl: Info: " << status.error_message() << "\n";
    return status.error_code() == grpc::StatusCode::UNAVAILABLE ||
                   status.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED
               ? 3
               : 4;
  }
  const ServedModels models(info);

  EarlierAnswers earlier = EarlierAnswers::Read(args.out_path);
  std::vector<std::string> kept(pairs.size());
  std::vector<std::size_t> to_ask;
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    kept[i] = earlier.Take(pairs[i], args.trips, models.For(pairs[i].walk, args.trips));
    if (kept[i].empty()) {
      to_ask.push_back(i);
    } else {
      ++counted.kept;
      ++counted.kept_by_band[pairs[i].walk.band()];
    }
  }
  counted.stale = earlier.Stale();
  if (!earlier.empty() || counted.stale.pair > 0) {
    std::cerr << "walkctl batch: " << counted.kept << " pairs already answered in " << args.out_path
              << " under the model walkd serves; asking " << to_ask.size() << "\n";
  }

  Asked asked = args.trips ? AskTrips(args, pairs, to_ask, models, info.limits())
                           : AskWalks(args, pairs, to_ask, models, info.limits());
  const absl::Status& status = asked.status;
  if (!status.ok()) {
    std::cerr << "walkctl: " << absl::StatusCodeToString(status.code()) << ": " << status.message()
              << " (" << asked.done << " pairs answered; re-run to ask the rest)\n";
  }
  counted.asked = to_ask.size();
  counted.failed = asked.failed;
  counted.refused = asked.refused;
  const nlohmann::ordered_json last = SummaryLine(asked.summary, counted);
  if (!WriteAnswers(args.out_path, pairs, kept, asked, last)) {
    std::cerr << "walkctl: cannot write " << args.out_path << "\n";
    return 1;
  }
  std::cerr << HumanSummary(asked.summary, counted);
  if (!status.ok()) {
    return status.code() == absl::StatusCode::kUnavailable ||
                   status.code() == absl::StatusCode::kDeadlineExceeded
               ? 3
               : 4;
  }
  return 0;
}

}  // namespace walk::client
