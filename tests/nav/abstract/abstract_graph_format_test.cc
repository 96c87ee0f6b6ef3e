// The abstract graph's file (nav/abstract/abstract_graph_format.h): a byte flipped anywhere in it
// is refused as DATA_LOSS naming the file and the section it hit, never served; a file of
// another format version is stale, not damaged.
#include "nav/abstract/abstract_graph_format.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "gtest/gtest.h"
#include "nav/abstract/abstract_graph.h"
#include "nav/demo/demo_world.h"
#include "nav/grid/crc32c.h"

namespace walk::nav {
namespace {

// The 1 x 1-tile demo world (floors, lifts, zones), prepared for two profiles.
const World& OneTileWorld() {
  static const World* world = [] {
    DemoOptions options;
    options.tiles_x = options.tiles_y = 1;
    auto generated = GenerateDemoWorld(options);
    EXPECT_TRUE(generated.ok()) << generated.status();
    return new World(generated.ok() ? *std::move(generated) : World());
  }();
  return *world;
}

const AbstractGraph& DemoGraph() {
  static const AbstractGraph* graph = [] {
    AbstractGraphOptions options;
    options.profiles = {"shortest", "neutral"};
    auto built = BuildAbstractGraph(OneTileWorld(), options);
    EXPECT_TRUE(built.ok()) << built.status();
    return new AbstractGraph(built.ok() ? *std::move(built) : AbstractGraph());
  }();
  return *graph;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void WriteAll(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

class AbstractGraphFormatTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_);
    ASSERT_TRUE(SaveAbstractGraph(DemoGraph(), dir_).ok());
    bytes_ = ReadAll(path_);
    ASSERT_GT(bytes_.size(), 1000u);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  const std::string dir_ = ::testing::TempDir() + "/abstract_graph_format_test";
  const std::string path_ = dir_ + "/" + kGraphFileName;
  std::string bytes_;
};

TEST_F(AbstractGraphFormatTest, EveryFlippedByteIsRefusedNamingTheFileAndTheSection) {
  ASSERT_TRUE(LoadAbstractGraph(OneTileWorld(), dir_).ok());
  // Every byte of the file's head and tail, and about 400 spread over the rest.
  std::set<std::size_t> offsets;
  for (std::size_t i = 0; i < 64; ++i) offsets.insert(i);
  for (std::size_t i = bytes_.size() - 32; i < bytes_.size(); ++i) offsets.insert(i);
  const std::size_t step = bytes_.size() / 400 + 1;
  for (std::size_t i = 7; i < bytes_.size(); i += step) offsets.insert(i);
  std::map<std::string, int> sections;  // flips by the section the refusal names
  int flips = 0, served = 0, not_data_loss = 0;
  for (std::size_t at : offsets) {
    std::string damaged = bytes_;
    damaged[at] = static_cast<char>(damaged[at] ^ (flips % 2 == 0 ? 0xff : 1 << (at % 8)));
    // Parsed as LoadAbstractGraph parses the file it reads (one flip is read from the file,
    // below): writing each flip out would only time the disk.
    const absl::StatusOr<AbstractGraph> loaded = ParseAbstractGraph(OneTileWorld(), damaged, path_);
    ++flips;
    if (loaded.ok()) {
      if (++served <= 3) ADD_FAILURE() << "byte " << at << " flipped was served";
      continue;
    }
    if (loaded.status().code() != absl::StatusCode::kDataLoss) {
      if (++not_data_loss <= 3) ADD_FAILURE() << "byte " << at << ": " << loaded.status();
      continue;
    }
    const std::string message(loaded.status().message());
    EXPECT_EQ(message.rfind(path_ + ": damaged abstract graph", 0), 0u) << message;
    const std::size_t named = message.find("section '");
    if (named != std::string::npos) {
      sections[message.substr(named + 9, message.find('\'', named + 9) - named - 9)] += 1;
    }
  }
  std::string damaged = bytes_;
  damaged[bytes_.size() / 2] = static_cast<char>(damaged[bytes_.size() / 2] ^ 0x10);
  WriteAll(path_, damaged);
  const absl::Status from_file = LoadAbstractGraph(OneTileWorld(), dir_).status();
  EXPECT_EQ(from_file.code(), absl::StatusCode::kDataLoss) << from_file;
  EXPECT_EQ(from_file.message().rfind(path_ + ": damaged abstract graph (section '", 0), 0u)
      << from_file;
  EXPECT_EQ(served, 0) << "of " << flips << " flips";
  EXPECT_EQ(not_data_loss, 0) << "of " << flips << " flips";
  // The header, and each continent's nodes and arcs and its prices of each profile.
  const std::size_t expected = 1 + OneTileWorld().continents.size() * (1 + 2);
  EXPECT_EQ(sections.size(), expected);
  for (const auto& [section, count] : sections) {
    std::printf("%d flips refused in section '%s'\n", count, section.c_str());
  }
  std::printf("%d flips over %zu bytes, every one refused\n", flips, bytes_.size());
}

TEST_F(AbstractGraphFormatTest, AFileOfAnotherVersionIsStaleNotDamaged) {
  // Version 1 files carried no checksums: stale, run walkgrid prepare again.
  std::string old = bytes_;
  const std::uint32_t one = 1;
  std::memcpy(old.data() + 8, &one, 4);
  std::memcpy(old.data() + 12, &kAbstractGraphVersion, 4);  // what followed the version then
  WriteAll(path_, old);
  absl::Status s = LoadAbstractGraph(OneTileWorld(), dir_).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_NE(s.message().find("format version 1"), absl::string_view::npos) << s;
  EXPECT_NE(s.message().find("walkgrid prepare"), absl::string_view::npos) << s;
  // A version word damaged into 1, its check still that of this version: damaged, not stale.
  std::memcpy(old.data() + 12, bytes_.data() + 12, 4);
  WriteAll(path_, old);
  s = LoadAbstractGraph(OneTileWorld(), dir_).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_NE(s.message().find("format version word"), absl::string_view::npos) << s;
  // A later version, whole (its check holds): stale, not damaged.
  std::string later = bytes_;
  const std::uint32_t next = kGraphFormatVersion + 1;
  std::memcpy(later.data() + 8, &next, 4);
  char head[12];
  std::memcpy(head, later.data(), 12);
  const std::uint32_t check = Crc32c(head, sizeof head);
  std::memcpy(later.data() + 12, &check, 4);
  WriteAll(path_, later);
  s = LoadAbstractGraph(OneTileWorld(), dir_).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  // Another continent: its graph is stale, left out (that continent walks the fine grid).
  World other = OneTileWorld();
  other.continents[0].content_id ^= 1;
  WriteAll(path_, bytes_);
  absl::StatusOr<AbstractGraph> stale = LoadAbstractGraph(other, dir_);
  ASSERT_TRUE(stale.ok()) << stale.status();
  EXPECT_TRUE(stale->continents.empty());
  EXPECT_EQ(stale->unprepared.size(), 1u);
}

void ExpectSamePrices(const ArcPrices& a, const ArcPrices& b) {
  EXPECT_EQ(a.profile, b.profile);
  EXPECT_EQ(a.seconds, b.seconds);
  EXPECT_EQ(a.yards, b.yards);
  EXPECT_EQ(a.mix_first, b.mix_first);
  ASSERT_EQ(a.mix.size(), b.mix.size());
  for (std::size_t i = 0; i < a.mix.size(); ++i) {
    EXPECT_EQ(a.mix[i].zone, b.mix[i].zone);
    EXPECT_EQ(a.mix[i].seconds, b.mix[i].seconds);
    EXPECT_EQ(a.mix[i].yards, b.mix[i].yards);
  }
}

TEST_F(AbstractGraphFormatTest, PricesLeftInTheFileReadAsTheyWereSaved) {
  absl::StatusOr<AbstractGraph> lazy =
      LoadAbstractGraph(OneTileWorld(), dir_, {.prices_on_first_use = true});
  ASSERT_TRUE(lazy.ok()) << lazy.status();
  ASSERT_EQ(lazy->continents.size(), DemoGraph().continents.size());
  for (std::size_t i = 0; i < lazy->continents.size(); ++i) {
    const ContinentGraph& g = lazy->continents[i];
    EXPECT_TRUE(g.prices.empty());
    EXPECT_EQ(g.arc_head, DemoGraph().continents[i].arc_head);
    for (std::size_t p = 0; p < lazy->profiles.size(); ++p) {
      absl::StatusOr<std::shared_ptr<const ArcPrices>> read = g.PricesOf(p);
      ASSERT_TRUE(read.ok()) << read.status();
      ExpectSamePrices(**read, DemoGraph().continents[i].prices[p]);
    }
  }
  // Saved again from what it reads, the file is the same.
  const std::string again = dir_ + "/again";
  std::filesystem::create_directories(again);
  ASSERT_TRUE(SaveAbstractGraph(*lazy, again).ok());
  EXPECT_EQ(ReadAll(again + "/" + kGraphFileName), bytes_);
}

TEST_F(AbstractGraphFormatTest, PricesLeftInTheFileAreCheckedAtLoadAndWhenRead) {
  // A flip in the last profile's prices is refused at load, though they are not parsed then.
  std::string damaged = bytes_;
  const std::size_t at = bytes_.size() - 64;
  damaged[at] = static_cast<char>(damaged[at] ^ 0x20);
  WriteAll(path_, damaged);
  absl::Status s = LoadAbstractGraph(OneTileWorld(), dir_, {.prices_on_first_use = true}).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_NE(s.message().find("prices of neutral"), absl::string_view::npos) << s;
  // Loaded whole, then the file replaced as prepare replaces it (a new file renamed over it):
  // the prices read later are the loaded file's.
  WriteAll(path_, bytes_);
  absl::StatusOr<AbstractGraph> lazy =
      LoadAbstractGraph(OneTileWorld(), dir_, {.prices_on_first_use = true});
  ASSERT_TRUE(lazy.ok()) << lazy.status();
  WriteAll(path_ + ".new", damaged);
  std::filesystem::rename(path_ + ".new", path_);
  absl::StatusOr<std::shared_ptr<const ArcPrices>> read = lazy->continents.back().PricesOf(1);
  ASSERT_TRUE(read.ok()) << read.status();
  ExpectSamePrices(**read, DemoGraph().continents.back().prices[1]);
  // Written over in place after the load: the read refuses what no longer checks out.
  WriteAll(path_, bytes_);
  lazy = LoadAbstractGraph(OneTileWorld(), dir_, {.prices_on_first_use = true});
  ASSERT_TRUE(lazy.ok()) << lazy.status();
  {
    std::fstream file(path_, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp(static_cast<std::streamoff>(at));
    file.put(damaged[at]);
  }
  read = lazy->continents.back().PricesOf(1);
  EXPECT_EQ(read.status().code(), absl::StatusCode::kDataLoss) << read.status();
  EXPECT_NE(read.status().message().find("prices of neutral"), absl::string_view::npos)
      << read.status();
  EXPECT_TRUE(lazy->continents.back().PricesOf(0).ok());  // the other profile's section is whole
}

}  // namespace
}  // namespace walk::nav
