// Executable schedules: a plan solved from the samples, written as a schedule and read back from
// the file alone simulates to the same iteration, per-op times and peak memory; replaying the
// action lists alone gives the simulator's times op for op; atoms, consumes and frees are the
// hand-computed ones; what the format cannot express is refused by name.
#include <gtest/gtest.h>

#include <map>
#include <tuple>

#include "app/pipeline.h"
#include "app/scenario.h"
#include "common/json_util.h"
#include "plan/plan_json.h"
#include "schedule/schedule.h"
#include "sim/simulator.h"
#include "solver/strategy.h"

namespace slimpack {
namespace {

struct Solved {
  Plan plan;
  std::shared_ptr<const CostModel> cost;
};

Solved solve_sample(const std::string& strategy, ConfigSpec config, Tokens budget,
                    const std::string& preset = "long-sft-128k") {
  WorkloadSpec w;
  w.preset = preset;
  w.batch_tokens = budget;
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

// The schedule written as text and read back: the plan and costs come from the file alone.
Schedule round_trip(const Schedule& s) {
  auto j = json_util::parse(schedule_to_string(s));
  EXPECT_TRUE(j.ok());
  auto back = schedule_from_json(*j);
  EXPECT_TRUE(back.ok()) << (back ? "" : back.error().message);
  return *back;
}

using OpKey = std::tuple<int, int, int, int, int>;  // replica, stage, kind, pass, pack

std::map<OpKey, std::pair<double, double>> ops_of(const SimResult& sim) {
  std::map<OpKey, std::pair<double, double>> out;
  for (std::size_t r = 0; r < sim.replicas.size(); ++r)
    for (std::size_t s = 0; s < sim.replicas[r].stages.size(); ++s) {
      const StageResult& st = sim.replicas[r].stages[s];
      for (const auto* list : {&st.ops, &st.comm})
        for (const TimedOp& op : *list)
          out[{static_cast<int>(r), op.stage, static_cast<int>(op.kind), static_cast<int>(op.pass),
               op.pack}] = {op.start, op.end};
    }
  return out;
}

void expect_same_run(const Solved& solved) {
  auto schedule = make_schedule(solved.plan, solved.cost.get());
  ASSERT_TRUE(schedule.ok()) << schedule.error().message;
  const Schedule back = round_trip(*schedule);
  auto cost = schedule_cost_model(back);
  ASSERT_TRUE(cost.ok()) << cost.error().message;
  ASSERT_TRUE(*cost);

  auto before = simulate(solved.plan, solved.cost.get());
  auto after = simulate(back.plan, cost->get());
  ASSERT_TRUE(before.ok()) << before.error().message;
  ASSERT_TRUE(after.ok()) << after.error().message;
  EXPECT_EQ(before->iteration_time, after->iteration_time);
  EXPECT_EQ(before->peak_memory_bytes, after->peak_memory_bytes);
  EXPECT_EQ(stage_peak_memory(*before), stage_peak_memory(*after));
  EXPECT_EQ(ops_of(*before), ops_of(*after));

  // The actions alone, interpreted as a runtime would, give the simulator's times.
  auto replay = replay_schedule(back, cost->get());
  ASSERT_TRUE(replay.ok()) << replay.error().message;
  EXPECT_EQ(replay->iteration_time, before->iteration_time);
  const auto sim_ops = ops_of(*before);
  int compute = 0, sends = 0;
  for (const ReplayedOp& op : replay->ops) {
    const ScheduleRank& rank = back.ranks[static_cast<std::size_t>(op.rank)];
    OpKind kind = OpKind::P2P;
    Pass pass = Pass::Forward;
    switch (op.action.op) {
      case ActionOp::Forward:
        kind = OpKind::Forward;
        break;
      case ActionOp::Backward:
        kind = OpKind::Backward, pass = Pass::Backward;
        break;
      case ActionOp::SendF:
        break;
      case ActionOp::SendB:
        pass = Pass::Backward;
        break;
      case ActionOp::AllReduce:
        kind = OpKind::DpSync, pass = Pass::Backward;
        break;
      default:
        FAIL() << "a receive is not a timed op";
    }
    const OpKey key{rank.replica, rank.stage, static_cast<int>(kind), static_cast<int>(pass),
                    op.action.op == ActionOp::AllReduce ? -1 : op.action.pack};
    auto it = sim_ops.find(key);
    ASSERT_NE(it, sim_ops.end()) << "replica " << rank.replica << " stage " << rank.stage << " "
                                 << action_op_name(op.action.op) << " " << op.action.pack;
    EXPECT_EQ(op.start, it->second.first) << action_op_name(op.action.op) << op.action.pack;
    EXPECT_EQ(op.end, it->second.second) << action_op_name(op.action.op) << op.action.pack;
    (kind == OpKind::P2P ? sends : compute) += 1;
  }
  EXPECT_GT(compute, 0);
  if (back.plan.stages > 1) {
    EXPECT_GT(sends, 0);
  }
}

TEST(Schedule, SlimPackAsymmetricWithDrainRoundTripsAndReplays) {
  ConfigSpec c;
  c.pp = 4;
  const Solved s = solve_sample("slimpack", c, 1 << 19, "chat-sft");
  const ReplicaPlan& rp = s.plan.replicas[0];
  EXPECT_NE(rp.forward.size(), rp.backward.size()) << "the case needs an asymmetric plan";
  expect_same_run(s);
}

TEST(Schedule, BaselinesRoundTripAndReplay) {
  ConfigSpec c;
  c.pp = 4;
  for (const char* strategy : {"fixed", "balanced", "sliced"}) {
    SCOPED_TRACE(strategy);
    expect_same_run(solve_sample(strategy, c, 1 << 19));
  }
}

TEST(Schedule, ReplicasAndRecomputeRoundTripAndReplay) {
  ConfigSpec c;
  c.pp = 2;
  c.dp = 2;
  c.tp = 2;
  c.dp_merge = false;
  c.recompute = {RecomputeMode::Full, 0};
  const Solved s = solve_sample("slimpack", c, 1 << 19);
  ASSERT_EQ(s.plan.dp(), 2);
  EXPECT_GT(s.plan.recompute_at(0), 0);
  expect_same_run(s);
}

TEST(Schedule, GPipeRoundTripsAndReplays) {
  ConfigSpec c;
  c.pp = 3;
  c.schedule = ScheduleKind::GPipe;
  c.stage_split = StageSplitSpec{false, {10, 11, 11}};
  expect_same_run(solve_sample("sliced", c, 1 << 18, "chat-sft"));
}

// The example of docs/file-formats-schedule.md: s0 (600 tokens) forward as [0,512) + [512,600),
// backward as [256,600) + [0,256); s1 (100 tokens) whole in F2 and B1.
Plan doc_example() {
  Plan plan;
  plan.stages = 2;
  plan.warmup_extra = 1;  // B1 needs s0's last slice, in F2 (rule L3)
  plan.sequences = {{"s0", 600, 0}, {"s1", 100, 1}};
  Pack f1, f2, b1, b2;
  f1.segments = {{0, 0, 512}};
  f2.segments = {{0, 512, 600}, {1, 0, 100}};
  b1.segments = {{0, 256, 600}, {1, 0, 100}};
  b2.segments = {{0, 0, 256}};
  for (Pack* p : {&f1, &f2, &b1, &b2}) p->time = 1.0;
  plan.replicas.push_back({{f1, f2}, {b1, b2}});
  return plan;
}

TEST(Schedule, AtomsConsumesAndFreesAreTheDocumentedOnes) {
  auto s = make_schedule(doc_example(), nullptr);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->atoms[0], (std::vector<Tokens>{0, 256, 512, 600}));
  EXPECT_EQ(s->atoms[1], (std::vector<Tokens>{0, 100}));
  const auto& b1 = s->uses[0][0];
  EXPECT_EQ(b1.consumes, (std::vector<AtomRun>{{0, 1, 2, 0}, {0, 2, 3, 1}, {1, 0, 1, 1}}));
  EXPECT_EQ(b1.frees, (std::vector<AtomRun>{{0, 1, 3, -1}, {1, 0, 1, -1}}));
  const auto& b2 = s->uses[0][1];
  EXPECT_EQ(b2.consumes, (std::vector<AtomRun>{{0, 0, 1, 0}}));
  EXPECT_EQ(b2.frees, (std::vector<AtomRun>{{0, 0, 1, -1}}));
  // Rank 1 (the last stage): RECV_F F, RECV_F F, B SEND_B, B SEND_B, tags Mf + pack backward.
  const auto& acts = s->ranks[1].actions;
  ASSERT_EQ(acts.size(), 8u);
  EXPECT_EQ(acts[0].op, ActionOp::RecvF);
  EXPECT_EQ(acts[0].peer, 0);
  EXPECT_EQ(acts[0].tokens, 512);
  EXPECT_EQ(acts[5].op, ActionOp::SendB);
  EXPECT_EQ(acts[5].tag, 2);
  EXPECT_EQ(acts[5].tokens, 444);
  auto replay = replay_schedule(*s, nullptr);
  ASSERT_TRUE(replay.ok());
  auto sim = simulate(s->plan, nullptr);
  ASSERT_TRUE(sim.ok());
  EXPECT_EQ(replay->iteration_time, sim->iteration_time);
}

TEST(Schedule, SampleIndicesSurviveTheFile) {
  auto s = make_schedule(doc_example(), nullptr);
  ASSERT_TRUE(s.ok());
  const Schedule back = round_trip(*s);
  EXPECT_EQ(back.plan.sequences[1].sample, 1);
  EXPECT_FALSE(back.costs.has_value());
}

TEST(Schedule, RefusesDpMergeShardsAndInterleavedByName) {
  Plan merged = doc_example();
  merged.replicas.push_back(merged.replicas[0]);
  for (int r = 0; r < 2; ++r)
    for (auto* packs : {&merged.replicas[r].forward, &merged.replicas[r].backward})
      for (Pack& p : *packs)
        for (Segment& seg : p.segments) seg.shards = 2, seg.shard = r;
  auto a = make_schedule(merged, nullptr);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("DP-Merge shards"), std::string::npos) << a.error().message;
  EXPECT_NE(a.error().message.find("--no-dp-merge"), std::string::npos);

