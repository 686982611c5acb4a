// `slimpack export torch-pp` (core/app/torch_pp_export.h): a hand-checked 2-stage 3-micro-batch
// 1F1B, `fixed` and `balanced` plans solved from a preset (their rows checked as torch's own
// validation checks them), the padding and its simulated cost, and every refusal reason with the
// nearest plan that exports.
#include "app/torch_pp_export.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/pipeline.h"
#include "app/scenario.h"
#include "plan/plan_json.h"
#include "schedule/torch_pp_actions.h"
#include "sim/simulator.h"
#include "solver/strategy.h"

namespace slimpack {
namespace {

// Sequences of the given lengths, one pack per inner list, backward packs = forward packs.
Plan packed_plan(int stages, const std::vector<std::vector<Tokens>>& packs, int replicas = 1) {
  Plan plan;
  plan.stages = stages;
  for (int r = 0; r < replicas; ++r) {
    ReplicaPlan rep;
    for (const auto& lengths : packs) {
      Pack p;
      for (Tokens len : lengths) {
        const auto seq = static_cast<SeqIndex>(plan.sequences.size());
        plan.sequences.push_back({"s" + std::to_string(seq), len});
        p.segments.push_back({seq, 0, len});
      }
      rep.forward.push_back(p);
    }
    rep.backward = rep.forward;
    plan.replicas.push_back(rep);
  }
  return plan;
}

std::shared_ptr<const CostModel> default_cost(const Plan& plan) {
  auto cost = plan_cost_model(plan, ConfigSpec{}, /*model_requested=*/true);
  EXPECT_TRUE(cost.ok()) << (cost ? "" : cost.error().message);
  return cost ? *cost : nullptr;
}

std::string refusal(const Plan& plan) {
  auto out = export_torch_pp(plan, nullptr, TorchPPFormat::ComputeOnly);
  EXPECT_FALSE(out.ok());
  return out ? "" : out.error().message;
}

void expect_refused(const Plan& plan, const std::string& reason,
                    const std::string& nearest = kTorchPPNearest) {
  const std::string message = refusal(plan);
  EXPECT_EQ(message, "torch's pipeline runtime cannot run this plan: " + reason + "; " + nearest);
}

// The hand-checked case: 2 stages, 3 micro-batches, 1F1B with no extra warm-up. Stage 0 runs one
// forward ahead (warm-up p - s - 1 = 1), stage 1 alternates.
TEST(TorchPPExport, TwoStagesThreeMicrobatchesOneFOneB) {
  const Plan plan = packed_plan(2, {{300}, {200, 100}, {250}});
  auto out = export_torch_pp(plan, default_cost(plan).get(), TorchPPFormat::ComputeOnly);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->csv, "0F0,0F1,0B0,0F2,0B1,0B2\n1F0,1B0,1F1,1B1,1F2,1B2\n");
  EXPECT_EQ(out->layout.microbatches, 3);
  EXPECT_EQ(out->layout.backward_of, (std::vector<int>{0, 1, 2}));
  // Padding to 300: 0 + 0 + 50 = 50 rows of 900.
  const TorchPPPadding& p = out->padding;
  EXPECT_EQ(p.pack_tokens, 300);
  EXPECT_EQ(p.tokens, 850);
  EXPECT_EQ(p.padded_tokens, 900);
  EXPECT_EQ(p.pad_tokens, 50);
  EXPECT_DOUBLE_EQ(p.fraction, 50.0 / 900.0);
  EXPECT_EQ(p.pack_real_tokens, (std::vector<std::vector<Tokens>>{{300, 300, 250}}));
  ASSERT_TRUE(p.priced) << p.not_priced;
  EXPECT_GT(p.padded_makespan, p.makespan);

  auto comms = export_torch_pp(plan, nullptr, TorchPPFormat::ComputeComms);
  ASSERT_TRUE(comms.ok());
  EXPECT_EQ(comms->csv,
            "0UNSHARD,0F0,0SEND_F0,0F1,0SEND_F1,0RECV_B0,0B0,0WAIT_SEND_F0,0F2,0SEND_F2,0RECV_B1,"
            "0B1,0WAIT_SEND_F1,0RECV_B2,0B2,0WAIT_SEND_F2,0REDUCE_GRAD,0WAIT_REDUCE_GRAD,0RESHARD\n"
            "1UNSHARD,1RECV_F0,1F0,1RECV_F1,1B0,1SEND_B0,1F1,1RECV_F2,1B1,1SEND_B1,1F2,1B2,"
            "1SEND_B2,1REDUCE_GRAD,1WAIT_REDUCE_GRAD,1RESHARD,1WAIT_SEND_B0,1WAIT_SEND_B1,"
            "1WAIT_SEND_B2\n");
  EXPECT_FALSE(comms->padding.priced);

