// The CBC model against exhaustive search, warm starts, cancellation and infeasibility.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "milp_test_instances.h"
#include "solver/milp/milp_phase2.h"

namespace slimpack {
namespace {

#ifndef SLIMPACK_HAVE_MILP
#define SLIMPACK_REQUIRE_CBC() GTEST_SKIP() << "built without CBC (SLIMPACK_ENABLE_MILP=OFF)"
#else
#define SLIMPACK_REQUIRE_CBC() (void)0
#endif

constexpr int kInstances = 40;

void expect_feasible(const MilpPhase2Input& in, const MilpPhase2Result& r) {
  std::string why;
  const double obj = evaluate_phase2(in, r.solution, &why);
  ASSERT_TRUE(std::isfinite(obj)) << why;
  EXPECT_NEAR(obj, r.objective, 1e-9);
  EXPECT_NEAR(r.solution.z_f + r.solution.z_b, r.objective, 1e-9);
  EXPECT_LE(r.bound, r.objective + 1e-9);
  EXPECT_GE(r.gap, 0.0);
}

TEST(MilpCbc, AvailabilityMatchesBuild) {
#ifdef SLIMPACK_HAVE_MILP
  EXPECT_TRUE(milp_available());
#else
  EXPECT_FALSE(milp_available());
  EXPECT_FALSE(solve_phase2_milp({}, CancelToken::none(), ProgressSink::none()).ok());
#endif
}

TEST(MilpCbc, MatchesExhaustiveSearchOnTinyInstances) {
  SLIMPACK_REQUIRE_CBC();
  int feasible = 0, infeasible = 0;
  for (unsigned seed = 1; seed <= kInstances; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const MilpPhase2Input in = milp_test::random_instance(seed);
    auto exact = solve_phase2_exhaustive(in);
    auto milp = solve_phase2_milp(in, CancelToken::none(), ProgressSink::none());
    ASSERT_EQ(exact.ok(), milp.ok()) << (exact.ok() ? milp.error().message : exact.error().message);
    if (!exact.ok()) {
      EXPECT_EQ(exact.error().kind, ErrorKind::Infeasible);
      EXPECT_EQ(milp.error().kind, ErrorKind::Infeasible);
      ++infeasible;
      continue;
    }
    ++feasible;
    EXPECT_TRUE(milp->proven_optimal) << milp->status;
    EXPECT_NEAR(milp->objective, exact->objective, 1e-6);
    EXPECT_NEAR(milp->bound, milp->objective, 1e-9);
    EXPECT_DOUBLE_EQ(milp->gap, 0.0);
    expect_feasible(in, *milp);
  }
  // The generator must exercise both outcomes, or the comparison proves less than it claims.
  EXPECT_GE(feasible, kInstances / 2);
  EXPECT_GE(infeasible + feasible, kInstances);
}

TEST(MilpCbc, HandInstanceOptimum) {
  SLIMPACK_REQUIRE_CBC();
  // Same instance as MilpCheck.ExhaustiveFindsHandOptimum: optimum 3 + 6.
  MilpPhase2Input in;
  in.slices = {{7, 0, 1.0, 2.0, 4.0, 10.0}, {7, 1, 2.0, 5.0, 4.0, 20.0}};
  in.buckets = {{3.0, 2, 1.0, 2.0, 5.0}};
  in.mf = in.mb = 2;
  auto r = solve_phase2_milp(in, CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NEAR(r->objective, 9.0, 1e-9);
  EXPECT_TRUE(r->proven_optimal);
  EXPECT_EQ(r->status, "optimal");
}

TEST(MilpCbc, NeverWorseThanWarmStart) {
  SLIMPACK_REQUIRE_CBC();
  int improved = 0;
  for (unsigned seed = 1; seed <= kInstances; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    MilpPhase2Input in = milp_test::random_instance(seed);
    in.token_cap = 0.0;  // round robin is legal without caps
    in.memory_cap_bytes = 0.0;
    in.warm_start = milp_test::round_robin(in);
    const double warm = evaluate_phase2(in, *in.warm_start, nullptr);
    ASSERT_TRUE(std::isfinite(warm));
    auto r = solve_phase2_milp(in, CancelToken::none(), ProgressSink::none());
    ASSERT_TRUE(r.ok()) << r.error().message;
    EXPECT_LE(r->objective, warm + 1e-9);
    EXPECT_TRUE(r->proven_optimal);
    EXPECT_EQ(r->from_warm_start_only, r->objective >= warm - 1e-12 * (1 + warm));
    expect_feasible(in, *r);
    if (r->objective < warm - 1e-9) ++improved;
  }
  EXPECT_GT(improved, 0);  // the symmetric round robin is rarely optimal
}

TEST(MilpCbc, InfeasibleWarmStartIsIgnored) {
  SLIMPACK_REQUIRE_CBC();
  MilpPhase2Input in = milp_test::random_instance(3);
  in.token_cap = in.memory_cap_bytes = 0.0;
  MilpPhase2Solution bad = milp_test::round_robin(in);
  bad.slice_fwd_pack.assign(bad.slice_fwd_pack.size(), in.mf - 1);
  bad.slice_bwd_pack.assign(bad.slice_bwd_pack.size(), 0);  // not ready when mf - 1 > w
  in.warmup_extra = 0;
  in.warm_start = bad;
  auto r = solve_phase2_milp(in, CancelToken::none(), ProgressSink::none());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->from_warm_start_only);
  EXPECT_NE(r->status.find("warm start ignored: L3"), std::string::npos) << r->status;
  expect_feasible(in, *r);
}

TEST(MilpCbc, PreCancelledReturnsWarmStart) {
  SLIMPACK_REQUIRE_CBC();
  MilpPhase2Input in = milp_test::random_instance(5);
  in.token_cap = in.memory_cap_bytes = 0.0;
  in.time_limit_s = 600.0;
  in.warm_start = milp_test::round_robin(in);
  CancelToken token;
  token.cancel();
  auto r = solve_phase2_milp(in, token, ProgressSink::none());
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->cancelled);
  EXPECT_TRUE(r->from_warm_start_only);
  EXPECT_FALSE(r->proven_optimal);
  EXPECT_EQ(r->solution.slice_fwd_pack, in.warm_start->slice_fwd_pack);
  EXPECT_NEAR(r->objective, evaluate_phase2(in, *in.warm_start, nullptr), 1e-12);
  expect_feasible(in, *r);

