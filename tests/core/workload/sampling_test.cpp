// Batch sampling: seeded, with replacement, and the token-budget stopping rule of lengths.h.
#include <gtest/gtest.h>

#include <set>

#include "workload/lengths.h"

namespace slimpack {
namespace {

const LengthPool kPool{"test-pool", {100, 250, 1000, 4000, 16000}};

std::vector<Tokens> lengths_of(const Batch& b) {
  std::vector<Tokens> v;
  for (const auto& s : b.sequences) v.push_back(s.length);
  return v;
}

TEST(SampleBatch, CountIsDeterministicAndDrawsFromThePool) {
  auto a = sample_batch(kPool, {0, 500, 7});
  auto b = sample_batch(kPool, {0, 500, 7});
  auto c = sample_batch(kPool, {0, 500, 8});
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  ASSERT_EQ(a->sequences.size(), 500u);
  EXPECT_EQ(lengths_of(*a), lengths_of(*b));
  EXPECT_NE(lengths_of(*a), lengths_of(*c));
  std::set<Tokens> seen;
  for (std::size_t i = 0; i < a->sequences.size(); ++i) {
    EXPECT_EQ(a->sequences[i].id, "s" + std::to_string(i));
    seen.insert(a->sequences[i].length);
  }
  // With replacement over 500 draws every one of the 5 lengths appears.
  EXPECT_EQ(seen, (std::set<Tokens>{100, 250, 1000, 4000, 16000}));
}

TEST(SampleBatch, BudgetStopsAtFirstSequenceReachingIt) {
  for (std::uint64_t seed = 1; seed <= 50; ++seed) {
    for (Tokens budget : {Tokens{1}, Tokens{100}, Tokens{5000}, Tokens{1} << 20}) {
      auto b = sample_batch(kPool, {budget, 0, seed});
      ASSERT_TRUE(b.ok());
      ASSERT_FALSE(b->sequences.empty());
      const Tokens total = b->total_tokens();
      EXPECT_GE(total, budget);
      // Without its last sequence the batch was still under the budget.
      EXPECT_LT(total - b->sequences.back().length, budget);
    }
  }
}

TEST(SampleBatch, BudgetIsDeterministicAndWinsOverCount) {
  auto a = sample_batch(kPool, {100000, 3, 42});
  auto b = sample_batch(kPool, {100000, 0, 42});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(lengths_of(*a), lengths_of(*b));
  EXPECT_GT(a->sequences.size(), 3u);
  // Budget draws and count draws share the stream: the first k agree.
  auto c = sample_batch(kPool, {0, 4, 42});
  ASSERT_TRUE(c.ok());
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(c->sequences[i].length, a->sequences[i].length);
}

TEST(SampleBatch, SingleLengthPoolHitsBudgetExactly) {
  const LengthPool pool{"u", {4096}};
  auto b = sample_batch(pool, {kDefaultBatchTokens, 0, kDefaultSeed});
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->sequences.size(), 256u);  // 2^20 / 4096
  EXPECT_EQ(b->total_tokens(), kDefaultBatchTokens);
}

TEST(SampleBatch, DefaultWorkloadFromPreset) {
  auto pool = preset_pool(kDefaultPreset, kDefaultSeed, 10000);
  ASSERT_TRUE(pool.ok());
  auto b = sample_batch(*pool, {kDefaultBatchTokens, 0, kDefaultSeed});
  ASSERT_TRUE(b.ok());
  EXPECT_GE(b->total_tokens(), kDefaultBatchTokens);
  EXPECT_LT(b->total_tokens() - b->sequences.back().length, kDefaultBatchTokens);
  auto again = sample_batch(*pool, {kDefaultBatchTokens, 0, kDefaultSeed});
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(lengths_of(*b), lengths_of(*again));
}

TEST(SampleBatch, BadSpecs) {
  struct Case {
    LengthPool pool;
    BatchSpec spec;
    const char* want;
  };
  const std::vector<Case> cases = {
      {{"empty-pool", {}}, {100, 0, 1}, "empty-pool: the length pool is empty"},
      {kPool, {-1, 0, 1}, "token budget -1 is negative"},
      {kPool, {0, -2, 1}, "sequence count -2 is negative"},
      {kPool, {0, 0, 1}, "give a token budget or a sequence count"},
      {kPool, {Tokens{1} << 40, 0, 1}, "more than the maximum"},
      {kPool, {0, std::int64_t{1} << 30, 1}, "more than the maximum"},
  };
  for (const auto& c : cases) {
    auto b = sample_batch(c.pool, c.spec);
    ASSERT_FALSE(b.ok()) << c.want;
    EXPECT_EQ(b.error().kind, ErrorKind::BadInput);
    EXPECT_NE(b.error().message.find(c.want), std::string::npos) << b.error().message;
  }
}

TEST(BatchFromPool, KeepsOrderAndNamesSequences) {
  const Batch b = batch_from_pool(kPool);
  ASSERT_EQ(b.sequences.size(), 5u);
  EXPECT_EQ(b.sequences[0].id, "s0");
  EXPECT_EQ(b.sequences[4].id, "s4");
  EXPECT_EQ(lengths_of(b), kPool.lengths);
  EXPECT_EQ(b.total_tokens(), 21350);
}

}  // namespace
}  // namespace slimpack
