#include "solver/pack_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <queue>

namespace slimpack::solver_detail {

TimeLines time_lines(const CostModel& cost) {
  // Evaluate at large arguments so the slopes keep full precision next to the constant.
  constexpr double kTok = 1e6;
  constexpr double kPairs = 1e12;
  TimeLines t;
  t.stage = std::max(0, cost.parallel().pp - 1);
  for (Pass pass : {Pass::Forward, Pass::Backward}) {
    PassLine& line = pass == Pass::Forward ? t.fwd : t.bwd;
    line.c0 = cost.time(pass, t.stage, 0.0, 0.0);
    line.per_token = (cost.time(pass, t.stage, kTok, 0.0) - line.c0) / kTok;
    line.per_pair = (cost.time(pass, t.stage, 0.0, kPairs) - line.c0) / kPairs;
  }
  return t;
}

ReplicaLoad heaviest_replica(const std::vector<std::vector<SeqIndex>>& replicas,
                             const std::vector<Sequence>& seqs, const std::vector<double>& work) {
  ReplicaLoad most;
  for (const auto& list : replicas) {
    ReplicaLoad load;
    for (SeqIndex i : list) {
      load.tokens += seqs[static_cast<std::size_t>(i)].length;
      load.work += work[static_cast<std::size_t>(i)];
    }
    most.tokens = std::max(most.tokens, load.tokens);
    most.work = std::max(most.work, load.work);
  }
  return most;
}

Limits limits_of(const CostModel& cost) {
  Limits lim;
  lim.token_cap = cost.options().token_cap;
  lim.memory = cost.memory_model(cost.max_recompute_layers());
  lim.cost = &cost;
  const int pp = std::max(1, cost.parallel().pp);
  if (lim.memory.capacity_bytes > 0.0 && !lim.memory.static_bytes.empty()) {
    // Stage 0 keeps the most packs in flight under 1F1B (pp of them), so it sets the capacity.
    const double free_bytes = lim.memory.capacity_bytes - lim.memory.static_bytes[0];
    const double per_pack = pp * lim.memory.activation_per_token[0];
    lim.memory_pack_tokens = std::max<Tokens>(1, static_cast<Tokens>(free_bytes / per_pack));
  }
  return lim;
}

int auto_pack_count(Tokens replica_tokens, Tokens capacity, int pp) {
  int m = std::max(1, pp);
  if (capacity > 0 && replica_tokens > 0) {
    const Tokens need = (replica_tokens + capacity - 1) / capacity;
    m = std::max<Tokens>(m, std::min<Tokens>(need, 1 << 20));
  }
  return m;
}

int balanced_pack_count(double work, double c0, int pp, int lower, int upper) {
  int m = lower;
  if (c0 > 0.0 && pp > 1 && work > 0.0)
    m = std::max(lower, static_cast<int>(std::lround(std::sqrt((pp - 1) * work / c0))));
  return std::max(1, std::min(m, std::max(1, upper)));
}

Status check_sequences_fit(const Batch& batch, const Limits& lim, int max_shards,
                           Tokens slice_size) {
  const MemoryModel& mm = lim.memory;
  const double shards = std::max(1, max_shards);
  for (std::size_t i = 0; i < batch.sequences.size(); ++i) {
    const Sequence& seq = batch.sequences[i];
    const Tokens piece = slice_size > 0 ? std::min(seq.length, slice_size) : seq.length;
    const Tokens piece_per_shard = static_cast<Tokens>(std::ceil(piece / shards));
    if (lim.token_cap > 0 && piece_per_shard > lim.token_cap) {
      return Error::infeasible("sequence '" + seq.id + "' (" + std::to_string(seq.length) +
                               " tokens) needs a pack of " + std::to_string(piece_per_shard) +
                               " tokens, over the token cap of " + std::to_string(lim.token_cap));
    }
    if (mm.capacity_bytes <= 0.0) continue;
    for (std::size_t s = 0; s < mm.static_bytes.size(); ++s) {
      // All of a sequence's activations are held between its last forward and its first backward.
      const double need =
          mm.static_bytes[s] + mm.activation_per_token[s] * std::ceil(seq.length / shards);
      if (need > mm.capacity_bytes) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "sequence '%s' (%lld tokens) does not fit stage %zu memory even split over "
                      "%d replica(s): needs %.0f bytes, cap %.0f bytes, shortfall %.0f bytes",
                      seq.id.c_str(), static_cast<long long>(seq.length), s,
                      static_cast<int>(shards), need, mm.capacity_bytes, need - mm.capacity_bytes);
        return Error::infeasible(buf);
      }
    }
  }
  return Status::success();
}

std::vector<std::vector<SeqIndex>> assign_round_robin(std::size_t count, int replicas) {
  std::vector<std::vector<SeqIndex>> out(static_cast<std::size_t>(std::max(1, replicas)));
  for (std::size_t i = 0; i < count; ++i) out[i % out.size()].push_back(static_cast<SeqIndex>(i));
  return out;
}

