// replay_schedule(): runs the ranks' action lists as a runtime would, with the cost model's
// durations, knowing nothing of stage orders or DAG edges. Its times must equal the simulator's
// (tests/core/schedule): that is the check that the actions say what the simulator timed.
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "schedule/schedule.h"

namespace slimpack {
namespace {

// A pack's duration on a stage, as the simulator prices it (sim/dag_build.cpp pack_durations:
// explicit stage_times, then time, then the model with the short-query-weighted pairs).
double compute_time(const Plan& plan, const CostModel* cost, Pass pass, const Pack& pack,
                    int stage) {
  if (!pack.stage_times.empty()) return pack.stage_times[static_cast<std::size_t>(stage)];
  if (pack.time) return *pack.time;
  return cost->time(pass, stage, static_cast<double>(pack.tokens()), cost->effective_pairs(pack),
                    plan.recompute_at(stage));
}

struct RankState {
  std::size_t next = 0;              // index of the next action
  double compute_free = 0.0;         // end of the last compute action
  double ready = 0.0;                // arrival of the messages received for the next compute action
  double send_free[2] = {0.0, 0.0};  // per direction: end of the last send
  double last_backward_end = 0.0;
  double finish = 0.0;
};

}  // namespace

Expected<Replay> replay_schedule(const Schedule& schedule, const CostModel* cost) {
  const Plan& plan = schedule.plan;
  if (cost == nullptr && !plan.has_explicit_times())
    return Error::bad_input(
        "replay: the schedule has packs without explicit times and no cost model");
  const bool priced_sync = cost != nullptr && plan.dp() > 1 && cost->options().include_dp_sync;
  std::vector<RankState> state(schedule.ranks.size());
  std::map<std::pair<int, int>, double> arrivals;  // (sender, tag) -> arrival time
  std::vector<std::vector<ReplayedOp>> per_rank(schedule.ranks.size());

  // A member has reached the collective when it waits at it or already ran it (it is the last
  // action of a rank, so "ran it" is "finished").
  auto reached_sync = [&](int rank) {
    const auto& acts = schedule.ranks[static_cast<std::size_t>(rank)].actions;
    const std::size_t i = state[static_cast<std::size_t>(rank)].next;
    return i >= acts.size() || acts[i].op == ActionOp::AllReduce;
  };

  // Advances one rank as far as it can go; true when it ran at least one action.
  auto advance = [&](std::size_t r) {
    const ScheduleRank& rank = schedule.ranks[r];
    const ReplicaPlan& rp = plan.replicas[static_cast<std::size_t>(rank.replica)];
    RankState& st = state[r];
    bool moved = false;
    while (st.next < rank.actions.size()) {
      const ScheduleAction& a = rank.actions[st.next];
      ReplayedOp op{rank.rank, a, 0.0, 0.0};
      switch (a.op) {
        case ActionOp::Forward:
        case ActionOp::Backward: {
          const bool fwd = a.op == ActionOp::Forward;
          const Pack& pack = (fwd ? rp.forward : rp.backward)[static_cast<std::size_t>(a.pack)];
          op.start = std::max(st.compute_free, st.ready);
          op.end = op.start +
                   compute_time(plan, cost, fwd ? Pass::Forward : Pass::Backward, pack, rank.stage);
          st.compute_free = op.end;
          st.ready = 0.0;
          if (!fwd) st.last_backward_end = op.end;
          st.finish = std::max(st.finish, op.end);
          break;
        }
        case ActionOp::SendF:
        case ActionOp::SendB: {
          double& link = st.send_free[a.op == ActionOp::SendF ? 0 : 1];
          op.start = std::max(st.compute_free, link);
          op.end =
              op.start + (cost ? cost->p2p_time(static_cast<double>(a.tokens)) : plan.p2p_latency);
          link = op.end;
          arrivals[{rank.rank, a.tag}] = op.end;
          break;
        }
        case ActionOp::RecvF:
        case ActionOp::RecvB: {
          auto it = arrivals.find({a.peer, a.tag});
          if (it == arrivals.end()) return moved;  // the message is not sent yet
          st.ready = std::max(st.ready, it->second);
          ++st.next;
          moved = true;
          continue;  // a receive is not an op of its own: it delays the next compute action
        }
        case ActionOp::AllReduce: {
          if (!priced_sync) break;  // not modelled: zero time, no barrier
          for (int member : a.group)
            if (!reached_sync(member)) return moved;
          double start = 0.0;
          for (int member : a.group)
            start = std::max(start, state[static_cast<std::size_t>(member)].last_backward_end);
          op.start = start;
          op.end = start + cost->dp_sync_time(rank.stage);
          st.finish = std::max(st.finish, op.end);
          break;
        }
      }
      per_rank[r].push_back(op);
      ++st.next;
      moved = true;
    }
    return moved;
  };

  for (;;) {
    bool moved = false, done = true;
    for (std::size_t r = 0; r < state.size(); ++r) {
      moved = advance(r) || moved;
      done = done && state[r].next == schedule.ranks[r].actions.size();
    }
    if (done) break;
    if (!moved) {
      std::string blocked;
      for (std::size_t r = 0; r < state.size() && blocked.size() < 200; ++r) {
        const auto& acts = schedule.ranks[r].actions;
        if (state[r].next >= acts.size()) continue;
        const ScheduleAction& a = acts[state[r].next];
        blocked += (blocked.empty() ? "" : ", ") + std::string("rank ") +
                   std::to_string(schedule.ranks[r].rank) + " at " + action_op_name(a.op) +
                   (a.pack >= 0 ? " " + std::to_string(a.pack) : std::string());
      }
      return Error::internal("replay: the actions can never all run (deadlock): " + blocked);
    }
  }
  Replay out;
  for (std::size_t r = 0; r < state.size(); ++r) {
    out.iteration_time = std::max(out.iteration_time, state[r].finish);
    for (ReplayedOp& op : per_rank[r]) out.ops.push_back(std::move(op));
  }
  return out;
}

}  // namespace slimpack
