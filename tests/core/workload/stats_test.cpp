#include <gtest/gtest.h>

#include "workload/lengths.h"

namespace slimpack {
namespace {

TEST(LengthStats, EmptyIsAllZero) {
  const LengthStats s = compute_stats({});
  EXPECT_EQ(s.count, 0);
  EXPECT_EQ(s.total_tokens, 0);
  EXPECT_EQ(s.min, 0);
  EXPECT_EQ(s.max, 0);
  EXPECT_EQ(s.median, 0.0);
  EXPECT_EQ(s.p99, 0.0);
}

TEST(LengthStats, SingleValue) {
  const LengthStats s = compute_stats({4096});
  EXPECT_EQ(s.count, 1);
  EXPECT_EQ(s.total_tokens, 4096);
  EXPECT_EQ(s.min, 4096);
  EXPECT_EQ(s.max, 4096);
  EXPECT_DOUBLE_EQ(s.median, 4096.0);
  EXPECT_DOUBLE_EQ(s.mean, 4096.0);
  EXPECT_DOUBLE_EQ(s.p99, 4096.0);
}

TEST(LengthStats, EvenCountMedianAndP99Interpolate) {
  // Sorted 1,2,3,4: median at rank 1.5 -> 2.5; p99 at rank 2.97 -> 3 + 0.97 * (4 - 3) = 3.97.
  const LengthStats s = compute_stats({4, 2, 1, 3});
  EXPECT_EQ(s.count, 4);
  EXPECT_EQ(s.total_tokens, 10);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_NEAR(s.p99, 3.97, 1e-12);
}

TEST(LengthStats, UnsortedOddCount) {
  // Sorted 1,3,7,10,100: median 7, mean 121/5, p99 at rank 3.96 -> 10 + 0.96 * 90 = 96.4.
  const LengthStats s = compute_stats({10, 1, 7, 3, 100});
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 100);
  EXPECT_EQ(s.total_tokens, 121);
  EXPECT_DOUBLE_EQ(s.median, 7.0);
  EXPECT_DOUBLE_EQ(s.mean, 24.2);
  EXPECT_NEAR(s.p99, 96.4, 1e-9);
}

TEST(LengthStats, P99OnExactRank) {
  // 1..101: rank 0.99 * 100 = 99 exactly, the 100th value.
  std::vector<Tokens> v;
  for (Tokens i = 101; i >= 1; --i) v.push_back(i);
  const LengthStats s = compute_stats(v);
  EXPECT_DOUBLE_EQ(s.p99, 100.0);
  EXPECT_DOUBLE_EQ(s.median, 51.0);
  EXPECT_DOUBLE_EQ(s.mean, 51.0);
  EXPECT_EQ(s.total_tokens, 5151);
}

TEST(LengthStats, LargeLengthsDoNotOverflow) {
  const std::vector<Tokens> v(1000, kMaxSequenceLength);
  const LengthStats s = compute_stats(v);
  EXPECT_EQ(s.total_tokens, 1000 * kMaxSequenceLength);
  EXPECT_DOUBLE_EQ(s.p99, static_cast<double>(kMaxSequenceLength));
}

}  // namespace
}  // namespace slimpack
