// torch_pp_layout: whether torch's pipeline runtime can run a plan, and its compute_only rows.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "app/torch_pp_export.h"
#include "plan/schedule_order.h"

namespace slimpack {
namespace {

// "2", "2 and 3", "2, 3 and 5", or a run "4-6".
std::string pack_list(std::vector<int> ks) {
  std::sort(ks.begin(), ks.end());
  ks.erase(std::unique(ks.begin(), ks.end()), ks.end());
  if (ks.size() > 2 && ks.back() - ks.front() == static_cast<int>(ks.size()) - 1)
    return std::to_string(ks.front()) + "-" + std::to_string(ks.back());
  std::string out;
  for (std::size_t i = 0; i < ks.size(); ++i)
    out += (i == 0 ? "" : i + 1 == ks.size() ? " and " : ", ") + std::to_string(ks[i]);
  return out;
}

Error refuse(const std::string& reason, const std::string& nearest = kTorchPPNearest) {
  return Error::bad_input("torch's pipeline runtime cannot run this plan: " + reason + "; " +
                          nearest);
}

using SegmentKey = std::tuple<SeqIndex, Tokens, Tokens>;

std::vector<SegmentKey> pack_key(const Pack& p) {
  std::vector<SegmentKey> out;
  for (const Segment& s : p.segments) out.emplace_back(s.seq, s.begin, s.end);
  std::sort(out.begin(), out.end());
  return out;
}

// The forward packs holding any token of `seg`.
std::set<int> forward_packs_of(const ReplicaPlan& rep, const Segment& seg) {
  std::set<int> out;
  for (std::size_t k = 0; k < rep.forward.size(); ++k)
    for (const Segment& f : rep.forward[k].segments)
      if (f.seq == seg.seq && f.begin < seg.end && seg.begin < f.end)
        out.insert(static_cast<int>(k));
  return out;
}

// Per replica: the micro-batch of each backward pack, or the first reason there is none.
Expected<std::vector<int>> backward_pairing(const Plan& plan, const ReplicaPlan& rep,
                                            const std::string& where) {
  const auto id = [&](SeqIndex s) { return plan.sequences[static_cast<std::size_t>(s)].id; };
  const int mf = static_cast<int>(rep.forward.size());
  const int mb = static_cast<int>(rep.backward.size());
  if (mf != mb)
    return refuse(where + std::to_string(mf) + " forward and " + std::to_string(mb) +
                  " backward packs (torch runs one backward per micro-batch)");
  std::vector<std::set<int>> consumed(static_cast<std::size_t>(mb));
  for (int k = 0; k < mb; ++k) {
    auto& c = consumed[static_cast<std::size_t>(k)];
    for (const Segment& s : rep.backward[static_cast<std::size_t>(k)].segments)
      for (int j : forward_packs_of(rep, s)) c.insert(j);
    if (c.size() > 1)
      return refuse(where + "backward pack " + std::to_string(k) + " regroups forward packs " +
                    pack_list({c.begin(), c.end()}));
  }
  std::map<SeqIndex, std::vector<int>> forward_of_seq;
  for (int k = 0; k < mf; ++k)
    for (const Segment& s : rep.forward[static_cast<std::size_t>(k)].segments)
      forward_of_seq[s.seq].push_back(k);
  for (const auto& [seq, ks] : forward_of_seq) {
    if (std::set<int>(ks.begin(), ks.end()).size() > 1)
      return refuse(where + "sequence " + id(seq) + " is sliced across packs " + pack_list(ks));
    if (ks.size() > 1)
      return refuse(where + "sequence " + id(seq) + " is cut into " + std::to_string(ks.size()) +
                    " segments in forward pack " + std::to_string(ks.front()));
  }
  std::vector<int> pairing(static_cast<std::size_t>(mb), -1);
  std::vector<int> taken(static_cast<std::size_t>(mf), -1);
  for (int k = 0; k < mb; ++k) {
    const Pack& bp = rep.backward[static_cast<std::size_t>(k)];
    const auto& c = consumed[static_cast<std::size_t>(k)];
    int j = c.empty() ? -1 : *c.begin();
    if (j < 0)  // an empty backward pack: the backward of the first empty forward pack left
      for (int f = 0; f < mf && j < 0; ++f)
        if (rep.forward[static_cast<std::size_t>(f)].segments.empty() &&
            taken[static_cast<std::size_t>(f)] < 0)
          j = f;
    if (j < 0 || pack_key(bp) != pack_key(rep.forward[static_cast<std::size_t>(j)])) {
      for (const Segment& s : bp.segments) {
        std::vector<int> holders;
        for (int o = 0; o < mb; ++o)
          for (const Segment& t : rep.backward[static_cast<std::size_t>(o)].segments)
            if (t.seq == s.seq) holders.push_back(o);
        if (std::set<int>(holders.begin(), holders.end()).size() > 1)
          return refuse(where + "sequence " + id(s.seq) + " is sliced across backward packs " +
                        pack_list(holders));
      }
      return refuse(where + "backward pack " + std::to_string(k) +
                    " is not the whole backward of forward pack " + std::to_string(j));
    }
    if (taken[static_cast<std::size_t>(j)] >= 0)
      return refuse(where + "backward packs " + std::to_string(taken[static_cast<std::size_t>(j)]) +
                    " and " + std::to_string(k) + " both run the backward of forward pack " +
                    std::to_string(j));
    taken[static_cast<std::size_t>(j)] = k;
    pairing[static_cast<std::size_t>(k)] = j;
  }
  return pairing;
}

std::string count_list(const std::set<std::size_t>& counts) {
  std::vector<int> v;
  for (std::size_t c : counts) v.push_back(static_cast<int>(c));
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i)
    out += (i == 0 ? "" : i + 1 == v.size() ? " and " : ", ") + std::to_string(v[i]);
  return out;
}

}  // namespace

