#pragma once
// Explicit-time plans for simulator tests: pack m holds one whole sequence "s<m>".
#include <string>

#include "plan/plan.h"

namespace slimpack::test {

inline Plan uniform_plan(int stages, int packs, double tf, double tb,
                         ScheduleKind kind = ScheduleKind::OneFOneB, int warmup_extra = 0,
                         int vchunks = 1, double latency = 0.0) {
  Plan plan;
  plan.stages = stages;
  plan.schedule = kind;
  plan.warmup_extra = warmup_extra;
  plan.vchunks = vchunks;
  plan.p2p_latency = latency;
  ReplicaPlan rp;
  for (int m = 0; m < packs; ++m) {
    plan.sequences.push_back({"s" + std::to_string(m), 8});
    Pack f;
    f.segments.push_back({m, 0, 8});
    f.time = tf;
    Pack b = f;
    b.time = tb;
    rp.forward.push_back(f);
    rp.backward.push_back(b);
  }
  plan.replicas.push_back(rp);
  return plan;
}

inline Pack make_pack(std::initializer_list<Segment> segs, double time) {
  Pack p;
  p.segments = segs;
  p.time = time;
  return p;
}

// Asymmetric plan with Mf = 2, Mb = 3 on 2 stages, w = 1:
//   sequences "long" (4 tokens, sliced [0,2) [2,4)) and "short" (2 tokens);
//   F1 = {long[0:2)} t=1, F2 = {long[2:4), short} t=2;
//   B1 = {long[2:4)} t=2, B2 = {long[0:2)} t=2, B3 = {short} t=1.
inline Plan asymmetric_plan() {
  Plan plan;
  plan.stages = 2;
  plan.warmup_extra = 1;
  plan.slice_size = 2;
  plan.sequences = {{"long", 4}, {"short", 2}};
  ReplicaPlan rp;
  rp.forward.push_back(make_pack({{0, 0, 2}}, 1.0));
  rp.forward.push_back(make_pack({{0, 2, 4}, {1, 0, 2}}, 2.0));
  rp.backward.push_back(make_pack({{0, 2, 4}}, 2.0));
  rp.backward.push_back(make_pack({{0, 0, 2}}, 2.0));
  rp.backward.push_back(make_pack({{1, 0, 2}}, 1.0));
  plan.replicas.push_back(rp);
  return plan;
}

}  // namespace slimpack::test
