#include <gtest/gtest.h>

#include <cmath>

#include "attention_test_util.h"
#include "cuda/attention.h"

namespace slimpack::profiling {
namespace {

using testing::random_tensor;

std::size_t qi(int row, int h, int d, int heads) {
  return (static_cast<std::size_t>(row) * heads + h) * kHeadDim + d;
}

TEST(AttentionReference, LayoutPlacesQueriesAndContexts) {
  const auto l = make_attn_layout(PackShape{"x", {{0, 3}, {5, 2}}}, 4, 2);
  ASSERT_EQ(l.segments.size(), 2u);
  EXPECT_EQ(l.total_q, 5);
  EXPECT_EQ(l.total_kv, 3 + 7);
  EXPECT_EQ(l.segments[1].q_start, 3);
  EXPECT_EQ(l.segments[1].kv_start, 3);
  EXPECT_EQ(l.segments[1].offset, 5);
}

TEST(AttentionReference, WorkItemsCoverEveryTileHeaviestFirst) {
  // Segment 0: 130 queries at offset 0 -> 3 query tiles, 3 key tiles.
  // Segment 1: 10 queries at offset 200 -> 1 query tile, 4 key tiles (210 keys).
  const auto w = make_work_items(make_attn_layout(PackShape{"x", {{0, 130}, {200, 10}}}, 1, 1));
  EXPECT_EQ(w.segments, (std::vector<int>{0, 130, 0, 0, 130, 10, 200, 130}));
  ASSERT_EQ(w.forward.size(), 2u * 4);
  ASSERT_EQ(w.backward.size(), 2u * 7);
  // Forward work = offset + (tile + 1) * 64: segment 1 tile 0 (264) first, then seg 0 tile 2 (192).
  EXPECT_EQ(w.forward[0], 1);
  EXPECT_EQ(w.forward[2], 0);
  EXPECT_EQ(w.forward[3], 2);
  // Backward work = keys at or after the tile: segment 1 tile 0 (210) first.
  EXPECT_EQ(w.backward[0], 1);
  EXPECT_EQ(w.backward[1], 0);
}

TEST(AttentionReference, FirstQueryCopiesItsOnlyValueAndEqualScoresAverage) {
  // One segment of 2 queries at offset 0; k = 0 everywhere gives equal scores.
  const auto l = make_attn_layout(PackShape{"x", {{0, 2}}}, 1, 1);
  std::vector<float> q = random_tensor(2 * kHeadDim, 1, 1.0f);
  std::vector<float> k(2 * kHeadDim, 0.0f), v(2 * kHeadDim);
  for (int d = 0; d < kHeadDim; ++d) {
    v[qi(0, 0, d, 1)] = 1.0f;
    v[qi(1, 0, d, 1)] = 3.0f;
  }
  const auto r = attention_forward_reference(l, q, k, v);
  EXPECT_FLOAT_EQ(r.out[qi(0, 0, 5, 1)], 1.0f);
  EXPECT_FLOAT_EQ(r.out[qi(1, 0, 5, 1)], 2.0f);
  EXPECT_NEAR(r.lse[0], 0.0, 1e-12);
  EXPECT_NEAR(r.lse[1], std::log(2.0), 1e-6);
}

// The reference gradients match central finite differences of L = sum(dO * O).
TEST(AttentionReference, BackwardMatchesFiniteDifferences) {
  const auto l = make_attn_layout(PackShape{"x", {{1, 2}, {0, 1}}}, 2, 1);
  auto q = random_tensor(static_cast<std::size_t>(l.total_q) * 2 * kHeadDim, 2, 0.5f);
  auto k = random_tensor(static_cast<std::size_t>(l.total_kv) * kHeadDim, 3, 0.5f);
  auto v = random_tensor(static_cast<std::size_t>(l.total_kv) * kHeadDim, 4, 0.5f);
  const auto dout = random_tensor(q.size(), 5, 1.0f);
  const auto g = attention_backward_reference(l, q, k, v, dout);
  auto loss = [&]() {
    const auto o = attention_forward_reference(l, q, k, v).out;
    double s = 0.0;
    for (std::size_t i = 0; i < o.size(); ++i) s += static_cast<double>(o[i]) * dout[i];
    return s;
  };
  const float h = 1e-2f;
  auto check = [&](std::vector<float>& x, const std::vector<float>& grad, std::size_t i) {
    const float keep = x[i];
    x[i] = keep + h;
    const double up = loss();
    x[i] = keep - h;
    const double down = loss();
    x[i] = keep;
    EXPECT_NEAR(grad[i], (up - down) / (2.0 * h), 2e-3) << "index " << i;
  };
  for (std::size_t i : {0u, 7u, 300u, 700u}) check(q, g.dq, i);
  for (std::size_t i : {0u, 130u, 260u, 511u}) check(k, g.dk, i);
  for (std::size_t i : {1u, 129u, 383u}) check(v, g.dv, i);
}

}  // namespace
}  // namespace slimpack::profiling
