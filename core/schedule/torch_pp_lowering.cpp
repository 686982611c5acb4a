#include "schedule/torch_pp_lowering.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace slimpack {
namespace {

using Key = std::tuple<int, TorchPPType, int>;  // stage, type, micro-batch
Key key_of(const TorchPPAction& a) {
  return {a.stage, a.type, a.microbatch};
}

TorchPPAction act(int stage, TorchPPType type, int microbatch = -1) {
  TorchPPAction a;
  a.stage = stage;
  a.type = type;
  a.microbatch = microbatch;
  return a;
}

bool is_backward(TorchPPType t) {
  return t == TorchPPType::FullBackward || t == TorchPPType::BackwardInput;
}

// _add_unshard_reshard with max_active_stages = unshard_lookahead = 3 (the runtime's defaults).
std::vector<TorchPPAction> add_unshard_reshard(const std::vector<TorchPPAction>& actions) {
  constexpr std::size_t kActive = 3;
  auto next_stages = [&](std::size_t from) {
    std::vector<int> out;
    for (std::size_t i = from; i < actions.size() && out.size() < kActive; ++i)
      if (std::find(out.begin(), out.end(), actions[i].stage) == out.end())
        out.push_back(actions[i].stage);
    return out;
  };
  std::vector<int> active;  // in the order they were unsharded
  std::vector<TorchPPAction> out;
  for (std::size_t i = 0; i < actions.size(); ++i) {
    const std::vector<int> resident = next_stages(i);
    std::vector<int> evict, fetch;
    for (int s : active)
      if (std::find(resident.begin(), resident.end(), s) == resident.end()) evict.push_back(s);
    for (int s : resident)
      if (std::find(active.begin(), active.end(), s) == active.end()) fetch.push_back(s);
    for (int s : evict) {
      active.erase(std::find(active.begin(), active.end(), s));
      out.push_back(act(s, TorchPPType::Reshard));
    }
    for (int s : fetch) {
      active.push_back(s);
      out.push_back(act(s, TorchPPType::Unshard));
    }
    out.push_back(actions[i]);
  }
  for (int s : active) out.push_back(act(s, TorchPPType::Reshard));
  return out;
}

// _add_reduce_grad: after a stage's last full or weight backward, its reduction and the wait.
std::vector<TorchPPAction> add_reduce_grad(const std::vector<TorchPPAction>& actions,
                                           int microbatches) {
  std::map<int, int> count;
  std::vector<TorchPPAction> out;
  for (const TorchPPAction& a : actions) {
    out.push_back(a);
    if (a.type != TorchPPType::FullBackward && a.type != TorchPPType::BackwardWeight) continue;
    if (++count[a.stage] != microbatches) continue;
    out.push_back(act(a.stage, TorchPPType::ReduceGrad));
    out.push_back(act(a.stage, TorchPPType::WaitReduceGrad));
  }
  return out;
}

// _add_wait_send: a forward send waits right after the local backward of its micro-batch, every
// other send at the end of the row (in the order sent).
std::vector<TorchPPAction> add_wait_send(const std::vector<TorchPPAction>& actions) {
  std::vector<TorchPPAction> out;
  std::vector<Key> pending;
  for (const TorchPPAction& a : actions) {
    out.push_back(a);
    if (a.type == TorchPPType::SendF || a.type == TorchPPType::SendB) pending.push_back(key_of(a));
    if (!is_backward(a.type)) continue;
    const auto it =
        std::find(pending.begin(), pending.end(), Key{a.stage, TorchPPType::SendF, a.microbatch});
    if (it == pending.end()) continue;
    pending.erase(it);
    out.push_back(act(a.stage, TorchPPType::WaitSendF, a.microbatch));
  }
  for (const auto& [stage, type, mb] : pending)
    out.push_back(act(
        stage, type == TorchPPType::SendF ? TorchPPType::WaitSendF : TorchPPType::WaitSendB, mb));
  return out;
}

}  // namespace

