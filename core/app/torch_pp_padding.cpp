// torch_pp_padding: every micro-batch padded to the largest pack's tokens, and what it costs.
#include <algorithm>
#include <string>

#include "app/torch_pp_export.h"
#include "sim/simulator.h"

namespace slimpack {
namespace {

// The plan with each pack's padding as one more sequence of its own (tokens [0, pad): its own
// causal attention from position 0, as the runtime runs the padding rows), in the forward pack
// and in the backward pack that runs its backward.
Plan padded_plan(const Plan& plan, const TorchPPLayout& layout, Tokens pack_tokens) {
  Plan out = plan;
  for (std::size_t r = 0; r < out.replicas.size(); ++r) {
    ReplicaPlan& rep = out.replicas[r];
    for (std::size_t k = 0; k < rep.forward.size(); ++k) {
      const Tokens pad = pack_tokens - rep.forward[k].tokens();
      if (pad <= 0) continue;
      Sequence s;
      s.id = "pad.r" + std::to_string(r) + ".m" + std::to_string(k);
      s.length = pad;
      const auto seq = static_cast<SeqIndex>(out.sequences.size());
      out.sequences.push_back(std::move(s));
      Segment seg;
      seg.seq = seq;
      seg.begin = 0;
      seg.end = pad;
      rep.forward[k].segments.push_back(seg);
      const auto b =
          std::find(layout.backward_of.begin(), layout.backward_of.end(), static_cast<int>(k)) -
          layout.backward_of.begin();
      rep.backward[static_cast<std::size_t>(b)].segments.push_back(seg);
    }
  }
  return out;
}

Tokens largest_pack(const Plan& plan) {
  Tokens most = 0;
  for (const ReplicaPlan& rep : plan.replicas)
    for (const Pack& f : rep.forward) most = std::max(most, f.tokens());
  return most;
}

}  // namespace

Expected<Plan> torch_pp_padded_plan(const Plan& plan) {
  auto layout = torch_pp_layout(plan);
  if (!layout) return layout.error();
  return padded_plan(plan, *layout, largest_pack(plan));
}

TorchPPPadding torch_pp_padding(const Plan& plan, const TorchPPLayout& layout,
                                const CostModel* cost) {
  TorchPPPadding p;
  for (const ReplicaPlan& rep : plan.replicas) {
    std::vector<Tokens> real;
    for (const Pack& f : rep.forward) {
      real.push_back(f.tokens());
      p.tokens += f.tokens();
      p.pack_tokens = std::max(p.pack_tokens, f.tokens());
    }
    p.pack_real_tokens.push_back(std::move(real));
  }
  p.padded_tokens = static_cast<Tokens>(layout.replicas) * layout.microbatches * p.pack_tokens;
  p.pad_tokens = p.padded_tokens - p.tokens;
  p.fraction = p.padded_tokens > 0
                   ? static_cast<double>(p.pad_tokens) / static_cast<double>(p.padded_tokens)
                   : 0.0;
  if (plan.has_explicit_times()) {
    p.not_priced = "the plan's packs carry explicit times, which padding does not change";
    return p;
  }
  if (cost == nullptr) {
    p.not_priced = "no cost model prices the padding";
    return p;
  }
  SimOptions options;
  options.memory_timeline = false;
  options.keep_ops = false;
  options.critical_path = false;
  auto base = simulate(plan, cost, options);
  if (!base) {
    p.not_priced = "the plan does not simulate: " + base.error().message;
    return p;
  }
  p.makespan = base->makespan;
  p.padded_makespan = base->makespan;
  if (p.pad_tokens > 0) {
    auto padded = simulate(padded_plan(plan, layout, p.pack_tokens), cost, options);
    if (!padded) {
      p.not_priced = "the padded plan does not simulate: " + padded.error().message;
      return p;
    }
    p.padded_makespan = padded->makespan;
  }
  p.priced = true;
  return p;
}

}  // namespace slimpack
