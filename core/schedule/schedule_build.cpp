// make_schedule(): atoms, backward-pack uses and per-rank action lists of a plan, from the same
// stage_order() the simulator's DAG is built from (docs/file-formats-schedule.md).
#include <algorithm>
#include <string>

#include "plan/legality.h"
#include "plan/schedule_order.h"
#include "schedule/schedule.h"

namespace slimpack {
namespace {

constexpr double kFp32GradBytes = 4.0;  // gradients are reduced in fp32 (cost_model.cpp)

std::string pack_name(int replica, Pass pass, std::size_t m) {
  return "replica " + std::to_string(replica) + " " +
         (pass == Pass::Forward ? "forward pack F" : "backward pack B") + std::to_string(m + 1);
}

// Refuses what the format cannot express; everything else must pass the legality rules.
Status check_expressible(const Plan& plan) {
  for (std::size_t r = 0; r < plan.replicas.size(); ++r)
    for (Pass pass : {Pass::Forward, Pass::Backward}) {
      const auto& packs =
          pass == Pass::Forward ? plan.replicas[r].forward : plan.replicas[r].backward;
      for (std::size_t m = 0; m < packs.size(); ++m)
        for (const Segment& seg : packs[m].segments)
          if (seg.shards > 1)
            return Error::bad_input(
                "the schedule format cannot express DP-Merge shards: " +
                pack_name(static_cast<int>(r), pass, m) + " computes sequence '" +
                plan.sequences[static_cast<std::size_t>(seg.seq)].id + "' over " +
                std::to_string(seg.shards) + " replicas (solve with --no-dp-merge)");
    }
  if (plan.schedule == ScheduleKind::Interleaved && plan.vchunks > 1)
    return Error::bad_input("the schedule format cannot express interleaved schedules (" +
                            std::to_string(plan.vchunks) +
                            " virtual chunks per stage): use --schedule 1f1b or gpipe");
  const LegalityReport legality = check_legality(plan);
  if (!legality.legal()) return Error::bad_input("illegal plan: " + legality.summary());
  return {};
}

// Cut points of every sequence and the replica that trains it.
Status cut_atoms(const Plan& plan, Schedule& out) {
  const std::size_t n = plan.sequences.size();
  out.atoms.assign(n, {});
  out.sequence_replica.assign(n, -1);
  for (std::size_t r = 0; r < plan.replicas.size(); ++r)
    for (const auto* packs : {&plan.replicas[r].forward, &plan.replicas[r].backward})
      for (const Pack& pack : *packs)
        for (const Segment& seg : pack.segments) {
          const auto i = static_cast<std::size_t>(seg.seq);
          if (out.sequence_replica[i] >= 0 && out.sequence_replica[i] != static_cast<int>(r))
            return Error::bad_input(
                "sequence '" + plan.sequences[i].id + "' is trained by replicas " +
                std::to_string(out.sequence_replica[i]) + " and " + std::to_string(r));
          out.sequence_replica[i] = static_cast<int>(r);
          out.atoms[i].push_back(seg.begin);
          out.atoms[i].push_back(seg.end);
        }
  for (std::size_t i = 0; i < n; ++i) {
    auto& cuts = out.atoms[i];
    cuts.push_back(0);
    cuts.push_back(plan.sequences[i].length);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  }
  return {};
}

std::int32_t atom_at(const std::vector<Tokens>& cuts, Tokens token) {
  return static_cast<std::int32_t>(std::lower_bound(cuts.begin(), cuts.end(), token) -
                                   cuts.begin());
}

// consumes and frees of every backward pack of one replica.
std::vector<BackwardPackUse> backward_uses(const Plan& plan, int replica, const Schedule& s) {
  const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(replica)];
  const std::size_t n = plan.sequences.size();
  // Per sequence and atom: the forward pack and the backward pack holding it.
  std::vector<std::vector<std::int32_t>> fpack(n), bpack(n);
  for (std::size_t i = 0; i < n; ++i)
    if (s.sequence_replica[i] == replica) {
      fpack[i].assign(s.atoms[i].size() - 1, -1);
      bpack[i].assign(s.atoms[i].size() - 1, -1);
    }
  auto mark = [&](const std::vector<Pack>& packs, std::vector<std::vector<std::int32_t>>& owner) {
    for (std::size_t m = 0; m < packs.size(); ++m)
      for (const Segment& seg : packs[m].segments) {
        const auto& cuts = s.atoms[static_cast<std::size_t>(seg.seq)];
        for (auto a = atom_at(cuts, seg.begin); a < atom_at(cuts, seg.end); ++a)
          owner[static_cast<std::size_t>(seg.seq)][static_cast<std::size_t>(a)] =
              static_cast<std::int32_t>(m);
      }
  };
  mark(rp.forward, fpack);
  mark(rp.backward, bpack);