  in.warm_start.reset();  // nothing to return: the cancel is the outcome
  auto none = solve_phase2_milp(in, token, ProgressSink::none());
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().kind, ErrorKind::Cancelled);
}

// Cancels the shared token from inside the search, at CBC's first event callback.
class CancelOnSearchProgress final : public ProgressSink {
 public:
  explicit CancelOnSearchProgress(CancelToken token) : token_(std::move(token)) {}
  void report(std::string_view, double fraction) override {
    ++calls_;
    if (calls_ == 2 && fraction < 1.0) token_.cancel();  // call 1 is the start report
  }

 private:
  CancelToken token_;
  int calls_ = 0;
};

TEST(MilpCbc, CancelDuringSearchKeepsFeasibleIncumbent) {
  SLIMPACK_REQUIRE_CBC();
  // Large enough that CBC branches: 12 sequences of 4 slices, 3 buckets, 8 + 8 packs.
  MilpPhase2Input in;
  for (int s = 0; s < 12; ++s) {
    for (int j = 0; j < 4; ++j) {
      const double f = 1.0 + 0.37 * j + 0.113 * s;
      in.slices.push_back({s, j, f, f * (2.0 + 0.05 * ((s * 7 + j * 3) % 11)), 4.0, 10.0});
    }
  }
  in.buckets = {{1.0, 9, 0.31, 0.67, 2.0}, {2.0, 7, 0.53, 1.19, 3.0}, {3.0, 5, 0.71, 1.6, 4.0}};
  in.mf = in.mb = 8;
  in.time_limit_s = 600.0;
  in.warm_start = milp_test::round_robin(in);
  const double warm = evaluate_phase2(in, *in.warm_start, nullptr);
  CancelToken token;
  CancelOnSearchProgress sink(token);
  auto r = solve_phase2_milp(in, token, sink);
  ASSERT_TRUE(r.ok()) << r.error().message;
  // CBC raises an event at every node; the first one reports progress and so cancels.
  EXPECT_TRUE(token.cancelled());
  EXPECT_TRUE(r->cancelled);
  EXPECT_FALSE(r->proven_optimal);
  EXPECT_EQ(r->status, "cancelled");
  EXPECT_LE(r->objective, warm + 1e-9);
  EXPECT_LE(r->bound, r->objective + 1e-9);
  expect_feasible(in, *r);
}

TEST(MilpCbc, InfeasibleInstancesAreErrors) {
  SLIMPACK_REQUIRE_CBC();
  MilpPhase2Input in = milp_test::random_instance(2);
  in.token_cap = 3.0;  // every slice has 4 tokens
  auto r = solve_phase2_milp(in, CancelToken::none(), ProgressSink::none());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Infeasible);
  EXPECT_NE(r.error().message.find("exceed the pack token cap 3 by 1"), std::string::npos)
      << r.error().message;

  // Each item fits, but all tokens do not fit Mf packs of the cap: only the model can tell.
  in = milp_test::random_instance(2);
  double tokens = 0.0;
  for (const auto& s : in.slices) tokens += s.tokens;
  for (const auto& b : in.buckets) tokens += b.count * b.length;
  in.token_cap = std::max(4.0, 0.99 * tokens / std::max(in.mf, in.mb));
  in.memory_cap_bytes = 0.0;
  r = solve_phase2_milp(in, CancelToken::none(), ProgressSink::none());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Infeasible) << r.error().message;
}

}  // namespace
}  // namespace slimpack
