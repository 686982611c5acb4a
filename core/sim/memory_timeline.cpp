// Memory timeline per stage with the accounting of peak_memory_per_stage() (see the comment at the
// top of plan/legality_memory.cpp), at simulated times: a forward op allocates its activations at
// its start; a backward op sets the dK/dV accumulators of its split sequences at its start (peak
// sampled there) and frees its activations at its end. Ops of a stage run in stream order, so the
// sequence of states, and hence the peak, is the same as the checker's.
#include <algorithm>

#include "sim/dag.h"

namespace slimpack::sim_detail {
namespace {

double at_or_zero(const std::vector<double>& v, std::size_t i) {
  return i < v.size() ? v[i] : 0.0;
}

// For each backward pack, the lowest begin of every sequence whose backward is split across more
// than one segment on this replica (only those keep an accumulator between ops). Flat CSR lists.
struct PrefixLists {
  std::vector<std::int32_t> begin;  // size packs + 1
  std::vector<std::pair<SeqIndex, Tokens>> items;
};

PrefixLists split_prefixes(const Plan& plan, const ReplicaPlan& rp) {
  std::vector<int> segments(plan.sequences.size(), 0);
  for (const Pack& pack : rp.backward)
    for (const Segment& seg : pack.segments)
      if (seg.seq >= 0 && static_cast<std::size_t>(seg.seq) < segments.size())
        ++segments[static_cast<std::size_t>(seg.seq)];
  PrefixLists out;
  out.begin.push_back(0);
  for (const Pack& pack : rp.backward) {
    const auto first = out.items.size();
    for (const Segment& seg : pack.segments) {
      if (seg.seq < 0 || static_cast<std::size_t>(seg.seq) >= segments.size() ||
          segments[static_cast<std::size_t>(seg.seq)] < 2)
        continue;
      auto it = std::find_if(out.items.begin() + static_cast<std::ptrdiff_t>(first),
                             out.items.end(), [&](const auto& e) { return e.first == seg.seq; });
      if (it == out.items.end())
        out.items.emplace_back(seg.seq, seg.begin);
      else
        it->second = std::min(it->second, seg.begin);
    }
    out.begin.push_back(static_cast<std::int32_t>(out.items.size()));
  }
  return out;
}

}  // namespace

void memory_timeline(const Plan& plan, const ReplicaDag& dag, const Schedule& sched,
                     const MemoryModel& memory, bool keep_points, ReplicaResult& out) {
  const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(dag.replica)];
  std::vector<double> fwd_tokens, bwd_tokens;
  fwd_tokens.reserve(rp.forward.size());
  bwd_tokens.reserve(rp.backward.size());
  for (const Pack& p : rp.forward) fwd_tokens.push_back(static_cast<double>(p.tokens()));
  for (const Pack& p : rp.backward) bwd_tokens.push_back(static_cast<double>(p.tokens()));
  const PrefixLists prefixes = split_prefixes(plan, rp);
  const int chunks = dag.vchunks;
  std::vector<double> held(plan.sequences.size() * static_cast<std::size_t>(chunks));

  for (int s = 0; s < dag.stages; ++s) {
    const auto si = static_cast<std::size_t>(s);
    StageResult& st = out.stages[si];
    const double base = at_or_zero(memory.static_bytes, si);
    const double act = at_or_zero(memory.activation_per_token, si) / chunks;
    const double dkdv = at_or_zero(memory.dkdv_per_context_token, si) / chunks;
    const double working = at_or_zero(memory.backward_working_per_token, si) / chunks;
    std::fill(held.begin(), held.end(), 0.0);
    double activations = 0.0, accumulators = 0.0, peak = 0.0;
    const auto first = static_cast<std::size_t>(dag.stage_ops_begin[si]);
    const auto last = static_cast<std::size_t>(dag.stage_ops_begin[si + 1]);
    st.memory.clear();
    auto point = [&](double time) {
      if (keep_points) st.memory.push_back({time, base + activations + accumulators});
    };
    if (keep_points) {
      st.memory.reserve(2 * (last - first) + 1);
      prefault_for_write(st.memory.data(), st.memory.capacity() * sizeof(MemoryPoint));
    }
    point(0.0);
    for (std::size_t i = first; i < last; ++i) {
      const std::int32_t v = dag.stage_ops[i];
      const DagNode& node = dag.nodes[static_cast<std::size_t>(v)];
      const double start = sched.start(static_cast<std::size_t>(v));
      const auto pi = static_cast<std::size_t>(node.pack);
      if (node.kind == OpKind::Forward) {
        activations += fwd_tokens[pi] * act;
        peak = std::max(peak, activations + accumulators);
        point(start);
        continue;
      }
      for (auto k = prefixes.begin[pi]; k < prefixes.begin[pi + 1]; ++k) {
        const auto& [seq, begin] = prefixes.items[static_cast<std::size_t>(k)];
        double& h = held[static_cast<std::size_t>(seq) * static_cast<std::size_t>(chunks) +
                         static_cast<std::size_t>(node.chunk)];
        const double now = dkdv * static_cast<double>(begin);
        accumulators += now - h;
        h = now;
      }
      peak = std::max(peak, activations + accumulators + bwd_tokens[pi] * working);
      point(start);
      activations -= bwd_tokens[pi] * act;
      point(start + sched.duration(static_cast<std::size_t>(v)));
    }
    st.peak_memory_bytes = base + peak;
  }
}

}  // namespace slimpack::sim_detail
