#include <gtest/gtest.h>

#include <cmath>

#include "cuda/pack_shapes.h"

namespace slimpack::profiling {
namespace {

TEST(PackShapes, TokensPairsAndContextOfASliceAndShortSequences) {
  PackShape p{"mixed", {{0, 4}, {10, 2}, {0, 1}}};
  EXPECT_EQ(pack_tokens(p), 7);
  // 4*5/2 + (2*10 + 2*3/2) + 1 = 10 + 23 + 1
  EXPECT_DOUBLE_EQ(pack_pairs(p), 34.0);
  EXPECT_EQ(pack_context_tokens(p), 4 + 12 + 1);
}

TEST(PackShapes, DescribeFoldsRunsOfEqualSegments) {
  PackShape p{"mixed", {{0, 4096}, {0, 512}, {0, 512}, {8192, 512}}};
  EXPECT_EQ(describe(p), "mixed:1x4096@0+2x512@0+1x512@8192");
}

TEST(PackShapes, FullSweepCoversTokensOffsetsAndShortSequences) {
  auto sweep = make_sweep({});
  ASSERT_TRUE(sweep.ok());
  // Sizes 512..32768 (7). Each: single, 3 slices, short 256 (always >= 2 sequences), short 1024
  // (from 2048 on: 5 sizes), mixed (from 2048 on: 5 sizes).
  EXPECT_EQ(sweep->size(), 7u * 4u + 7u + 5u + 5u);
  std::int64_t max_tokens = 0, max_context = 0;
  for (const auto& s : *sweep) {
    max_tokens = std::max(max_tokens, pack_tokens(s));
    max_context = std::max(max_context, pack_context_tokens(s));
  }
  EXPECT_EQ(max_tokens, 32768);
  EXPECT_EQ(max_context, 65536 + 32768);
}

// The fit needs the columns (1, Ntok, Apairs) to be linearly independent: the determinant of the
// normalised normal-equation matrix must be far from zero.
TEST(PackShapes, SweepTokensAndPairsAreNotCollinear) {
  for (bool quick : {false, true}) {
    SweepOptions o;
    o.quick = quick;
    auto sweep = make_sweep(o);
    ASSERT_TRUE(sweep.ok());
    double g[3][3] = {};
    for (const auto& s : *sweep) {
      const double x[3] = {1.0, pack_tokens(s) / 32768.0, pack_pairs(s) / 2.7e9};
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) g[i][j] += x[i] * x[j];
    }
    const double det = g[0][0] * (g[1][1] * g[2][2] - g[1][2] * g[2][1]) -
                       g[0][1] * (g[1][0] * g[2][2] - g[1][2] * g[2][0]) +
                       g[0][2] * (g[1][0] * g[2][1] - g[1][1] * g[2][0]);
    const double scale = g[0][0] * g[1][1] * g[2][2];
    EXPECT_GT(det / scale, 1e-3) << "quick=" << quick;
  }
}

TEST(PackShapes, QuickSweepIsSmallerAndRespectsLimits) {
  SweepOptions o;
  o.quick = true;
  o.max_tokens = 8192;
  o.max_offset = 16384;
  auto sweep = make_sweep(o);
  ASSERT_TRUE(sweep.ok());
  // Sizes 512, 2048, 8192; each single + slice@16384 + short 512 (2048 and 8192 only at >= 2 seqs;
  // 512/512 = 1 is left out).
  EXPECT_EQ(sweep->size(), 3u + 3u + 2u);
  for (const auto& s : *sweep) {
    EXPECT_LE(pack_tokens(s), 8192);
    for (const auto& seg : s.segments) EXPECT_LE(seg.offset, 16384);
  }
}

TEST(PackShapes, SweepRejectsBadSizes) {
  SweepOptions o;
  o.min_tokens = 100;
  EXPECT_FALSE(make_sweep(o).ok());
  o.min_tokens = 1024;
  o.max_tokens = 512;
  auto r = make_sweep(o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("max tokens"), std::string::npos);
}

}  // namespace
}  // namespace slimpack::profiling
