#include "plan/schedule_order.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <set>
#include <string>
#include <utility>

namespace slimpack {
namespace {

// "F1 F2 B1 ..." (1-based like the paper), chunk suffix ".c" for interleaved ops.
std::string render(const std::vector<OrderedOp>& ops, bool chunks = false) {
  std::string s;
  for (const auto& op : ops) {
    if (!s.empty()) s += ' ';
    s += (op.pass == Pass::Forward ? "F" : "B") + std::to_string(op.pack + 1);
    if (chunks) s += "." + std::to_string(op.chunk);
  }
  return s;
}

TEST(ScheduleOrder, OneFOneBFirstStageWarmsUpWithPMinusOneExtraForwards) {
  const auto ops = stage_order(ScheduleKind::OneFOneB, 4, 0, 8, 8, 0, 1);
  EXPECT_EQ(render(ops), "F1 F2 F3 F4 B1 F5 B2 F6 B3 F7 B4 F8 B5 B6 B7 B8");
}

TEST(ScheduleOrder, OneFOneBLastStageAlternates) {
  const auto ops = stage_order(ScheduleKind::OneFOneB, 4, 3, 8, 8, 0, 1);
  EXPECT_EQ(render(ops), "F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 F6 B6 F7 B7 F8 B8");
}

TEST(ScheduleOrder, OneFOneBMiddleStage) {
  const auto ops = stage_order(ScheduleKind::OneFOneB, 4, 2, 8, 8, 0, 1);
  EXPECT_EQ(render(ops), "F1 F2 B1 F3 B2 F4 B3 F5 B4 F6 B5 F7 B6 F8 B7 B8");
}

TEST(ScheduleOrder, WarmupExtraShiftsEveryStageByW) {
  EXPECT_EQ(render(stage_order(ScheduleKind::OneFOneB, 4, 3, 8, 8, 1, 1)),
            "F1 F2 B1 F3 B2 F4 B3 F5 B4 F6 B5 F7 B6 F8 B7 B8");
  EXPECT_EQ(render(stage_order(ScheduleKind::OneFOneB, 4, 0, 8, 8, 1, 1)),
            "F1 F2 F3 F4 F5 B1 F6 B2 F7 B3 F8 B4 B5 B6 B7 B8");
  // A warm-up longer than Mf issues every forward first (GPipe-like).
  EXPECT_EQ(render(stage_order(ScheduleKind::OneFOneB, 2, 0, 3, 3, 5, 1)), "F1 F2 F3 B1 B2 B3");
}

TEST(ScheduleOrder, DifferentForwardAndBackwardPackCounts) {
  // More backward packs than forward packs: the tail is backward only.
  EXPECT_EQ(render(stage_order(ScheduleKind::OneFOneB, 2, 1, 3, 5, 0, 1)),
            "F1 B1 F2 B2 F3 B3 B4 B5");
  // More forward packs: the remaining forwards run after the last backward.
  EXPECT_EQ(render(stage_order(ScheduleKind::OneFOneB, 2, 0, 5, 2, 0, 1)), "F1 F2 B1 F3 B2 F4 F5");
}

TEST(ScheduleOrder, GPipeRunsAllForwardsThenAllBackwards) {
  for (int s = 0; s < 3; ++s) {
    EXPECT_EQ(render(stage_order(ScheduleKind::GPipe, 3, s, 4, 3, 0, 1)), "F1 F2 F3 F4 B1 B2 B3");
  }
}

TEST(ScheduleOrder, OneFOneBPropertiesOverManyShapes) {
  for (int p = 1; p <= 5; ++p)
    for (int mf = 0; mf <= 7; ++mf)
      for (int mb = 0; mb <= 7; ++mb)
        for (int w = 0; w <= 2; ++w)
          for (int s = 0; s < p; ++s) {
            const auto ops = stage_order(ScheduleKind::OneFOneB, p, s, mf, mb, w, 1);
            ASSERT_EQ(ops.size(), static_cast<std::size_t>(mf + mb));
            int next_f = 0, next_b = 0, issued_f = 0;
            for (const auto& op : ops) {
              if (op.pass == Pass::Forward) {
                ASSERT_EQ(op.pack, next_f++);
                ++issued_f;
              } else {
                ASSERT_EQ(op.pack, next_b);
                // On the last stage exactly forwards_before_backward forwards precede B_b.
                if (s == p - 1) {
                  ASSERT_EQ(issued_f,
                            forwards_before_backward(ScheduleKind::OneFOneB, mf, next_b, w));
                }
                // Earlier stages never issue fewer forwards than the last stage.
                ASSERT_GE(issued_f,
                          forwards_before_backward(ScheduleKind::OneFOneB, mf, next_b, w));
                ++next_b;
              }
            }
          }
}

TEST(ScheduleOrder, ForwardsBeforeBackward) {
  EXPECT_EQ(forwards_before_backward(ScheduleKind::OneFOneB, 8, 0, 0), 1);
  EXPECT_EQ(forwards_before_backward(ScheduleKind::OneFOneB, 8, 3, 0), 4);
  EXPECT_EQ(forwards_before_backward(ScheduleKind::OneFOneB, 8, 3, 2), 6);
  EXPECT_EQ(forwards_before_backward(ScheduleKind::OneFOneB, 8, 7, 2), 8);
  EXPECT_EQ(forwards_before_backward(ScheduleKind::GPipe, 8, 0, 0), 8);
  EXPECT_EQ(forwards_before_backward(ScheduleKind::Interleaved, 8, 1, 0), 2);
}

TEST(ScheduleOrder, InterleavedRunsEveryPackChunkOncePerPass) {
  const int p = 2, v = 2, m = 4;
  for (int s = 0; s < p; ++s) {
    const auto ops = stage_order(ScheduleKind::Interleaved, p, s, m, m, 0, v);
    ASSERT_EQ(ops.size(), static_cast<std::size_t>(2 * m * v));
    std::set<std::pair<int, int>> fwd, bwd;
    std::set<std::pair<int, int>> forwarded;
    for (const auto& op : ops) {
      ASSERT_GE(op.chunk, 0);
      ASSERT_LT(op.chunk, v);
      const std::pair<int, int> key{op.pack, op.chunk};
      if (op.pass == Pass::Forward) {
        EXPECT_TRUE(fwd.insert(key).second);
        // A pack enters chunk c only after chunk c-1 on this stage.
        if (op.chunk > 0) {
          EXPECT_TRUE(fwd.count({op.pack, op.chunk - 1}));
        }
      } else {
        EXPECT_TRUE(bwd.insert(key).second);
        EXPECT_TRUE(fwd.count(key)) << "backward before its forward";
        // Backward runs the chunks in reverse.
        if (op.chunk < v - 1) {
          EXPECT_TRUE(bwd.count({op.pack, op.chunk + 1}));
        }
      }
    }
    EXPECT_EQ(fwd.size(), static_cast<std::size_t>(m * v));
    EXPECT_EQ(bwd.size(), static_cast<std::size_t>(m * v));
  }
  // Megatron's order on the last stage: warm-up (v-1)*p = 2 forwards, then 1F1B steady state.
  EXPECT_EQ(render(stage_order(ScheduleKind::Interleaved, p, 1, m, m, 0, v), true),
            "F1.0 F2.0 F1.1 B1.1 F2.1 B2.1 F3.0 B1.0 F4.0 B2.0 F3.1 B3.1 F4.1 B4.1 B3.0 B4.0");
}

TEST(ScheduleOrder, InterleavedFallsBackToOneFOneBWhenPacksDoNotDivide) {
  // M not a multiple of p: Megatron's interleaving is undefined, the plain 1F1B order is used.
  const auto ops = stage_order(ScheduleKind::Interleaved, 4, 0, 6, 6, 0, 2);
  EXPECT_EQ(render(ops), render(stage_order(ScheduleKind::OneFOneB, 4, 0, 6, 6, 0, 1)));
}

// The reason names the rule stage_order() applies, for every shape: the order is interleaved
// exactly when there is no fallback reason.
TEST(ScheduleOrder, InterleavedFallbackReasonMatchesTheOrderIssued) {
  EXPECT_EQ(interleaved_fallback(4, 8, 8, 2), InterleavedFallback::None);
  EXPECT_EQ(interleaved_fallback(4, 8, 8, 1), InterleavedFallback::OneChunk);
  EXPECT_EQ(interleaved_fallback(4, 8, 12, 2), InterleavedFallback::UnequalPacks);
  EXPECT_EQ(interleaved_fallback(4, 6, 6, 2), InterleavedFallback::NotMultipleOfStages);
  for (int p = 1; p <= 4; ++p)
    for (int mf = 1; mf <= 9; ++mf)
      for (int mb : {mf, mf + 1})
        for (int v : {1, 2, 3}) {
          const auto order = stage_order(ScheduleKind::Interleaved, p, 0, mf, mb, 0, v);
          const bool chunked = std::any_of(order.begin(), order.end(),
                                           [](const OrderedOp& op) { return op.chunk > 0; });
          EXPECT_EQ(chunked, interleaved_fallback(p, mf, mb, v) == InterleavedFallback::None)
              << "p=" << p << " mf=" << mf << " mb=" << mb << " v=" << v;
          EXPECT_EQ(
              std::string(interleaved_fallback_rule(interleaved_fallback(p, mf, mb, v))).empty(),
              chunked);
        }
}

}  // namespace
}  // namespace slimpack
