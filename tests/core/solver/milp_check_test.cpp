// The phase-2 checker and the exhaustive search on a hand-computed instance (no CBC needed).
#include <gtest/gtest.h>

#include <cmath>

#include "solver/milp/milp_phase2.h"

namespace slimpack {
namespace {

// One sequence of two slices (forward 1 and 2, backward 2 and 5, 4 tokens, 10 and 20 bytes) and
// one bucket of two short sequences (forward 1, backward 2, 3 tokens, 5 bytes); Mf = Mb = 2, w = 0.
MilpPhase2Input hand_instance() {
  MilpPhase2Input in;
  in.slices = {{7, 0, 1.0, 2.0, 4.0, 10.0}, {7, 1, 2.0, 5.0, 4.0, 20.0}};
  in.buckets = {{3.0, 2, 1.0, 2.0, 5.0}};
  in.mf = 2;
  in.mb = 2;
  return in;
}

// Forward: slice 0 in F0, slice 1 in F1, one short in each -> loads 2 and 3.
// Backward: both slices in B1 (slice 1 is ready only for b >= 1), one short in each -> 2 and 9.
MilpPhase2Solution hand_solution() {
  MilpPhase2Solution sol;
  sol.slice_fwd_pack = {0, 1};
  sol.slice_bwd_pack = {1, 1};
  sol.bucket_fwd_count = {{1, 1}};
  sol.bucket_bwd_count = {{1, 1}};
  return sol;
}

TEST(MilpCheck, HandSolutionObjective) {
  std::string why;
  EXPECT_DOUBLE_EQ(evaluate_phase2(hand_instance(), hand_solution(), &why), 3.0 + 9.0) << why;
  EXPECT_TRUE(why.empty());
  MilpPhase2Solution sol = hand_solution();
  compute_phase2_loads(hand_instance(), sol);
  EXPECT_DOUBLE_EQ(sol.z_f, 3.0);
  EXPECT_DOUBLE_EQ(sol.z_b, 9.0);
}

TEST(MilpCheck, RejectsEachRule) {
  const MilpPhase2Input in = hand_instance();
  auto rejects = [&](const MilpPhase2Solution& sol, const std::string& rule) {
    std::string why;
    EXPECT_TRUE(std::isinf(evaluate_phase2(in, sol, &why)));
    EXPECT_EQ(why.rfind(rule, 0), 0u) << why;
  };
  MilpPhase2Solution s = hand_solution();
  s.slice_fwd_pack = {1, 0};  // slice 1 before slice 0
  rejects(s, "L1");
  s = hand_solution();
  s.slice_bwd_pack = {0, 1};  // slice 0's backward before slice 1's
  rejects(s, "L2");
  s = hand_solution();
  s.slice_bwd_pack = {1, 0};  // slice 1 forwarded in F1, so not ready for B0 with w = 0
  rejects(s, "L3");
  s = hand_solution();
  s.bucket_bwd_count = {{2, 0}};  // only one short sequence is forwarded by F0
  rejects(s, "L3");
  s = hand_solution();
  s.bucket_fwd_count = {{1, 0}};  // one short sequence lost
  rejects(s, "bucket 0");
}

TEST(MilpCheck, ReadinessFollowsWarmup) {
  MilpPhase2Input in = hand_instance();
  MilpPhase2Solution s = hand_solution();
  s.slice_bwd_pack = {1, 0};
  s.bucket_bwd_count = {{2, 0}};
  in.warmup_extra = 1;  // B0 now runs after F1: everything is ready
  std::string why;
  // Backward loads: B0 = 5 + 2 + 2 = 9, B1 = 2.
  EXPECT_DOUBLE_EQ(evaluate_phase2(in, s, &why), 3.0 + 9.0) << why;
}

TEST(MilpCheck, TokenAndMemoryCaps) {
  MilpPhase2Input in = hand_instance();
  std::string why;
  // Backward pack 1 holds 4 + 4 + 3 = 11 tokens.
  in.token_cap = 11.0;
  EXPECT_DOUBLE_EQ(evaluate_phase2(in, hand_solution(), &why), 12.0) << why;
  in.token_cap = 10.9;
  EXPECT_TRUE(std::isinf(evaluate_phase2(in, hand_solution(), &why)));
  EXPECT_EQ(why.rfind("L5: backward pack 1", 0), 0u) << why;

  // p = 1, w = 0: stage 0 issues F0 before B0 (100 + 10 + 5 = 115 B) and F1 before B1
  // (115 + 20 + 5 - 5 freed by B0 = 135 B).
  in = hand_instance();
  in.static_bytes = 100.0;
  in.memory_cap_bytes = 135.0;
  EXPECT_DOUBLE_EQ(evaluate_phase2(in, hand_solution(), &why), 12.0) << why;
  in.memory_cap_bytes = 134.5;
  EXPECT_TRUE(std::isinf(evaluate_phase2(in, hand_solution(), &why)));
  EXPECT_EQ(why.rfind("L4: stage 0 holds 135", 0), 0u) << why;
  // p = 2: both forwards are issued before B0: 100 + 40 = 140 B at B0.
  in.pipeline_stages = 2;
  in.memory_cap_bytes = 139.0;
  EXPECT_TRUE(std::isinf(evaluate_phase2(in, hand_solution(), &why)));
  EXPECT_EQ(why.rfind("L4: stage 0 holds 140", 0), 0u) << why;
}

TEST(MilpCheck, ValidationNamesTheItem) {
  MilpPhase2Input in = hand_instance();
  in.token_cap = 3.5;
  Status st = validate_phase2_input(in);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, ErrorKind::Infeasible);
  EXPECT_NE(st.error().message.find("sequence 7, index 0"), std::string::npos);
  EXPECT_NE(st.error().message.find("by 0.5"), std::string::npos);

  in = hand_instance();
  in.slices[1].index = 2;
  st = validate_phase2_input(in);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, ErrorKind::BadInput);

  in = hand_instance();
  in.static_bytes = 10.0;
  in.memory_cap_bytes = 8.0;
  st = validate_phase2_input(in);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, ErrorKind::Infeasible);
}

// zF >= 3: forward items 1, 2, 1, 1 cannot split into two packs of 2.5. zB >= 6: backward items
// 2, 5, 2, 2 (sum 11, one item of 5) cannot do better than {5} and {2, 2, 2}. Both are met by
// slices 0 and 1 in F0, shorts in F1, slice 1 in B0 (ready: its forward is F0), the rest in B1.
TEST(MilpCheck, ExhaustiveFindsHandOptimum) {
  auto r = solve_phase2_exhaustive(hand_instance());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_DOUBLE_EQ(r->objective, 9.0);
  EXPECT_TRUE(r->proven_optimal);
  EXPECT_EQ(r->solution.slice_fwd_pack, (std::vector<int>{0, 0}));
  EXPECT_EQ(r->solution.slice_bwd_pack, (std::vector<int>{1, 0}));
  EXPECT_DOUBLE_EQ(r->solution.z_f, 3.0);
  EXPECT_DOUBLE_EQ(r->solution.z_b, 6.0);
}

TEST(MilpCheck, ExhaustiveReportsInfeasibleAndRefusesLargeInstances) {
  MilpPhase2Input in = hand_instance();
  in.token_cap = 6.0;  // 14 tokens in total cannot fit two packs of 6
  auto r = solve_phase2_exhaustive(in);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Infeasible);

  in = hand_instance();
  in.buckets[0].count = 200;
  in.mf = in.mb = 8;
  r = solve_phase2_exhaustive(in, 1e6);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::BadInput);
}

}  // namespace
}  // namespace slimpack