Expected<TorchPPRows> lower_torch_pp(const TorchPPRows& compute,
                                     const std::vector<int>& stage_of_rank, int microbatches) {
  const int ranks = static_cast<int>(compute.size());
  const int stages = static_cast<int>(stage_of_rank.size());
  std::vector<int> rank_of(static_cast<std::size_t>(stages), -1);
  for (int r = 0; r < ranks; ++r) rank_of[static_cast<std::size_t>(stage_of_rank[r])] = r;
  auto rank_of_stage = [&](int s) { return rank_of[static_cast<std::size_t>(s)]; };
  // Per rank: UNSHARD / RESHARD, then REDUCE_GRAD, as _prepare_schedule_with_comms does first.
  std::vector<std::vector<TorchPPAction>> lowered;
  for (const auto& row : compute)
    lowered.push_back(add_reduce_grad(add_unshard_reshard(row), microbatches));
  // _add_send_recv: ranks swept in order; an action is placed once what it needs is in its row,
  // its send right after it and the peer's receive at the end of the peer's row at that moment.
  auto has_comms = [&](const TorchPPAction& a) {
    if (a.type == TorchPPType::Forward)
      return a.stage != stages - 1 && rank_of_stage(a.stage + 1) != rank_of_stage(a.stage);
    if (is_backward(a.type))
      return a.stage != 0 && rank_of_stage(a.stage - 1) != rank_of_stage(a.stage);
    return false;
  };
  std::vector<std::set<Key>> prev(static_cast<std::size_t>(ranks));
  auto ready = [&](const TorchPPAction& a, const std::set<Key>& done) {
    if (a.type == TorchPPType::Forward && a.stage != 0)
      return done.count({a.stage, TorchPPType::RecvF, a.microbatch}) > 0 ||
             done.count({a.stage - 1, TorchPPType::Forward, a.microbatch}) > 0;
    if (is_backward(a.type) && a.stage != stages - 1)
      return done.count({a.stage, TorchPPType::RecvB, a.microbatch}) > 0 ||
             done.count({a.stage + 1, TorchPPType::BackwardInput, a.microbatch}) > 0 ||
             done.count({a.stage + 1, TorchPPType::FullBackward, a.microbatch}) > 0;
    return true;
  };
  TorchPPRows out(static_cast<std::size_t>(ranks));
  std::vector<std::size_t> next(static_cast<std::size_t>(ranks), 0);
  for (;;) {
    bool left = false, progress = false;
    for (int r = 0; r < ranks; ++r) {
      const auto ur = static_cast<std::size_t>(r);
      if (next[ur] >= lowered[ur].size()) continue;
      left = true;
      const TorchPPAction& a = lowered[ur][next[ur]];
      if (!ready(a, prev[ur])) continue;
      out[ur].push_back(a);
      prev[ur].insert(key_of(a));
      if (has_comms(a)) {
        const bool fwd = a.type == TorchPPType::Forward;
        const TorchPPAction send =
            act(a.stage, fwd ? TorchPPType::SendF : TorchPPType::SendB, a.microbatch);
        const TorchPPAction recv = act(fwd ? a.stage + 1 : a.stage - 1,
                                       fwd ? TorchPPType::RecvF : TorchPPType::RecvB, a.microbatch);
        out[ur].push_back(send);
        prev[ur].insert(key_of(send));
        const auto peer = static_cast<std::size_t>(rank_of_stage(recv.stage));
        out[peer].push_back(recv);
        prev[peer].insert(key_of(recv));
      }
      ++next[ur];
      progress = true;
    }
    if (!left) break;
    if (!progress)
      return Error::bad_input(
          "the compute-only schedule cannot be lowered: no rank can take its next action (torch: "
          "\"Malformed compute schedule, can't schedule sends/recvs\")");
  }
  for (auto& row : out) row = add_wait_send(row);
  return out;
}

}  // namespace slimpack
