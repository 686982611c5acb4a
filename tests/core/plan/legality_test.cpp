#include "plan/legality.h"

#include <gtest/gtest.h>

#include "plan_builders.h"

namespace slimpack {
namespace {

using test::pack;
using test::seg;

// X has 16384 tokens in slices of 4096; s0..s5 are short. Indices: X=0, s0=1 .. s5=6.
std::vector<Sequence> sequences() {
  return {{"X", 16384}, {"s0", 2048}, {"s1", 2048}, {"s2", 1024},
          {"s3", 1024}, {"s4", 4096}, {"s5", 2048}};
}

// The asymmetric example of samples/plans/asymmetric-example.json: forward packs hold one slice of
// X each, backward packs run short sequences first, then X's upper half, then its lower half.
Plan asymmetric() {
  return test::make_plan(
      4, sequences(),
      {pack({seg(0, 0, 4096), seg(1, 0, 2048), seg(2, 0, 2048)}),
       pack({seg(0, 4096, 8192), seg(3, 0, 1024)}), pack({seg(0, 8192, 12288), seg(4, 0, 1024)}),
       pack({seg(0, 12288, 16384)}), pack({seg(5, 0, 4096), seg(6, 0, 2048)})},
      {pack({seg(1, 0, 2048), seg(2, 0, 2048)}), pack({seg(3, 0, 1024)}), pack({seg(4, 0, 1024)}),
       pack({seg(0, 8192, 16384)}), pack({seg(0, 0, 8192), seg(5, 0, 4096), seg(6, 0, 2048)})});
}

std::vector<Pack>& fwd(Plan& p) {
  return p.replicas[0].forward;
}
std::vector<Pack>& bwd(Plan& p) {
  return p.replicas[0].backward;
}

TEST(Legality, RuleNames) {
  EXPECT_STREQ(rule_name(Rule::Structure), "structure");
  EXPECT_STREQ(rule_name(Rule::L1), "L1");
  EXPECT_STREQ(rule_name(Rule::L6), "L6");
}

TEST(Legality, AcceptsTheAsymmetricExample) {
  const auto report = check_legality(asymmetric());
  EXPECT_TRUE(report.legal()) << report.summary();
  EXPECT_EQ(report.summary(), "");
}

TEST(Legality, WithinOnePackTheListedOrderDoesNotMatter) {
  Plan p = asymmetric();
  // X's two backward halves written as slices in any order inside their packs.
  bwd(p)[3].segments = {seg(0, 12288, 16384), seg(0, 8192, 12288)};
  bwd(p)[4].segments = {seg(5, 0, 4096), seg(0, 0, 4096), seg(6, 0, 2048), seg(0, 4096, 8192)};
  EXPECT_TRUE(check_legality(p).legal()) << check_legality(p).summary();
}

TEST(Legality, MissingTokens) {
  Plan p = asymmetric();
  bwd(p)[1].segments.clear();  // s2 never runs backward
  const auto report = check_legality(p);
  ASSERT_EQ(report.violations.size(), 1u) << report.summary();
  const Violation& v = report.violations[0];
  EXPECT_EQ(v.rule, Rule::Structure);
  EXPECT_EQ(v.pass, Pass::Backward);
  EXPECT_EQ(v.seq, 3);
  EXPECT_EQ(v.message, "structure: tokens [0,1024) of sequence s2 are in no backward pack");

  p = asymmetric();
  fwd(p)[3].segments = {seg(0, 12288, 16000)};  // the tail of X is missing
  EXPECT_EQ(check_legality(p).summary(),
            "structure: tokens [16000,16384) of sequence X are in no forward pack");
}

TEST(Legality, OverlappingTokens) {
  Plan p = asymmetric();
  fwd(p)[1].segments[0] = seg(0, 2048, 8192);
  const auto report = check_legality(p);
  ASSERT_FALSE(report.legal());
  EXPECT_EQ(report.violations[0].rule, Rule::Structure);
  EXPECT_EQ(report.violations[0].pack, 1);
  EXPECT_EQ(report.summary(),
            "structure: tokens [2048,4096) of sequence X are in forward pack F1 and in forward "
            "pack F2 (each token must be in exactly one forward pack)");

  p = asymmetric();
  bwd(p)[0].segments.push_back(seg(3, 0, 1024));  // s2 twice in backward
  EXPECT_EQ(check_legality(p).summary(),
            "structure: tokens [0,1024) of sequence s2 are in backward pack B1 and in backward "
            "pack B2 (each token must be in exactly one backward pack)");
}

TEST(Legality, SegmentsOutOfRange) {
  Plan p = asymmetric();
  fwd(p)[4].segments[0] = seg(9, 0, 10);
  EXPECT_EQ(check_legality(p).summary(),
            "structure: forward pack F5 segment 1 names sequence index 9 but the plan has 7 "
            "sequences");
  p = asymmetric();
  fwd(p)[4].segments[1] = seg(6, 0, 4096);
  EXPECT_EQ(check_legality(p).summary(),
            "structure: forward pack F5 segment 2 covers [0,4096) of sequence s5 of length 2048 "
            "(need 0 <= begin < end <= length)");
  p = asymmetric();
  fwd(p)[0].stage_times = {1.0, 2.0};
  EXPECT_EQ(check_legality(p).summary(),
            "structure: forward pack F1 has 2 stage_times for 4 stages");
  p = asymmetric();
  p.replicas.clear();
  EXPECT_EQ(check_legality(p).summary(), "structure: the plan has no replica");
}

TEST(Legality, L1ForwardRunsSlicesInOrder) {
  Plan p = asymmetric();
  std::swap(fwd(p)[0].segments[0], fwd(p)[1].segments[0]);  // X[4096,8192) now in F1
  const auto report = check_legality(p);
  ASSERT_FALSE(report.legal());
  const Violation& v = report.violations[0];
  EXPECT_EQ(v.rule, Rule::L1);
  EXPECT_EQ(v.pass, Pass::Forward);
  EXPECT_EQ(v.pack, 0);
  EXPECT_EQ(v.seq, 0);
  EXPECT_EQ(v.message,
            "L1: forward pack F1 runs tokens [4096,8192) of sequence X before [0,4096) in F2 "
            "(forward must run a sequence's slices in order)");
}

TEST(Legality, L2BackwardRunsSlicesInReverse) {
  Plan p = asymmetric();
  bwd(p)[3].segments = {seg(0, 0, 8192)};
  bwd(p)[4].segments[0] = seg(0, 8192, 16384);
  const auto report = check_legality(p);
  ASSERT_EQ(report.violations.size(), 1u) << report.summary();
  EXPECT_EQ(report.violations[0].rule, Rule::L2);
  EXPECT_EQ(report.violations[0].pack, 3);
  EXPECT_EQ(report.summary(),
            "L2: backward pack B4 runs tokens [0,8192) of sequence X before [8192,16384) in B5 "
            "(backward must run a sequence's slices in reverse order)");
}

TEST(Legality, L3BackwardWaitsForTheLastForwardSlice) {
  Plan p = asymmetric();
  // X's last slice moves to F5: B4 (which may follow only F1..F4 on the last stage) is too early.
  fwd(p)[3].segments.clear();
  fwd(p)[4].segments.push_back(seg(0, 12288, 16384));
  auto report = check_legality(p);
  ASSERT_EQ(report.violations.size(), 1u) << report.summary();
  EXPECT_EQ(report.violations[0].rule, Rule::L3);
  EXPECT_EQ(report.violations[0].pack, 3);
  EXPECT_EQ(report.summary(),
            "L3: backward pack B4 runs sequence X, whose last slice is in forward pack F5, but "
            "only F1..F4 have run on the last stage before B4 (warmup_extra 0)");
  // One extra warm-up forward makes it legal; so does GPipe.
  p.warmup_extra = 1;
  EXPECT_TRUE(check_legality(p).legal()) << check_legality(p).summary();
  p.warmup_extra = 0;
  p.schedule = ScheduleKind::GPipe;
  EXPECT_TRUE(check_legality(p).legal());
  p.schedule = ScheduleKind::Interleaved;
  EXPECT_EQ(check_legality(p).violations[0].rule, Rule::L3);
}

TEST(Legality, L5TokenCap) {
  LegalityOptions options;
  options.token_cap = 14336;  // B5 holds X[0,8192) + s4 + s5
  EXPECT_TRUE(check_legality(asymmetric(), options).legal());
  options.token_cap = 8191;
  const auto report = check_legality(asymmetric(), options);
  ASSERT_EQ(report.violations.size(), 3u);
  EXPECT_EQ(report.violations[0].rule, Rule::L5);
  EXPECT_EQ(report.violations[0].pass, Pass::Forward);
  EXPECT_EQ(report.violations[0].pack, 0);
  EXPECT_EQ(report.summary(), "L5: forward pack F1 holds 8192 tokens, over the token cap of 8191");
  EXPECT_EQ(report.violations[1].message,
            "L5: backward pack B4 holds 8192 tokens, over the token cap of 8191");
  EXPECT_EQ(report.violations[2].message,
            "L5: backward pack B5 holds 14336 tokens, over the token cap of 8191");
}

TEST(Legality, MaxViolationsStopsCollecting) {
  Plan p = asymmetric();
  for (auto& pk : bwd(p)) pk.segments.clear();  // seven sequences missing in backward
  EXPECT_EQ(check_legality(p).violations.size(), 7u);
  EXPECT_EQ(check_legality(p, {}, 3).violations.size(), 3u);
}

}  // namespace
}  // namespace slimpack