  Plan inter = doc_example();
  inter.schedule = ScheduleKind::Interleaved;
  inter.vchunks = 2;
  auto b = make_schedule(inter, nullptr);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("interleaved"), std::string::npos) << b.error().message;
}

TEST(Schedule, HandEditedActionsAreRefusedNamingThePath) {
  auto s = make_schedule(doc_example(), nullptr);
  ASSERT_TRUE(s.ok());
  nlohmann::json j = schedule_to_json(*s);
  j["ranks"][1]["actions"][4]["op"] = "FWD";
  auto bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "$.ranks[1].actions[4].op: unknown action \"FWD\" (rank 1 action 4: the plan gives "
            "B 0)");

  j = schedule_to_json(*s);
  std::swap(j["ranks"][0]["actions"][0], j["ranks"][0]["actions"][2]);
  bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "$.ranks[0].actions[0]: rank 0 action 0 is F 1, the plan gives F 0 (actions out of "
            "order)");

  j = schedule_to_json(*s);
  j["sequences"][0]["atoms"] = {0, 600};
  bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("$.sequences[0].atoms"), std::string::npos)
      << bad.error().message;

  j = schedule_to_json(*s);
  j["setup"]["stages"] = "two";
  bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("$.setup.stages"), std::string::npos) << bad.error().message;

  j = schedule_to_json(*s);
  j["version"] = 2;
  bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("unsupported version 2"), std::string::npos);
}

