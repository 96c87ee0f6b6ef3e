// walkctl batch's input: the fast reading of usual lines gives exactly what the full JSON reading
// gives, and unusual or malformed lines still get nlohmann's reading and a clear error.
#include "client/batch_input.h"

#include "gtest/gtest.h"

namespace walk::client {
namespace {

TEST(BatchInputTest, UsualLinesReadAsTheJsonDocumentSays) {
  BatchDefaults defaults;
  defaults.profile = "neutral";
  auto pair = ParseJsonPair(
      R"({"id": "q1", "world": "W", "from": [1.5, 2e1], "to": [3, 4, -0.25], "profile": "P", "band": 10, "continent": 2})",
      7, defaults);
  ASSERT_TRUE(pair.ok()) << pair.status();
  EXPECT_EQ(pair->line, 7u);
  EXPECT_EQ(pair->id, "q1");
  EXPECT_EQ(pair->walk.world(), "W");
  EXPECT_EQ(pair->walk.profile(), "P");
  EXPECT_EQ(pair->walk.band(), 10u);
  EXPECT_EQ(pair->walk.from().continent(), 2u);
  EXPECT_EQ(pair->walk.from().x_yards(), 1.5);
  EXPECT_EQ(pair->walk.from().y_yards(), 20.0);
  EXPECT_FALSE(pair->walk.from().has_z_yards());
  EXPECT_EQ(pair->walk.to().z_yards(), -0.25);
  EXPECT_EQ(pair->walk.to().continent(), 2u);

  // Defaults fill what a line leaves out; a numeric id is kept as its text.
  pair = ParseJsonPair(R"({"id":184,"from":[0.1,0.2],"to":[0.3,0.4]})", 1, defaults);
  ASSERT_TRUE(pair.ok()) << pair.status();
  EXPECT_EQ(pair->id, "184");
  EXPECT_EQ(pair->walk.world(), "default");
  EXPECT_EQ(pair->walk.profile(), "neutral");
  EXPECT_EQ(pair->walk.from().x_yards(), 0.1);
  EXPECT_EQ(pair->walk.to().y_yards(), 0.4);

  // Unusual but valid lines (escapes, other keys, fractional ids) are read too.
  pair = ParseJsonPair(
      R"({"id": "a\"b", "note": {"x": 1}, "id2": 1, "from": [1, 2], "to": [3, 4]})", 2, defaults);
  ASSERT_TRUE(pair.ok()) << pair.status();
  EXPECT_EQ(pair->id, "a\"b");
  pair = ParseJsonPair(R"({"id": 1.50, "from": [1, 2], "to": [3, 4]})", 3, defaults);
  ASSERT_TRUE(pair.ok()) << pair.status();
  EXPECT_EQ(pair->id, "1.5");
}

TEST(BatchInputTest, MalformedLinesNameTheirLineAndWhatIsWrong) {
  const BatchDefaults defaults;
  const struct {
    const char* text;
    const char* error;
  } cases[] = {
      {R"({"from": [1, 2], "to": [3, 4],})", "line 5: not a JSON object"},
      {R"({"from": [1, 2]})", "line 5: from and to are required"},
      {R"({"from": [1], "to": [3, 4]})", "line 5: from: expected [x, y] or [x, y, z] yards"},
      {R"({"from": [1, "2"], "to": [3, 4]})", "line 5: from: coordinates must be numbers"},
      {R"({"from": [1, 2], "to": [3, 4], "band": -10})", "line 5: band: expected 0, 10, ..., 50"},
      {R"({"from": [1, 2], "to": [3, 4], "world": 5})", "line 5: world: expected a string"},
      {R"({"from": [1, 2], "to": [3, 4], "continent": "x"})",
       "line 5: continent: expected a continent id"},
      {R"({"from": [01, 2], "to": [3, 4]})", "line 5: not a JSON object"},
      {"not json", "line 5: not a JSON object"},
  };
  for (const auto& c : cases) {
    auto pair = ParseJsonPair(c.text, 5, defaults);
    ASSERT_FALSE(pair.ok()) << c.text;
    EXPECT_EQ(std::string(pair.status().message()).rfind(c.error, 0), 0u)
        << c.text << ": " << pair.status();
  }
}

}  // namespace
}  // namespace walk::client
