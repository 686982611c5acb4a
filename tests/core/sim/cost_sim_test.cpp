// Simulation priced by the cost model: units, DP sync barrier, MFU, P2P times.
#include <gtest/gtest.h>

#include "cost/cost_model.h"
#include "sim/simulator.h"

namespace slimpack {
namespace {

CostModel llama_model(int pp, int dp) {
  auto model = model_preset("llama-2-7b");
  auto gpu = gpu_preset("h100-sxm");
  EXPECT_TRUE(model.ok() && gpu.ok());
  ParallelConfig par;
  par.pp = pp;
  par.dp = dp;
  return CostModel(*model, *gpu, par);
}

// d replicas with `per_replica` sequences of 4096 tokens each, one sequence per pack.
Plan priced_plan(int stages, int dp, int per_replica, Tokens len) {
  Plan plan;
  plan.stages = stages;
  for (int r = 0; r < dp; ++r) {
    ReplicaPlan rp;
    // Replica r gets longer sequences so that the replicas finish at different times.
    for (int m = 0; m < per_replica; ++m) {
      const auto seq = static_cast<SeqIndex>(plan.sequences.size());
      plan.sequences.push_back({"r" + std::to_string(r) + "s" + std::to_string(m), len * (r + 1)});
      Pack p;
      p.segments.push_back({seq, 0, len * (r + 1)});
      rp.forward.push_back(p);
      rp.backward.push_back(p);
    }
    plan.replicas.push_back(rp);
  }
  return plan;
}

TEST(SimCost, PricedPlanWithDpSync) {
  const CostModel cost = llama_model(4, 2);
  const Plan plan = priced_plan(4, 2, 8, 4096);
  auto res = simulate(plan, &cost, {});
  ASSERT_TRUE(res.ok()) << res.error().message;
  EXPECT_EQ(res->time_unit, "s");
  EXPECT_GT(res->makespan, 0.0);
  EXPECT_GT(res->mfu, 0.0);
  EXPECT_LT(res->mfu, 1.0);
  EXPECT_GT(res->peak_memory_bytes, 0.0);
  EXPECT_DOUBLE_EQ(res->tokens_per_second,
                   static_cast<double>(plan.total_tokens()) / res->iteration_time);
  // Replica 1 is slower; DP sync of each stage starts when both replicas are done with it.
  ASSERT_EQ(res->replicas.size(), 2u);
  EXPECT_GT(res->replicas[1].makespan, res->replicas[0].makespan);
  for (int s = 0; s < 4; ++s) {
    const auto find_sync = [&](int r) {
      for (const TimedOp& op :
           res->replicas[static_cast<std::size_t>(r)].stages[static_cast<std::size_t>(s)].ops)
        if (op.kind == OpKind::DpSync) return op;
      ADD_FAILURE() << "no DP sync on stage " << s;
      return TimedOp{};
    };
    const TimedOp a = find_sync(0), b = find_sync(1);
    EXPECT_DOUBLE_EQ(a.start, b.start);
    EXPECT_NEAR(a.duration(), cost.dp_sync_time(s), 1e-12);  // end - start rounds
  }
  EXPECT_DOUBLE_EQ(res->replicas[0].finish, res->replicas[1].finish);
  EXPECT_GT(res->iteration_time, res->makespan);
  // The fast replica's critical path waits for the barrier: idle time.
  const CriticalPath& cp = res->replicas[0].critical_path;
  EXPECT_GT(cp.idle, 0.0);
  EXPECT_NEAR(cp.compute + cp.comm + cp.idle, res->replicas[0].finish, 1e-12);
  // P2P sends cost cost.p2p_time(tokens).
  const TimedOp& send = res->replicas[0].stages[0].comm.front();
  EXPECT_EQ(send.kind, OpKind::P2P);
  EXPECT_NEAR(send.duration(), cost.p2p_time(4096.0), 1e-12);
}

TEST(SimCost, ExplicitTimesOverrideCostModel) {
  const CostModel cost = llama_model(2, 1);
  Plan plan = priced_plan(2, 1, 2, 1024);
  for (auto& p : plan.replicas[0].forward) p.time = 1.0;
  for (auto& p : plan.replicas[0].backward) p.time = 2.0;
  auto res = simulate(plan, &cost, {});
  ASSERT_TRUE(res.ok()) << res.error().message;
  // (M + p - 1)(tF + tB) plus the P2P time per boundary crossing on the critical path.
  EXPECT_GE(res->makespan, 9.0);
  EXPECT_LT(res->makespan, 9.0 + 1e-3);
  EXPECT_EQ(res->replicas.size(), 1u);
  for (const TimedOp& op : res->replicas[0].stages[0].ops) EXPECT_NE(op.kind, OpKind::DpSync);
}

}  // namespace
}  // namespace slimpack