// A schedule missing an action used to be named by the first field the next action lacks
// ("$.ranks[1].actions[0].bytes: missing required field" for a missing RECV_F): the reason names
// the rank, the action's index, its op and pack, as the runtime's validator does.
TEST(Schedule, AMissingOrExtraActionIsNamedByRankIndexOpAndPack) {
  auto s = make_schedule(doc_example(), nullptr);
  ASSERT_TRUE(s.ok());
  nlohmann::json j = schedule_to_json(*s);
  ASSERT_EQ(j["ranks"][1]["actions"][0]["op"], "RECV_F");
  j["ranks"][1]["actions"].erase(0);
  auto bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "$.ranks[1].actions[0]: rank 1 (stage 1, replica 0) lacks RECV_F 0 before F 0 "
            "(action 0)");

  j = schedule_to_json(*s);
  auto& acts = j["ranks"][1]["actions"];
  acts.insert(acts.begin(), acts[1]);  // F 0 twice
  bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "$.ranks[1].actions[0]: rank 1 (stage 1, replica 0) has an extra F 0 before RECV_F 0 "
            "(action 0)");

  j = schedule_to_json(*s);
  j["ranks"][1]["actions"][0].erase("bytes");
  bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "$.ranks[1].actions[0].bytes: missing required field (rank 1 action 0: RECV_F 0)");

  j = schedule_to_json(*s);
  const std::size_t n = j["ranks"][1]["actions"].size();
  const std::string last = j["ranks"][1]["actions"][n - 1]["op"].get<std::string>() + " " +
                           std::to_string(j["ranks"][1]["actions"][n - 1]["pack"].get<int>());
  j["ranks"][1]["actions"].erase(n - 1);
  bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "$.ranks[1].actions: rank 1 (stage 1, replica 0) has " +
                                     std::to_string(n - 1) + " actions, the plan gives " +
                                     std::to_string(n) + " (the first missing is " + last +
                                     ", action " + std::to_string(n - 1) + ")");
}

