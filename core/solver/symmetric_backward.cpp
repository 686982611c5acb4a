#include "solver/symmetric_backward.h"

#include <algorithm>

namespace slimpack::solver_detail {

namespace {

// Maximal runs [a, c] of forward packs chained by sequences spanning several packs, as run_end[a]
// = c for each run start (and -1 elsewhere).
void add_spans(const ReplicaPlan& rp, std::size_t nseq, std::vector<int>& reach) {
  std::vector<int> first(nseq, -1), last(nseq, -1);
  for (std::size_t f = 0; f < rp.forward.size(); ++f) {
    for (const Segment& s : rp.forward[f].segments) {
      const auto i = static_cast<std::size_t>(s.seq);
      if (first[i] < 0) first[i] = static_cast<int>(f);
      last[i] = static_cast<int>(f);
    }
  }
  for (std::size_t i = 0; i < nseq; ++i)
    if (first[i] >= 0)
      reach[static_cast<std::size_t>(first[i])] =
          std::max(reach[static_cast<std::size_t>(first[i])], last[i]);
}

}  // namespace

int symmetric_backward_order(const Plan& plan, bool global_runs,
                             std::vector<std::vector<int>>& order) {
  const std::size_t nseq = plan.sequences.size();
  int w = 0;
  std::vector<int> global_reach;
  if (global_runs) {
    std::size_t mf = 0;
    for (const auto& rp : plan.replicas) mf = std::max(mf, rp.forward.size());
    global_reach.assign(mf, -1);
    for (const auto& rp : plan.replicas) add_spans(rp, nseq, global_reach);
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
      add_spans(rp, nseq, reach);
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

int make_symmetric_backward(Plan& plan, bool global_runs) {
  std::vector<std::vector<int>> order;
  const int w = symmetric_backward_order(plan, global_runs, order);
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
  return w;
}

}  // namespace slimpack::solver_detail