  std::vector<BackwardPackUse> uses(rp.backward.size());
  for (std::size_t b = 0; b < rp.backward.size(); ++b)
    for (const Segment& seg : rp.backward[b].segments) {
      const auto i = static_cast<std::size_t>(seg.seq);
      const auto& cuts = s.atoms[i];
      for (auto a = atom_at(cuts, seg.begin); a < atom_at(cuts, seg.end); ++a) {
        const std::int32_t f = fpack[i][static_cast<std::size_t>(a)];
        auto& runs = uses[b].consumes;
        if (!runs.empty() && runs.back().seq == seg.seq && runs.back().last == a &&
            runs.back().forward_pack == f)
          ++runs.back().last;
        else
          runs.push_back({seg.seq, a, a + 1, f});
      }
    }
  // An atom's keys and values are read by the backward of every later atom of its sequence: it
  // is freed after the last backward pack holding it or a later atom (a suffix maximum).
  for (std::size_t i = 0; i < n; ++i) {
    if (s.sequence_replica[i] != replica) continue;
    std::int32_t later = -1;
    std::vector<std::int32_t> freed_after(bpack[i].size());
    for (std::size_t a = bpack[i].size(); a-- > 0;) {
      later = std::max(later, bpack[i][a]);
      freed_after[a] = later;
    }
    for (std::size_t a = 0; a < freed_after.size(); ++a) {
      const std::int32_t b = freed_after[a];
      if (b < 0) continue;
      auto& runs = uses[static_cast<std::size_t>(b)].frees;
      const auto atom = static_cast<std::int32_t>(a);
      if (!runs.empty() && runs.back().seq == static_cast<SeqIndex>(i) && runs.back().last == atom)
        ++runs.back().last;
      else
        runs.push_back({static_cast<SeqIndex>(i), atom, atom + 1, -1});
    }
  }
  return uses;
}

ScheduleAction compute(ActionOp op, int pack) {
  ScheduleAction a;
  a.op = op;
  a.pack = pack;
  return a;
}

ScheduleAction message(ActionOp op, int pack, int peer, int tag, const Pack& p,
                       const CostModel* cost) {
  ScheduleAction a;
  a.op = op;
  a.pack = pack;
  a.peer = peer;
  a.tag = tag;
  a.tokens = p.tokens();
  a.bytes = cost ? cost->p2p_bytes(static_cast<double>(a.tokens)) : 0.0;
  return a;
}

ScheduleRank rank_actions(const Plan& plan, const CostModel* cost, int replica, int stage,
                          int first_layer) {
  const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(replica)];
  const int p = plan.stages;
  const int mf = static_cast<int>(rp.forward.size());
  const int mb = static_cast<int>(rp.backward.size());
  ScheduleRank r;
  r.rank = replica * p + stage;
  r.replica = replica;
  r.stage = stage;
  r.first_layer = first_layer;
  r.layers = cost ? cost->layers_on_stage(stage) : 0;
  r.recompute = plan.recompute_at(stage);
  auto& acts = r.actions;
  for (const OrderedOp& op :
       stage_order(plan.schedule, p, stage, mf, mb, plan.warmup_extra, plan.vchunks)) {
    const int k = op.pack;
    if (op.pass == Pass::Forward) {
      const Pack& pack = rp.forward[static_cast<std::size_t>(k)];
      if (stage > 0) acts.push_back(message(ActionOp::RecvF, k, r.rank - 1, k, pack, cost));
      acts.push_back(compute(ActionOp::Forward, k));
      if (stage + 1 < p) acts.push_back(message(ActionOp::SendF, k, r.rank + 1, k, pack, cost));
    } else {
      const Pack& pack = rp.backward[static_cast<std::size_t>(k)];
      if (stage + 1 < p)
        acts.push_back(message(ActionOp::RecvB, k, r.rank + 1, mf + k, pack, cost));
      acts.push_back(compute(ActionOp::Backward, k));
      if (stage > 0) acts.push_back(message(ActionOp::SendB, k, r.rank - 1, mf + k, pack, cost));
    }
  }
  if (plan.dp() > 1) {
    ScheduleAction sync;
    sync.op = ActionOp::AllReduce;
    for (int q = 0; q < plan.dp(); ++q) sync.group.push_back(q * p + stage);
    if (cost) sync.bytes = kFp32GradBytes * cost->params_on_stage(stage) / cost->parallel().tp;
    acts.push_back(std::move(sync));
  }
  return r;
}

}  // namespace

CostSetup cost_setup_of(const CostModel& cost) {
  CostSetup setup;
  setup.model = cost.model();
  setup.gpu = cost.gpu();
  setup.par = cost.parallel();
  setup.par.stage_layers.clear();
  for (int s = 0; s < cost.stages(); ++s) setup.par.stage_layers.push_back(cost.layers_on_stage(s));
  setup.options = cost.options();
  setup.coeffs = cost.coeffs();
  return setup;
}

Expected<Schedule> make_schedule(const Plan& plan, const CostModel* cost) {
  if (Status s = check_expressible(plan); !s) return s.error();
  if (cost && (cost->stages() != plan.stages || cost->parallel().dp != plan.dp()))
    return Error::internal(
        "make_schedule: the cost model has p = " + std::to_string(cost->stages()) +
        ", d = " + std::to_string(cost->parallel().dp) +
        " but the plan p = " + std::to_string(plan.stages) + ", d = " + std::to_string(plan.dp()));
  Schedule out;
  out.plan = plan;
  if (cost) {
    out.costs = cost_setup_of(*cost);
    out.stage_layers = out.costs->par.stage_layers;
  }
  if (Status s = cut_atoms(plan, out); !s) return s.error();
  for (int r = 0; r < plan.dp(); ++r) out.uses.push_back(backward_uses(plan, r, out));
  for (int r = 0; r < plan.dp(); ++r) {
    int first_layer = 0;
    for (int s = 0; s < plan.stages; ++s) {
      out.ranks.push_back(rank_actions(plan, cost, r, s, first_layer));
      first_layer += out.ranks.back().layers;
    }
  }
  return out;
}

}  // namespace slimpack
