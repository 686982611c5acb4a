#pragma once
// Test generator of a run of PyTorch's pipeline runtime: one Kineto-like trace per rank, as
// `_PipelineScheduleRuntime` records it (every action of its lowered schedule in a
// record_function range "PP:<action>", category user_annotation, on the rank's CPU thread;
// distributedInfo.rank). Compute actions last the simulated time of the plan's unit (forward k:
// forward pack k; backward of micro-batch j: the backward pack that runs it), the other actions
// 1 us each after the previous one; each compute range is repeated on GPU stream 7 as
// gpu_user_annotation, as Kineto does. With `split_backward` a backward is an I and a W range,
// half the time each. Header-only.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "schedule/torch_pp_actions.h"
#include "sim/sim_result.h"

namespace slimpack::testing {

inline std::string torch_pp_us(double us) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", us);
  return buf;
}

// The simulated op of `kind` and `pack` on (replica, stage), or null.
inline const TimedOp* torch_pp_sim_op(const SimResult& sim, int replica, int stage, OpKind kind,
                                      int pack) {
  for (const TimedOp& op :
       sim.replicas[static_cast<std::size_t>(replica)].stages[static_cast<std::size_t>(stage)].ops)
    if (op.kind == kind && op.pack == pack) return &op;
  return nullptr;
}

// `row`: the rank's lowered actions; `backward_of`: the micro-batch of each backward pack.
// `extra`: events appended as they are (JSON objects).
inline std::string torch_pp_rank_trace(const SimResult& sim, const std::vector<int>& backward_of,
                                       const std::vector<TorchPPAction>& row, int replica, int rank,
                                       int world, bool split_backward = false,
                                       const std::vector<std::string>& extra = {}) {
  const std::string pid = std::to_string(100 + rank);
  std::vector<std::string> events = {R"({"ph": "M", "name": "process_name", "pid": )" + pid +
                                     R"(, "args": {"name": "python3"}})"};
  auto range = [&](const std::string& name, const char* cat, const std::string& p,
                   const std::string& t, double ts_us, double dur_us) {
    events.push_back("{\"ph\": \"X\", \"cat\": \"" + std::string(cat) + "\", \"name\": \"" + name +
                     "\", \"pid\": " + p + ", \"tid\": " + t + ", \"ts\": " + torch_pp_us(ts_us) +
                     ", \"dur\": " + torch_pp_us(dur_us) + "}");
  };
  double cursor = 0.0;
  for (const TorchPPAction& a : row) {
    const bool forward = a.type == TorchPPType::Forward;
    const bool backward = a.type == TorchPPType::FullBackward;
    if (!forward && !backward) {
      range("PP:" + torch_pp_action_text(a), "user_annotation", pid, pid, cursor, 1.0);
      cursor += 1.0;
      continue;
    }
    int pack = a.microbatch;
    if (backward)
      for (std::size_t k = 0; k < backward_of.size(); ++k)
        if (backward_of[k] == a.microbatch) pack = static_cast<int>(k);
    const TimedOp* op =
        torch_pp_sim_op(sim, replica, a.stage, forward ? OpKind::Forward : OpKind::Backward, pack);
    if (op == nullptr) continue;
    const double start = op->start * 1e6, dur = op->duration() * 1e6;
    const std::string mb = std::to_string(a.microbatch), s = std::to_string(a.stage);
    if (backward && split_backward) {
      range("PP:" + s + "I" + mb, "user_annotation", pid, pid, start, dur / 2);
      range("PP:" + s + "W" + mb, "user_annotation", pid, pid, start + dur / 2, dur / 2);
    } else {
      range("PP:" + torch_pp_action_text(a), "user_annotation", pid, pid, start, dur);
    }
    range("PP:" + torch_pp_action_text(a), "gpu_user_annotation", "0", "7", start + 1.0, dur - 1.0);
    cursor = start + dur;
  }
  for (const std::string& e : extra) events.push_back(e);
  std::string body;
  for (std::size_t i = 0; i < events.size(); ++i) body += (i ? ",\n  " : "  ") + events[i];
  return "{\"distributedInfo\": {\"backend\": \"gloo\", \"rank\": " + std::to_string(rank) +
         ", \"world_size\": " + std::to_string(world) + "},\n\"traceEvents\": [\n" + body +
         "\n]}\n";
}

}  // namespace slimpack::testing
