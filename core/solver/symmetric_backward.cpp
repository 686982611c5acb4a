#include "solver/symmetric_backward.h"

#include <algorithm>

namespace slimpack::solver_detail {

namespace {

// Buffers of add_spans(), reused across replicas: first/last pack per sequence (-1 = none) and
// the sequences set, so that each call resets what it touched instead of all sequences.
struct SpanScratch {
  std::vector<int> first, last;
  std::vector<std::size_t> touched;
};

// Maximal runs [a, c] of forward packs chained by sequences spanning several packs, as run_end[a]
// = c for each run start (and -1 elsewhere).
void add_spans(const ReplicaPlan& rp, std::size_t nseq, std::vector<int>& reach, SpanScratch& sc) {
  if (sc.first.size() != nseq) {
    sc.first.assign(nseq, -1);
    sc.last.assign(nseq, -1);
  }
  sc.touched.clear();
  for (std::size_t f = 0; f < rp.forward.size(); ++f) {
    for (const Segment& s : rp.forward[f].segments) {
      const auto i = static_cast<std::size_t>(s.seq);
      if (sc.first[i] < 0) {
        sc.first[i] = static_cast<int>(f);
        sc.touched.push_back(i);
      }
      sc.last[i] = static_cast<int>(f);
    }
  }
  // reach is a running max: the order of the sequences does not matter.
  for (std::size_t i : sc.touched) {
    const auto a = static_cast<std::size_t>(sc.first[i]);
    reach[a] = std::max(reach[a], sc.last[i]);
    sc.first[i] = sc.last[i] = -1;
  }
}

}  // namespace

int symmetric_backward_order(const Plan& plan, bool global_runs,
                             std::vector<std::vector<int>>& order) {
  const std::size_t nseq = plan.sequences.size();
  int w = 0;
  SpanScratch scratch;
  std::vector<int> global_reach;
  if (global_runs) {
    std::size_t mf = 0;
    for (const auto& rp : plan.replicas) mf = std::max(mf, rp.forward.size());
    global_reach.assign(mf, -1);
    for (const auto& rp : plan.replicas) add_spans(rp, nseq, global_reach, scratch);
  }
  order.resize(plan.replicas.size());
  std::vector<int> reach;
  for (std::size_t r = 0; r < plan.replicas.size(); ++r) {
    const ReplicaPlan& rp = plan.replicas[r];
    const int mf = static_cast<int>(rp.forward.size());
    if (global_runs) {
      reach.assign(global_reach.begin(), global_reach.begin() + mf);
    } else {
      reach.assign(static_cast<std::size_t>(mf), -1);
      add_spans(rp, nseq, reach, scratch);
    }
    std::vector<int>& out = order[r];
    out.clear();
    out.reserve(static_cast<std::size_t>(mf));
    int a = 0;
    while (a < mf) {
      int c = std::max(a, reach[static_cast<std::size_t>(a)]);
      for (int k = a; k <= c; ++k)
        c = std::max(c, std::min(mf - 1, reach[static_cast<std::size_t>(k)]));
      for (int k = c; k >= a; --k) out.push_back(k);
      w = std::max(w, c - a);
      a = c + 1;
    }
  }
  if (plan.schedule == ScheduleKind::GPipe) w = 0;  // every forward precedes every backward
  return w;
}

void apply_symmetric_order(Plan& plan, const std::vector<std::vector<int>>& order) {
  for (std::size_t r = 0; r < plan.replicas.size(); ++r) {
    ReplicaPlan& rp = plan.replicas[r];
    rp.backward.clear();
    rp.backward.reserve(order[r].size());
    for (int k : order[r]) {
      Pack b;
      b.segments = rp.forward[static_cast<std::size_t>(k)].segments;
      rp.backward.push_back(std::move(b));
    }
  }
}

int make_symmetric_backward(Plan& plan, bool global_runs) {
  std::vector<std::vector<int>> order;
  const int w = symmetric_backward_order(plan, global_runs, order);
  apply_symmetric_order(plan, order);
  return w;
}

}  // namespace slimpack::solver_detail