std::vector<SeqIndex> heaviest_first(const std::vector<double>& work,
                                     const std::vector<SeqIndex>& items) {
  // Sorting (key, index) pairs directly is several times faster than an indirect stable sort
  // on 100k items, and the index tie-break keeps the stable order.
  std::vector<std::pair<double, SeqIndex>> keyed(items.size());
  for (std::size_t k = 0; k < items.size(); ++k)
    keyed[k] = {work[static_cast<std::size_t>(items[k])], items[k]};
  std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second < b.second;
  });
  std::vector<SeqIndex> order(items.size());
  for (std::size_t k = 0; k < keyed.size(); ++k) order[k] = keyed[k].second;
  return order;
}

std::vector<std::vector<SeqIndex>> assign_lpt(const std::vector<double>& work, int replicas) {
  const std::size_t d = static_cast<std::size_t>(std::max(1, replicas));
  if (d == 1) {
    std::vector<SeqIndex> all(work.size());
    std::iota(all.begin(), all.end(), 0);
    return {std::move(all)};
  }
  std::vector<SeqIndex> items(work.size());
  std::iota(items.begin(), items.end(), 0);
  const std::vector<SeqIndex> order = heaviest_first(work, items);
  using Entry = std::pair<double, std::size_t>;  // (load, replica), lightest (then lowest) first
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (std::size_t r = 0; r < d; ++r) heap.push({0.0, r});
  std::vector<std::int32_t> owner(work.size(), 0);
  for (SeqIndex i : order) {
    auto [load, r] = heap.top();
    heap.pop();
    owner[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(r);
    heap.push({load + work[static_cast<std::size_t>(i)], r});
  }
  // Each replica's list in batch order.
  std::vector<std::vector<SeqIndex>> out(d);
  for (std::size_t i = 0; i < owner.size(); ++i)
    out[static_cast<std::size_t>(owner[i])].push_back(static_cast<SeqIndex>(i));
  return out;
}

std::vector<int> greedy_min_max(const std::vector<double>& weight,
                                const std::vector<Tokens>& tokens, int bins, Tokens token_cap) {
  const std::size_t m = static_cast<std::size_t>(std::max(1, bins));
  std::vector<int> bin_of(weight.size(), 0);
  std::vector<double> load(m, 0.0);
  std::vector<Tokens> tok(m, 0);
  using Entry = std::pair<double, std::size_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (std::size_t b = 0; b < m; ++b) heap.push({0.0, b});
  std::vector<Entry> skipped;
  for (std::size_t i = 0; i < weight.size(); ++i) {
    // Lightest bin that keeps the token cap; bins popped on the way are pushed back afterwards.
    std::size_t chosen = m;
    skipped.clear();
    while (!heap.empty()) {
      Entry e = heap.top();
      heap.pop();
      if (token_cap <= 0 || tok[e.second] + tokens[i] <= token_cap) {
        chosen = e.second;
        break;
      }
      skipped.push_back(e);
    }
    if (chosen == m) chosen = skipped.front().second;  // nothing fits: the lightest bin
    for (const Entry& e : skipped)
      if (e.second != chosen) heap.push(e);
    load[chosen] += weight[i];
    tok[chosen] += tokens[i];
    bin_of[i] = static_cast<int>(chosen);
    heap.push({load[chosen], chosen});
  }
  return bin_of;
}

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

int make_symmetric_backward(Plan& plan, bool global_runs) {
  const std::size_t nseq = plan.sequences.size();
  int w = 0;
  std::vector<int> global_reach;
  if (global_runs) {
    std::size_t mf = 0;
    for (const auto& rp : plan.replicas) mf = std::max(mf, rp.forward.size());
    global_reach.assign(mf, -1);
    for (const auto& rp : plan.replicas) add_spans(rp, nseq, global_reach);
  }
  for (auto& rp : plan.replicas) {
    const int mf = static_cast<int>(rp.forward.size());
    std::vector<int> reach;
    if (global_runs) {
      reach.assign(global_reach.begin(), global_reach.begin() + mf);
    } else {
      reach.assign(static_cast<std::size_t>(mf), -1);
      add_spans(rp, nseq, reach);
    }
    rp.backward.clear();
    rp.backward.reserve(static_cast<std::size_t>(mf));
    int a = 0;
    while (a < mf) {
      int c = std::max(a, reach[static_cast<std::size_t>(a)]);
      for (int k = a; k <= c; ++k)
        c = std::max(c, std::min(mf - 1, reach[static_cast<std::size_t>(k)]));
      for (int k = c; k >= a; --k) {
        Pack b;
        b.segments = rp.forward[static_cast<std::size_t>(k)].segments;
        rp.backward.push_back(std::move(b));
      }
      w = std::max(w, c - a);
      a = c + 1;
    }
  }
  if (plan.schedule == ScheduleKind::GPipe) w = 0;  // every forward precedes every backward
  return w;
}

Plan plan_skeleton(const SolveInput& input, const std::string& strategy, Tokens slice_size) {
  Plan plan;
  const ParallelConfig& par = input.cost->parallel();
  plan.stages = std::max(1, par.pp);
  plan.schedule = input.params.schedule;
  plan.vchunks = plan.schedule == ScheduleKind::Interleaved ? std::max(1, input.params.vchunks) : 1;
  plan.slice_size = slice_size;
  plan.strategy = strategy;
  plan.sequences = input.batch.sequences;
  plan.replicas.assign(static_cast<std::size_t>(std::max(1, par.dp)), ReplicaPlan{});
  return plan;
}

Status gate_legality(Plan& plan, const Limits& lim) {
  LegalityOptions opt;
  opt.token_cap = lim.token_cap;
  MemoryModel resolved;
  opt.memory = &lim.memory;
  if (lim.cost) {
    plan.recompute_layers = lim.cost->recompute_layers(plan);
    if (std::all_of(plan.recompute_layers.begin(), plan.recompute_layers.end(),
                    [](int r) { return r == 0; }))
      plan.recompute_layers.clear();
    resolved = lim.cost->memory_model(plan.recompute_layers);
    opt.memory = &resolved;
  }
  LegalityReport rep = check_legality(plan, opt, 4);
  if (rep.legal()) return Status::success();
  const Violation& v = rep.violations.front();
  if (v.rule == Rule::L4 || v.rule == Rule::L5) return Error::infeasible(rep.summary());
  return Error::internal("strategy '" + plan.strategy +
                         "' built an illegal plan: " + rep.summary());
}

Tokens max_pack_tokens(const Plan& plan) {
  Tokens best = 0;
  for (const auto& rp : plan.replicas)
    for (const auto& p : rp.forward) best = std::max(best, p.tokens());
  return best;
}

}  // namespace slimpack::solver_detail

