#pragma once
// Plans and simulation results built by hand for the Gantt tests and the paint benchmark, so they
// do not depend on the simulator's exact numbers.
#include <algorithm>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "plan/schedule_order.h"
#include "sim/sim_result.h"

namespace slimpack::testing {

struct PlanAndResult {
  Plan plan;
  SimResult result;
};

inline TimedOp make_op(double start, double end, int pack, int stage, OpKind kind) {
  TimedOp op;
  op.start = start;
  op.end = end;
  op.pack = pack;
  op.stage = static_cast<std::int16_t>(stage);
  op.kind = kind;
  return op;
}

// Two stages, 1F1B with w = 1, explicit times tF = 2 and tB = 3 (units), asymmetric packs:
//   sequences A(300) B(100) C(200)
//   F1 = {A[0,150), B}   F2 = {A[150,300), C}   B1 = {C, A[150,300)}   B2 = {A[0,150), B}
// Stage order on both stages: F1 F2 B1 B2, which gives
//   stage 0: F1 [0,2)  F2 [2,4)  B1 [9,12) B2 [12,15)
//   stage 1: F1 [2,4)  F2 [4,6)  B1 [6,9)  B2 [9,12)
// makespan 15, busy 10 per stage, bubble 1 - 20/30 = 1/3.
inline PlanAndResult tiny_plan() {
  PlanAndResult pr;
  Plan& p = pr.plan;
  p.stages = 2;
  p.warmup_extra = 1;
  p.strategy = "hand-made";
  p.sequences = {{"A", 300}, {"B", 100}, {"C", 200}};
  ReplicaPlan r;
  r.forward = {Pack{{{0, 0, 150}, {1, 0, 100}}, 2.0, {}},
               Pack{{{0, 150, 300}, {2, 0, 200}}, 2.0, {}}};
  r.backward = {Pack{{{2, 0, 200}, {0, 150, 300}}, 3.0, {}},
                Pack{{{0, 0, 150}, {1, 0, 100}}, 3.0, {}}};
  p.replicas = {r};

  SimResult& s = pr.result;
  ReplicaResult rr;
  rr.stages.resize(2);
  rr.stages[0].ops = {make_op(0, 2, 0, 0, OpKind::Forward), make_op(2, 4, 1, 0, OpKind::Forward),
                      make_op(9, 12, 0, 0, OpKind::Backward),
                      make_op(12, 15, 1, 0, OpKind::Backward)};
  rr.stages[1].ops = {make_op(2, 4, 0, 1, OpKind::Forward), make_op(4, 6, 1, 1, OpKind::Forward),
                      make_op(6, 9, 0, 1, OpKind::Backward),
                      make_op(9, 12, 1, 1, OpKind::Backward)};
  // Activations held from each forward to the matching backward (100 bytes per pack).
  rr.stages[0].memory = {{0, 100}, {2, 200}, {12, 100}, {15, 0}};
  rr.stages[1].memory = {{2, 100}, {4, 200}, {9, 100}, {12, 0}};
  for (auto& st : rr.stages) {
    st.busy = 10;
    st.bubble_ratio = 1.0 / 3.0;
    st.peak_memory_bytes = 200;
  }
  rr.makespan = rr.finish = 15;
  s.replicas = {rr};
  s.makespan = s.iteration_time = 15;
  s.bubble_ratio = 1.0 / 3.0;
  s.peak_memory_bytes = 200;
  s.time_unit = "units";
  return pr;
}

// A synthetic symmetric 1F1B plan (B_b = F_b) with `packs` packs per replica and varying pack
// times, scheduled by a list scheduler over stage_order(): F(s,m) after F(s-1,m), B(s,b) after
// B(s+1,b), in each stage's issue order. Memory: +1 per forward, -1 per backward, per stage.
inline PlanAndResult synthetic_plan(int stages, int packs, int replicas = 1, bool memory = true) {
  PlanAndResult pr;
  Plan& p = pr.plan;
  p.stages = stages;
  p.strategy = "synthetic";
  p.sequences.reserve(static_cast<std::size_t>(packs));
  for (int m = 0; m < packs; ++m) p.sequences.push_back({"s" + std::to_string(m), 1000});
  ReplicaPlan rp;
  for (int m = 0; m < packs; ++m) {
    Pack f{{{m, 0, 1000}}, 1.0 + 0.5 * (m % 3), {}};
    Pack b = f;
    b.time = 2.0 * *f.time;
    rp.forward.push_back(f);
    rp.backward.push_back(b);
  }
  p.replicas.assign(static_cast<std::size_t>(replicas), rp);

  SimResult& s = pr.result;
  for (int r = 0; r < replicas; ++r) {
    ReplicaResult rr;
    rr.stages.resize(static_cast<std::size_t>(stages));
    std::vector<std::vector<OrderedOp>> order(static_cast<std::size_t>(stages));
    for (int st = 0; st < stages; ++st)
      order[st] = stage_order(p.schedule, stages, st, packs, packs, 0, 1);
    const std::size_t n = static_cast<std::size_t>(stages) * static_cast<std::size_t>(packs);
    std::vector<double> f_end(n, -1.0), b_end(n, -1.0);
    auto at = [packs](int st, int m) { return static_cast<std::size_t>(st) * packs + m; };
    std::vector<std::size_t> next(static_cast<std::size_t>(stages), 0);
    std::vector<double> free_at(static_cast<std::size_t>(stages), 0.0);
    std::size_t done = 0;
    const std::size_t total = 2 * n;
    while (done < total) {
      for (int st = 0; st < stages; ++st) {
        while (next[st] < order[st].size()) {
          const OrderedOp& op = order[st][next[st]];
          const bool fwd = op.pass == Pass::Forward;
          double ready = free_at[st];
          if (fwd && st > 0) {
            if (f_end[at(st - 1, op.pack)] < 0) break;
            ready = std::max(ready, f_end[at(st - 1, op.pack)]);
          }
          if (!fwd && st + 1 < stages) {
            if (b_end[at(st + 1, op.pack)] < 0) break;
            ready = std::max(ready, b_end[at(st + 1, op.pack)]);
          }
          const Pack& pk = fwd ? rp.forward[op.pack] : rp.backward[op.pack];
          const double end = ready + *pk.time;
          (fwd ? f_end : b_end)[at(st, op.pack)] = end;
          rr.stages[st].ops.push_back(
              make_op(ready, end, op.pack, st, fwd ? OpKind::Forward : OpKind::Backward));
          rr.stages[st].busy += *pk.time;
          free_at[st] = end;
          ++next[st];
          ++done;
        }
      }
    }
    for (auto& st : rr.stages) {
      rr.makespan = std::max(rr.makespan, st.ops.back().end);
      if (!memory) continue;
      double bytes = 0;
      for (const TimedOp& op : st.ops) {
        bytes += op.kind == OpKind::Forward ? 1.0 : 0.0;
        st.memory.push_back({op.kind == OpKind::Forward ? op.start : op.end, bytes});
        if (op.kind == OpKind::Backward) st.memory.back().bytes = bytes -= 1.0;
        st.peak_memory_bytes = std::max(st.peak_memory_bytes, bytes);
      }
    }
    rr.finish = rr.makespan;
    double busy = 0;
    for (auto& st : rr.stages) {
      st.bubble_ratio = 1.0 - st.busy / rr.makespan;
      busy += st.busy;
    }
    s.makespan = std::max(s.makespan, rr.makespan);
    s.bubble_ratio += (1.0 - busy / (stages * rr.makespan)) / replicas;
    for (auto& st : rr.stages)
      s.peak_memory_bytes = std::max(s.peak_memory_bytes, st.peak_memory_bytes);
    s.replicas.push_back(std::move(rr));
  }
  s.iteration_time = s.makespan;
  s.time_unit = "units";
  return pr;
}

}  // namespace slimpack::testing
