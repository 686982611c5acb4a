// Data-parallel plans: coverage across replicas, DP-merged groups and rule L6.
#include <gtest/gtest.h>

#include "plan/legality.h"
#include "plan_builders.h"

namespace slimpack {
namespace {

using test::merged;
using test::pack;
using test::seg;

// d = 2, GPipe (readiness is not the subject here). X (8192) is DP-merged over both replicas in
// F1/B1; a runs on replica 0, b on replica 1.
Plan merged_plan() {
  Plan p;
  p.stages = 2;
  p.schedule = ScheduleKind::GPipe;
  p.sequences = {{"X", 8192}, {"a", 1024}, {"b", 1024}};
  p.replicas.push_back({{pack({merged(0, 0, 8192, 2, 0)}), pack({seg(1, 0, 1024)})},
                        {pack({merged(0, 0, 8192, 2, 0)}), pack({seg(1, 0, 1024)})}});
  p.replicas.push_back({{pack({merged(0, 0, 8192, 2, 1)}), pack({seg(2, 0, 1024)})},
                        {pack({merged(0, 0, 8192, 2, 1)}), pack({seg(2, 0, 1024)})}});
  return p;
}

TEST(LegalityDp, AcceptsAMergedOutlier) {
  const auto report = check_legality(merged_plan());
  EXPECT_TRUE(report.legal()) << report.summary();
}

TEST(LegalityDp, MergedSegmentAtDifferentPackIndices) {
  Plan p = merged_plan();
  std::swap(p.replicas[1].forward[0], p.replicas[1].forward[1]);
  const auto report = check_legality(p);
  ASSERT_EQ(report.violations.size(), 1u) << report.summary();
  EXPECT_EQ(report.violations[0].rule, Rule::L6);
  EXPECT_EQ(report.violations[0].replica, 1);
  EXPECT_EQ(report.violations[0].pack, 1);
  EXPECT_EQ(
      report.summary(),
      "L6: DP-merged segment [0,8192) of sequence X is in forward pack F1 of replica 0 but in "
      "forward pack F2 of replica 1 (a DP-merged segment must sit at the same pack index on "
      "every replica of its group)");
}

TEST(LegalityDp, IncompleteMergedGroup) {
  Plan p = merged_plan();
  p.replicas[1].backward[0].segments[0].shard = 0;  // shard 0 twice, shard 1 missing
  const auto report = check_legality(p);
  ASSERT_FALSE(report.legal());
  EXPECT_EQ(report.violations[0].rule, Rule::Structure);
  EXPECT_EQ(report.summary(),
            "structure: DP-merged segment [0,8192) of sequence X with 2 shards appears 2 times in "
            "backward packs; it needs exactly one copy of each shard 0..1, each on a different "
            "replica");
  p = merged_plan();
  p.replicas[1].forward[0].segments.clear();  // only one copy of a 2-shard segment
  EXPECT_EQ(check_legality(p).violations[0].rule, Rule::Structure);
}

TEST(LegalityDp, ShardsBeyondTheReplicaCount) {
  Plan p = merged_plan();
  p.replicas[0].forward[0].segments[0] = merged(0, 0, 8192, 3, 0);
  EXPECT_EQ(check_legality(p).summary(),
            "structure: forward pack F1 of replica 0 segment 1 has shard 0 of 3 (need 1 <= shards "
            "<= 2 replicas and 0 <= shard < shards)");
}

TEST(LegalityDp, TokensCoveredOnceAcrossReplicas) {
  Plan p = merged_plan();
  // a also runs on replica 1: once per replica is twice for the batch.
  p.replicas[1].forward[1].segments.push_back(seg(1, 0, 1024));
  p.replicas[1].backward[1].segments.push_back(seg(1, 0, 1024));
  const auto report = check_legality(p);
  ASSERT_FALSE(report.legal());
  EXPECT_EQ(report.summary(),
            "structure: tokens [0,1024) of sequence a are in forward pack F2 of replica 0 and in "
            "forward pack F2 of replica 1 (each token must be in exactly one forward pack)");
}

TEST(LegalityDp, ReplicaRunsBackwardOfWhatItRanForward) {
  Plan p = merged_plan();
  // a's forward on replica 0, its backward on replica 1: each pass alone covers a exactly once.
  p.replicas[0].backward[1].segments.clear();
  p.replicas[1].backward[1].segments.push_back(seg(1, 0, 1024));
  const auto report = check_legality(p);
  ASSERT_FALSE(report.legal());
  EXPECT_EQ(report.violations[0].rule, Rule::Structure);
  EXPECT_EQ(report.summary(),
            "structure: replica 0 runs tokens [0,1024) of sequence a forward but not backward (a "
            "replica runs the backward of exactly the tokens it ran forward)");
}

TEST(LegalityDp, SplitSequenceMustBeMergedForItsPrefix) {
  Plan p = merged_plan();
  // X's lower half unmerged on replica 0, upper half merged: replica 1 lacks the prefix it attends.
  for (auto* list : {&p.replicas[0].forward, &p.replicas[0].backward})
    (*list)[0].segments = {seg(0, 0, 4096), merged(0, 4096, 8192, 2, 0)};
  for (auto* list : {&p.replicas[1].forward, &p.replicas[1].backward})
    (*list)[0].segments = {merged(0, 4096, 8192, 2, 1)};
  auto report = check_legality(p);
  ASSERT_FALSE(report.legal());
  EXPECT_EQ(report.violations[0].rule, Rule::L6);
  EXPECT_EQ(report.summary(),
            "L6: forward pack F1 of replica 0 runs tokens [4096,8192) of sequence X on replicas "
            "0,1, but its tokens [0,4096) run on replica 0 (a sequence split across "
            "replicas must be DP-merged so that every replica holds the prefix it attends to)");
}

TEST(LegalityDp, MergedPrefixThenLocalSuffixIsLegal) {
  Plan p = merged_plan();
  // X[0,4096) merged over both replicas, X[4096,8192) on replica 0 alone: replica 0 holds the
  // all-gathered prefix, so this is the legal direction.
  p.replicas[0].forward[0].segments = {merged(0, 0, 4096, 2, 0)};
  p.replicas[0].forward[1].segments.push_back(seg(0, 4096, 8192));
  p.replicas[0].backward[0].segments = {seg(0, 4096, 8192)};
  p.replicas[0].backward[1].segments.push_back(merged(0, 0, 4096, 2, 0));
  p.replicas[1].forward[0].segments = {merged(0, 0, 4096, 2, 1)};
  p.replicas[1].backward[0].segments = {seg(2, 0, 1024)};
  p.replicas[1].backward[1].segments = {merged(0, 0, 4096, 2, 1)};
  const auto report = check_legality(p);
  EXPECT_TRUE(report.legal()) << report.summary();
}

}  // namespace
}  // namespace slimpack