// A model from a config.json (an explicit head dimension, q/k/v/o biases; tied embeddings) runs
// from the schedule alone as it was planned, and setup.model says where it came from.
TEST(Schedule, HfConfigModelRoundTripsWithItsShape) {
  for (const char* sample : {"llama-wide-heads.json", "qwen2-tiny.json"}) {
    SCOPED_TRACE(sample);
    ConfigSpec c;
    c.hf_config_file = std::string(SLIMPACK_SAMPLES_DIR) + "/hf/" + sample;
    c.pp = 2;
    c.tp = 2;
    const Solved s = solve_sample("slimpack", c, 1 << 16, "chat-sft");
    expect_same_run(s);
    auto schedule = make_schedule(s.plan, s.cost.get());
    ASSERT_TRUE(schedule.ok());
    const nlohmann::json model = schedule_to_json(*schedule)["setup"]["model"];
    const ModelConfig& m = s.cost->model();
    EXPECT_EQ(model["source"], "hf-config:" + c.hf_config_file);
    EXPECT_EQ(model["head_dim"], m.head_dim());
    EXPECT_EQ(model["tied_embeddings"], m.tied_embeddings);
    EXPECT_EQ(model["attention_bias"], attention_bias_name(m.attention_bias));
    const Schedule back = round_trip(*schedule);
    ASSERT_TRUE(back.costs.has_value());
    EXPECT_EQ(back.costs->model.source, m.source);
    EXPECT_EQ(back.costs->model.explicit_head_dim, m.explicit_head_dim);
    EXPECT_EQ(back.costs->model.tied_embeddings, m.tied_embeddings);
    EXPECT_EQ(back.costs->model.attention_bias, m.attention_bias);
  }
}

// Files written before setup.model recorded the source and shape still read (their costs fix the
// model); a setup.model that says something else than the costs is refused by its path.
TEST(Schedule, SetupModelFieldsAreOptionalButChecked) {
  ConfigSpec c;
  c.pp = 2;
  const Solved s = solve_sample("sliced", c, 1 << 16, "chat-sft");
  auto schedule = make_schedule(s.plan, s.cost.get());
  ASSERT_TRUE(schedule.ok());
  nlohmann::json j = schedule_to_json(*schedule);
  EXPECT_EQ(j["setup"]["model"]["source"], "preset");
  EXPECT_EQ(j["setup"]["model"]["head_dim"], 128);
  EXPECT_EQ(j["setup"]["model"]["tied_embeddings"], false);
  EXPECT_EQ(j["setup"]["model"]["attention_bias"], "none");
  nlohmann::json old = j;
  for (const char* key : {"source", "head_dim", "tied_embeddings", "attention_bias"}) {
    old["setup"]["model"].erase(key);
    old["setup"]["costs"]["model"].erase(key);
  }
  auto read = schedule_from_json(old);
  EXPECT_TRUE(read.ok()) << (read ? "" : read.error().message);
  j["setup"]["model"]["tied_embeddings"] = true;
  auto bad = schedule_from_json(j);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "$.setup.model.tied_embeddings: the plan gives false, the file has true");
}

TEST(Schedule, ReplayNamesADeadlock) {
  auto s = make_schedule(doc_example(), nullptr);
  ASSERT_TRUE(s.ok());
  Schedule broken = *s;
  broken.ranks[1].actions[0].tag = 99;  // a receive no one sends
  auto replay = replay_schedule(broken, nullptr);
  ASSERT_FALSE(replay.ok());
  EXPECT_NE(replay.error().message.find("deadlock"), std::string::npos);
  EXPECT_NE(replay.error().message.find("rank 1 at RECV_F 0"), std::string::npos)
      << replay.error().message;
}

}  // namespace
}  // namespace slimpack
