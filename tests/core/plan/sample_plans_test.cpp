// The hand-made plans under samples/plans: the good ones are legal, the bad-* ones fail with the
// message the CLI golden tests expect.
#include <gtest/gtest.h>

#include "plan/legality.h"
#include "plan/plan_json.h"

namespace slimpack {
namespace {

std::string sample(const std::string& name) {
  return std::string(SLIMPACK_SAMPLES_DIR) + "/plans/" + name;
}

TEST(SamplePlans, AnalyticOneFOneB) {
  auto plan = read_plan_file(sample("analytic-1f1b.json"));
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->stages, 4);
  ASSERT_EQ(plan->dp(), 1);
  ASSERT_EQ(plan->replicas[0].forward.size(), 8u);
  ASSERT_EQ(plan->replicas[0].backward.size(), 8u);
  for (const auto& p : plan->replicas[0].forward) EXPECT_EQ(p.time, 1.0);
  for (const auto& p : plan->replicas[0].backward) EXPECT_EQ(p.time, 2.0);
  EXPECT_TRUE(plan->has_explicit_times());
  const auto report = check_legality(*plan);
  EXPECT_TRUE(report.legal()) << report.summary();
}

TEST(SamplePlans, AsymmetricExample) {
  auto plan = read_plan_file(sample("asymmetric-example.json"));
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(plan->slice_size, 4096);
  EXPECT_EQ(plan->total_tokens(), 16384 + 2048 + 2048 + 1024 + 1024 + 4096 + 2048);
  EXPECT_TRUE(plan->has_explicit_times());
  const auto report = check_legality(*plan);
  EXPECT_TRUE(report.legal()) << report.summary();
  // Asymmetric: X's slices are cut differently in forward (4 packs) and backward (2 packs).
  int fwd_with_x = 0, bwd_with_x = 0;
  for (const auto& p : plan->replicas[0].forward)
    for (const auto& s : p.segments) fwd_with_x += s.seq == 0;
  for (const auto& p : plan->replicas[0].backward)
    for (const auto& s : p.segments) bwd_with_x += s.seq == 0;
  EXPECT_EQ(fwd_with_x, 4);
  EXPECT_EQ(bwd_with_x, 2);
}

TEST(SamplePlans, ReadErrors) {
  auto plan = read_plan_file(sample("bad-missing-field.json"));
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().message, sample("bad-missing-field.json") +
                                      ": $.forward_packs[1].segments: missing required field");
  plan = read_plan_file(sample("bad-unknown-sequence.json"));
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().message,
            sample("bad-unknown-sequence.json") +
                ": $.forward_packs[1].segments[0].seq: unknown sequence \"X7\"");
}

TEST(SamplePlans, LegalityErrors) {
  auto plan = read_plan_file(sample("bad-overlapping-tokens.json"));
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_EQ(
      check_legality(*plan).summary(),
      "structure: tokens [1024,2048) of sequence a are in forward pack F1 and in forward pack "
      "F2 (each token must be in exactly one forward pack)");
  plan = read_plan_file(sample("bad-l2-order.json"));
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  const auto report = check_legality(*plan);
  ASSERT_EQ(report.violations.size(), 1u);
  EXPECT_EQ(report.summary(),
            "L2: backward pack B1 runs tokens [0,4096) of sequence X before [4096,8192) in B2 "
            "(backward must run a sequence's slices in reverse order)");
}

}  // namespace
}  // namespace slimpack
