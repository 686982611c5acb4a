#include <gtest/gtest.h>

#include <cmath>

#include "workload/rng.h"

namespace slimpack::workload {
namespace {

// Reference values from an independent Python implementation of the published algorithms.
TEST(Rng, SplitMix64MatchesReference) {
  SplitMix64 sm(1234567);
  EXPECT_EQ(sm.next(), 6457827717110365317ULL);
  EXPECT_EQ(sm.next(), 3203168211198807973ULL);
  EXPECT_EQ(sm.next(), 9817491932198370423ULL);
}

TEST(Rng, Xoshiro256StarStarMatchesReference) {
  Rng rng(42);
  EXPECT_EQ(rng.next(), 1546998764402558742ULL);
  EXPECT_EQ(rng.next(), 6990951692964543102ULL);
  EXPECT_EQ(rng.next(), 12544586762248559009ULL);
}

TEST(Rng, SameSeedSameStreamDifferentSeedDifferentStream) {
  Rng a(7), b(7), c(8);
  bool differs = false;
  for (int i = 0; i < 100; ++i) {
    const auto x = a.next();
    EXPECT_EQ(x, b.next());
    differs |= x != c.next();
  }
  EXPECT_TRUE(differs);
}

TEST(Rng, UniformRanges) {
  Rng rng(3);
  for (int i = 0; i < 10000; ++i) {
    const double u = rng.uniform();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
    const double o = rng.uniform_open();
    EXPECT_GT(o, 0.0);
    EXPECT_LT(o, 1.0);
  }
}

TEST(Rng, BelowCoversRangeWithoutEscaping) {
  Rng rng(5);
  int seen[7] = {};
  for (int i = 0; i < 7000; ++i) {
    const auto k = rng.below(7);
    ASSERT_LT(k, 7u);
    ++seen[k];
  }
  for (int c : seen) EXPECT_GT(c, 800);  // expected 1000 each
  EXPECT_EQ(rng.below(1), 0u);
}

TEST(Rng, NormalHasUnitMoments) {
  Rng rng(11);
  const int n = 200000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    const double z = rng.normal();
    sum += z;
    sum2 += z * z;
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 0.0, 0.01);  // standard error 0.0022
  EXPECT_NEAR(sum2 / n - mean * mean, 1.0, 0.02);
}

TEST(Rng, BoundedDistributionsStayInRange) {
  Rng rng(13);
  for (int i = 0; i < 10000; ++i) {
    const double lu = rng.log_uniform(4096, 32768);
    EXPECT_GE(lu, 4096);
    EXPECT_LE(lu, 32768);
    const double p = rng.truncated_pareto(4096, 262144, 1.0);
    EXPECT_GE(p, 4096);
    EXPECT_LE(p, 262144 * (1 + 1e-12));
  }
}

}  // namespace
}  // namespace slimpack::workload