Expected<TorchPPLayout> torch_pp_layout(const Plan& plan) {
  if (plan.schedule != ScheduleKind::OneFOneB && plan.schedule != ScheduleKind::GPipe)
    return refuse(std::string("schedule \"") + schedule_name(plan.schedule) +
                      "\" (one stage per rank: the 1f1b and gpipe orders export)",
                  "solve it with --schedule 1f1b");
  if (plan.replicas.empty()) return refuse("the plan has no replica");
  for (const ReplicaPlan& rep : plan.replicas)
    for (const auto* packs : {&rep.forward, &rep.backward})
      for (const Pack& p : *packs)
        for (const Segment& s : p.segments)
          if (s.shards > 1)
            return refuse("sequence " + plan.sequences[static_cast<std::size_t>(s.seq)].id +
                              " is computed by " + std::to_string(s.shards) +
                              " replicas together (DP-Merge)",
                          "solve it with --no-dp-merge, or --strategy balanced or --strategy "
                          "fixed");
  std::set<std::size_t> counts;
  for (const ReplicaPlan& rep : plan.replicas) counts.insert(rep.forward.size());
  if (counts.size() > 1)
    return refuse("replicas have " + count_list(counts) +
                  " packs (one CSV has one micro-batch count)");
  TorchPPLayout out;
  out.stages = plan.stages;
  out.replicas = plan.dp();
  out.microbatches = static_cast<int>(*counts.begin());
  for (std::size_t r = 0; r < plan.replicas.size(); ++r) {
    const std::string where = plan.dp() > 1 ? "replica " + std::to_string(r) + ": " : "";
    auto pairing = backward_pairing(plan, plan.replicas[r], where);
    if (!pairing) return pairing.error();
    if (r == 0) {
      out.backward_of = std::move(*pairing);
    } else if (*pairing != out.backward_of) {
      return refuse("replicas 0 and " + std::to_string(r) +
                    " pair backward and forward packs differently (one CSV serves every "
                    "replica)");
    }
  }
  if (out.microbatches == 0) return refuse("the plan has no pack");
  // Every replica has the same pack counts, so the same order per stage.
  for (int s = 0; s < plan.stages; ++s) {
    std::vector<TorchPPAction> row;
    for (const OrderedOp& op : stage_order(plan.schedule, plan.stages, s, out.microbatches,
                                           out.microbatches, plan.warmup_extra, 1)) {
      TorchPPAction a;
      a.stage = s;
      a.type = op.pass == Pass::Forward ? TorchPPType::Forward : TorchPPType::FullBackward;
      a.microbatch =
          op.pass == Pass::Forward ? op.pack : out.backward_of[static_cast<std::size_t>(op.pack)];
      row.push_back(a);
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace slimpack