namespace slimpack::solver_detail {

double estimate_pack_time(const Pack& pack, const PassLine& line) {
  double t = line.c0;
  for (const Segment& s : pack.segments) {
    const double sh = std::max(1, s.shards);
    t += line.work(static_cast<double>(s.tokens()) / sh, pairs_of(s.begin, s.end) / sh);
  }
  return t;
}

void fill_objective(const Plan& plan, const TimeLines& lines, SolveStats& stats) {
  double objective = 0.0;
  double bound = 0.0;
  for (const auto& rp : plan.replicas) {
    double zf = 0.0, zb = 0.0, sum_f = 0.0, sum_b = 0.0, seg_f = 0.0;
    for (const Pack& p : rp.forward) {
      const double t = estimate_pack_time(p, lines.fwd);
      zf = std::max(zf, t);
      sum_f += t - lines.fwd.c0;
      for (const Segment& s : p.segments)
        seg_f = std::max(seg_f, lines.fwd.work(static_cast<double>(s.tokens()) / s.shards,
                                               pairs_of(s.begin, s.end) / s.shards));
    }
    for (const Pack& p : rp.backward) {
      const double t = estimate_pack_time(p, lines.bwd);
      zb = std::max(zb, t);
      sum_b += t - lines.bwd.c0;
      // A backward segment holds at least one slice; its smallest indivisible piece is unknown
      // here, so the bound uses the average only.
    }
    const double mf = std::max<std::size_t>(1, rp.forward.size());
    const double mb = std::max<std::size_t>(1, rp.backward.size());
    objective = std::max(objective, zf + zb);
    bound = std::max(bound, std::max(sum_f / mf, seg_f) + lines.fwd.c0 + sum_b / mb + lines.bwd.c0);
  }
  stats.objective = objective;
  stats.bound = std::min(bound, objective);
  stats.gap = objective > 0.0 ? (objective - stats.bound) / objective : 0.0;
}

std::string describe_counts(const Plan& plan) {
  std::size_t mf_min = SIZE_MAX, mf_max = 0, mb_min = SIZE_MAX, mb_max = 0;
  for (const auto& rp : plan.replicas) {
    mf_min = std::min(mf_min, rp.forward.size());
    mf_max = std::max(mf_max, rp.forward.size());
    mb_min = std::min(mb_min, rp.backward.size());
    mb_max = std::max(mb_max, rp.backward.size());
  }
  auto range = [](std::size_t a, std::size_t b) {
    return a == b ? std::to_string(a) : std::to_string(a) + ".." + std::to_string(b);
  };
  return "Mf=" + range(mf_min, mf_max) + " Mb=" + range(mb_min, mb_max) +
         " w=" + std::to_string(plan.warmup_extra);
}

}  // namespace slimpack::solver_detail