  const nlohmann::json j = torch_pp_export_json(*out);
  EXPECT_EQ(j["format"], "compute_only");
  EXPECT_EQ(j["rows"][1][1], "1B0");
  EXPECT_EQ(j["padding"]["pad_tokens"], 50);
  EXPECT_TRUE(j["padding"].contains("padded_makespan_s"));
  const std::string text = torch_pp_export_text(*out, "p.csv");
  EXPECT_NE(text.find("wrote p.csv: torch-pp compute_only, 2 pipeline ranks"), std::string::npos);
  EXPECT_NE(text.find("50 tokens added"), std::string::npos) << text;
}

TEST(TorchPPExport, GPipeAndExtraWarmup) {
  Plan plan = packed_plan(2, {{100}, {100}, {100}});
  plan.schedule = ScheduleKind::GPipe;
  auto gpipe = export_torch_pp(plan, nullptr, TorchPPFormat::ComputeOnly);
  ASSERT_TRUE(gpipe.ok());
  EXPECT_EQ(gpipe->csv, "0F0,0F1,0F2,0B0,0B1,0B2\n1F0,1F1,1F2,1B0,1B1,1B2\n");
  EXPECT_EQ(gpipe->padding.pad_tokens, 0);
  plan.schedule = ScheduleKind::OneFOneB;
  plan.warmup_extra = 1;
  auto warm = export_torch_pp(plan, nullptr, TorchPPFormat::ComputeOnly);
  ASSERT_TRUE(warm.ok());
  EXPECT_EQ(warm->csv, "0F0,0F1,0F2,0B0,0B1,0B2\n1F0,1F1,1B0,1F2,1B1,1B2\n");
}

// A backward pack that is exactly forward pack j's backward runs as torch's B j, wherever the plan
// puts it.
TEST(TorchPPExport, BackwardPacksInAnotherOrder) {
  Plan plan = packed_plan(2, {{100}, {100}, {100}});
  plan.schedule = ScheduleKind::GPipe;
  std::swap(plan.replicas[0].backward[0], plan.replicas[0].backward[2]);
  auto out = export_torch_pp(plan, nullptr, TorchPPFormat::ComputeOnly);
  ASSERT_TRUE(out.ok()) << out.error().message;
  EXPECT_EQ(out->layout.backward_of, (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(out->csv, "0F0,0F1,0F2,0B2,0B1,0B0\n1F0,1F1,1F2,1B2,1B1,1B0\n");
}

TEST(TorchPPExport, ExplicitTimesAreNotPriced) {
  Plan plan = packed_plan(2, {{100}, {50}});
  for (auto& p : plan.replicas[0].forward) p.time = 1.0;
  for (auto& p : plan.replicas[0].backward) p.time = 2.0;
  auto out = export_torch_pp(plan, nullptr, TorchPPFormat::ComputeOnly);
  ASSERT_TRUE(out.ok());
  EXPECT_FALSE(out->padding.priced);
  EXPECT_NE(out->padding.not_priced.find("explicit times"), std::string::npos);
  EXPECT_NE(torch_pp_export_text(*out, "x.csv").find("padding cost: not priced"),
            std::string::npos);
}

// ---- plans of the strategies ----------------------------------------------------------------

struct Solved {
  Plan plan;
  std::shared_ptr<const CostModel> cost;
};

Solved solve_chat(const std::string& strategy, int dp) {
  WorkloadSpec w;
  w.preset = "chat-sft";
  w.batch_tokens = 65536;
  ConfigSpec config;
  config.pp = 2;
  config.dp = dp;
  config.strategy = strategy;
  auto prepared = prepare_scenario(w, config);
  EXPECT_TRUE(prepared.ok()) << (prepared ? "" : prepared.error().message);
  SolveInput in;
  in.batch = prepared->batch;
  in.cost = prepared->inputs.cost.get();
  in.params = prepared->inputs.params;
  auto solved = solve(strategy, in);
  EXPECT_TRUE(solved.ok()) << (solved ? "" : solved.error().message);
  return {solved->plan, prepared->inputs.cost};
}

// Exported, read back as a torch CSV and checked as torch's _validate_schedule checks it.
void expect_torch_runs(const Solved& s) {
  for (TorchPPFormat format : {TorchPPFormat::ComputeOnly, TorchPPFormat::ComputeComms}) {
    auto out = export_torch_pp(s.plan, s.cost.get(), format);
    ASSERT_TRUE(out.ok()) << out.error().message;
    auto table = parse_torch_pp_csv(out->csv, "x.csv");
    ASSERT_TRUE(table.ok()) << table.error().message;
    auto stages = torch_pp_stages(*table);
    ASSERT_TRUE(stages.ok()) << stages.error().message;
    EXPECT_EQ(stages->stage_of_rank, (std::vector<int>{0, 1}));
    EXPECT_EQ(stages->microbatches, static_cast<int>(s.plan.replicas[0].forward.size()));
    ASSERT_TRUE(out->padding.priced) << out->padding.not_priced;
    EXPECT_GE(out->padding.padded_makespan, out->padding.makespan);
    EXPECT_EQ(out->padding.padded_tokens,
              s.plan.dp() * out->layout.microbatches * out->padding.pack_tokens);
    EXPECT_EQ(out->padding.tokens, s.plan.total_tokens());
  }
}

TEST(TorchPPExport, FixedPlanExports) {
  expect_torch_runs(solve_chat("fixed", 1));
}

TEST(TorchPPExport, BalancedPlanExports) {
  expect_torch_runs(solve_chat("balanced", 1));
  const Solved two = solve_chat("balanced", 2);
  expect_torch_runs(two);
  auto out = export_torch_pp(two.plan, two.cost.get(), TorchPPFormat::ComputeOnly);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->layout.replicas, 2);
  EXPECT_NE(torch_pp_export_text(*out, "x.csv").find("the 2 replicas are data-parallel copies"),
            std::string::npos);
}

TEST(TorchPPExport, AsymmetricSamplePlanIsRefused) {
  auto plan = read_plan_file(std::string(SLIMPACK_SAMPLES_DIR) + "/plans/asymmetric-example.json");
  ASSERT_TRUE(plan.ok()) << plan.error().message;
  EXPECT_NE(refusal(*plan).find("torch's pipeline runtime cannot run this plan: "),
            std::string::npos);
}

// ---- every refusal ---------------------------------------------------------------------------

TEST(TorchPPExportRefusal, InterleavedSchedule) {
  Plan plan = packed_plan(2, {{100}, {100}});
  plan.schedule = ScheduleKind::Interleaved;
  plan.vchunks = 2;
  expect_refused(plan,
                 "schedule \"interleaved\" (one stage per rank: the 1f1b and gpipe orders export)",
                 "solve it with --schedule 1f1b");
}

TEST(TorchPPExportRefusal, DpMerge) {
  Plan plan = packed_plan(2, {{100}, {100}}, 2);
  for (int r = 0; r < 2; ++r) {
    auto& seg = plan.replicas[static_cast<std::size_t>(r)].forward[0].segments[0];
    seg.seq = 0;
    seg.shards = 2;
    seg.shard = r;
    plan.replicas[static_cast<std::size_t>(r)].backward[0].segments[0] = seg;
  }
  expect_refused(plan, "sequence s0 is computed by 2 replicas together (DP-Merge)",
                 "solve it with --no-dp-merge, or --strategy balanced or --strategy fixed");
}

TEST(TorchPPExportRefusal, ReplicasWithOtherPackCounts) {
  Plan plan = packed_plan(2, {{100}, {100}, {100}, {100}, {100}, {100}}, 2);
  plan.replicas[0].forward.pop_back();
  plan.replicas[0].backward.pop_back();
  expect_refused(plan, "replicas have 5 and 6 packs (one CSV has one micro-batch count)");
}

TEST(TorchPPExportRefusal, UnequalForwardAndBackwardPacks) {
  Plan plan = packed_plan(2, {{100}, {100}});
  Pack merged;
  merged.segments = {plan.replicas[0].forward[0].segments[0],
                     plan.replicas[0].forward[1].segments[0]};
  plan.replicas[0].backward = {merged};
  expect_refused(plan, "2 forward and 1 backward packs (torch runs one backward per micro-batch)");
}

// Backward pack 3 runs the backward of forward packs 2 and 3 together (asymmetric packing).
TEST(TorchPPExportRefusal, BackwardRegroupsForwardPacks) {
  Plan plan = packed_plan(2, {{100}, {100}, {60, 40}, {80, 20}});
  auto& b = plan.replicas[0].backward;
  // B2 = s2 and s4, B3 = s3 and s5: each takes one sequence of F2 and one of F3.
  const Segment s2 = b[2].segments[0], s3 = b[2].segments[1];
  const Segment s4 = b[3].segments[0], s5 = b[3].segments[1];
  b[2].segments = {s2, s4};
  b[3].segments = {s3, s5};
  expect_refused(plan, "backward pack 2 regroups forward packs 2 and 3");
}

// Sequence s7 is sliced over forward packs 4, 5 and 6 (and their backward packs).
TEST(TorchPPExportRefusal, SequenceSlicedAcrossPacks) {
  Plan plan = packed_plan(2, {{10}, {10}, {10}, {10}, {10}, {10}, {10}});
  plan.sequences.push_back({"s7", 300});
  for (int k = 4; k < 7; ++k) {
    const Segment slice{7, (k - 4) * 100, (k - 3) * 100};
    plan.replicas[0].forward[static_cast<std::size_t>(k)].segments.push_back(slice);
    plan.replicas[0].backward[static_cast<std::size_t>(k)].segments.push_back(slice);
  }
  expect_refused(plan, "sequence s7 is sliced across packs 4-6");
}

TEST(TorchPPExportRefusal, SequenceCutWithinAPack) {
  Plan plan = packed_plan(2, {{100}, {100}});
  plan.sequences[0].length = 100;
  plan.replicas[0].forward[0].segments = {{0, 0, 50}, {0, 50, 100}};
  plan.replicas[0].backward[0].segments = {{0, 0, 50}, {0, 50, 100}};
  expect_refused(plan, "sequence s0 is cut into 2 segments in forward pack 0");
}

// The backward of one forward pack split over two backward packs (the forward whole).
TEST(TorchPPExportRefusal, SequenceSlicedAcrossBackwardPacks) {
  Plan plan = packed_plan(2, {{100, 10}, {20}});
  auto& b = plan.replicas[0].backward;
  b[0].segments = {{0, 50, 100}, {1, 0, 10}};
  b[1].segments = {{0, 0, 50}, {2, 0, 20}};
  expect_refused(plan, "backward pack 1 regroups forward packs 0 and 1");
  b[1].segments = {{0, 0, 50}};
  Pack last;
  last.segments = {{2, 0, 20}};
  b.push_back(last);
  plan.replicas[0].forward.push_back(Pack{});
  b.push_back(Pack{});
  // 3 forward packs (one empty), 4 backward: the counts first.
  expect_refused(plan, "3 forward and 4 backward packs (torch runs one backward per micro-batch)");
  b.pop_back();
  expect_refused(plan, "sequence s0 is sliced across backward packs 0 and 1");
}

TEST(TorchPPExportRefusal, ReplicasPairPacksDifferently) {
  Plan plan = packed_plan(2, {{100}, {100}}, 2);
  plan.schedule = ScheduleKind::GPipe;
  std::swap(plan.replicas[1].backward[0], plan.replicas[1].backward[1]);
  expect_refused(plan,
                 "replicas 0 and 1 pair backward and forward packs differently (one CSV serves "
                 "every replica)");
}

TEST(TorchPPExportRefusal, ReplicaNamedWithTwoReplicas) {
  Plan plan = packed_plan(2, {{100}, {100}}, 2);
  plan.replicas[1].backward.pop_back();
  plan.replicas[1].backward[0].segments.push_back(plan.replicas[1].forward[1].segments[0]);
  expect_refused(plan,
                 "replica 1: 2 forward and 1 backward packs (torch runs one backward per "
                 "micro-batch)");
}

TEST(TorchPPExport, Formats) {
  TorchPPFormat f = TorchPPFormat::ComputeOnly;
  EXPECT_TRUE(parse_torch_pp_format("compute_comms", f));
  EXPECT_EQ(f, TorchPPFormat::ComputeComms);
  EXPECT_FALSE(parse_torch_pp_format("comms", f));
  EXPECT_STREQ(torch_pp_format_name(TorchPPFormat::ComputeOnly), "compute_only");
}

}  // namespace
}  // namespace slimpack
