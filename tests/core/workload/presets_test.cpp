// Presets: deterministic for a seed, and shaped as docs/design.md section 7 and their descriptions
// say.
#include <gtest/gtest.h>

#include <algorithm>

#include "workload/lengths.h"

namespace slimpack {
namespace {

std::vector<Tokens> draw(const std::string& name, std::uint64_t seed, std::int64_t count) {
  auto pool = preset_pool(name, seed, count);
  EXPECT_TRUE(pool.ok()) << (pool.ok() ? "" : pool.error().message);
  if (!pool.ok()) return {};
  EXPECT_EQ(pool->source, "preset:" + name);
  EXPECT_EQ(static_cast<std::int64_t>(pool->lengths.size()), count);
  return pool->lengths;
}

double share(const std::vector<Tokens>& v, Tokens lo, Tokens hi) {  // share in [lo, hi)
  const auto n = std::count_if(v.begin(), v.end(), [&](Tokens t) { return t >= lo && t < hi; });
  return static_cast<double>(n) / static_cast<double>(v.size());
}

TEST(LengthPresets, NamesAndDescriptions) {
  const std::vector<std::string> want = {"chat-sft", "long-sft-128k", "short-heavy-tail",
                                         "long-256k", "uniform"};
  EXPECT_EQ(length_preset_names(), want);
  for (const auto& n : want) EXPECT_FALSE(length_preset_description(n).empty()) << n;
  EXPECT_TRUE(length_preset_description("nope").empty());
}

TEST(LengthPresets, DeterministicPerSeed) {
  for (const auto& name : length_preset_names()) {
    EXPECT_EQ(draw(name, 42, 2000), draw(name, 42, 2000)) << name;
    // A shorter draw is a prefix of a longer one with the same seed.
    const auto longer = draw(name, 42, 3000);
    const auto shorter = draw(name, 42, 1000);
    EXPECT_TRUE(std::equal(shorter.begin(), shorter.end(), longer.begin())) << name;
  }
  EXPECT_NE(draw("chat-sft", 1, 500), draw("chat-sft", 2, 500));
}

TEST(LengthPresets, ChatSftShape) {
  const auto v = draw("chat-sft", 42, 20000);
  EXPECT_GE(share(v, 1, 4096), 0.985);
  EXPECT_LE(share(v, 1, 4096), 0.995);
  EXPECT_LE(*std::max_element(v.begin(), v.end()), 32768);
  EXPECT_GE(*std::min_element(v.begin(), v.end()), 1);
  EXPECT_GT(share(v, 8192, 32769), 0.0);  // the rare long tail exists
  const LengthStats s = compute_stats(v);
  EXPECT_NEAR(s.median, 640, 40);  // log-normal body median
}

TEST(LengthPresets, LongSft128kShape) {
  const auto v = draw("long-sft-128k", 42, 20000);
  EXPECT_LE(*std::max_element(v.begin(), v.end()), 131072);
  EXPECT_GE(*std::min_element(v.begin(), v.end()), 1);
  EXPECT_NEAR(share(v, 1, 8192), 0.65, 0.02);
  EXPECT_NEAR(share(v, 8192, 65536), 0.28, 0.02);
  EXPECT_NEAR(share(v, 65536, 131073), 0.07, 0.01);
  // The 8K-64K band is flat: its lower and upper halves hold about the same share.
  EXPECT_NEAR(share(v, 8192, 36864), share(v, 36864, 65536), 0.02);
}

TEST(LengthPresets, ShortHeavyTailShape) {
  // The old name is an alias of the same pool.
  EXPECT_EQ(draw("long-tail-256k", 42, 5000), draw("short-heavy-tail", 42, 5000));
  const auto v = draw("short-heavy-tail", 42, 20000);
  EXPECT_GE(share(v, 1, 4096), 0.985);
  EXPECT_LE(*std::max_element(v.begin(), v.end()), 262144);
  EXPECT_GT(share(v, 32768, 262145), 0.0);
  // Over many draws the tail reaches well past 128K.
  const auto big = draw("short-heavy-tail", 7, 400000);
  EXPECT_GT(*std::max_element(big.begin(), big.end()), 131072);
  EXPECT_LE(*std::max_element(big.begin(), big.end()), 262144);
}

// The paper's 256K setting: log-normal body (median 1.5K, sigma 1) and 2% log-uniform 32K-256K.
TEST(LengthPresets, Long256kShape) {
  const auto v = draw("long-256k", 42, 50000);
  EXPECT_NEAR(share(v, 32768, 262145), 0.02, 0.003);
  EXPECT_LE(*std::max_element(v.begin(), v.end()), 262144);
  EXPECT_GT(*std::max_element(v.begin(), v.end()), 250000);  // the tail reaches 256K
  std::vector<Tokens> body;
  for (Tokens t : v)
    if (t < 32768) body.push_back(t);
  EXPECT_NEAR(compute_stats(body).median, 1536, 60);
  // Log-uniform: each octave of the tail (32-64K, 64-128K, 128-256K) holds about a third of it.
  EXPECT_NEAR(share(v, 32768, 65536), share(v, 131072, 262145), 0.003);
  // About half of all tokens are in samples over 32K.
  double all = 0, tail = 0;
  for (Tokens t : v) {
    all += static_cast<double>(t);
    if (t > 32768) tail += static_cast<double>(t);
  }
  EXPECT_GT(tail / all, 0.4);
  EXPECT_LT(tail / all, 0.6);
}

TEST(LengthPresets, UniformIsAll4096) {
  const auto v = draw("uniform", 9, 100);
  EXPECT_TRUE(std::all_of(v.begin(), v.end(), [](Tokens t) { return t == 4096; }));
}

TEST(LengthPresets, BadRequests) {
  auto unknown = preset_pool("chat", 1, 10);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().kind, ErrorKind::BadInput);
  EXPECT_NE(unknown.error().message.find("unknown length preset \"chat\""), std::string::npos);
  EXPECT_NE(
      unknown.error().message.find("chat-sft, long-sft-128k, short-heavy-tail, long-256k, uniform"),
      std::string::npos);
  for (std::int64_t bad : {std::int64_t{0}, std::int64_t{-3}, std::int64_t{1} << 40}) {
    auto r = preset_pool("uniform", 1, bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("sample count " + std::to_string(bad)), std::string::npos);
  }
}

}  // namespace
}  // namespace slimpack
