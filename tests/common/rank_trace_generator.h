#pragma once
// Test generator of a measured multi-rank run: one profiler trace per rank of a plan, its units in
// the order the schedule runs them on that rank, with the simulated start and duration of each
// (so the durations follow the cost model's kappa/alpha/beta the plan was simulated with).
//   Kineto: {"distributedInfo": {"rank", "world_size"}, "traceEvents": [...]}; record_function
//     ranges "F<k>"/"B<k>" (k = pack + 1) of cat user_annotation on the CPU thread, "wait
//     RECV_F<k>" ranges between units, an aten op inside each unit, a cudaLaunchKernel with an
//     ac2g flow to a kernel on GPU stream 7 (pid 0), and the gpu_user_annotation copy of the range
//     on that stream. The kernel starts `kernel_lead_us` after its unit and ends with it.
//   Legacy (torch 1.13's legacy profiler): a bare event array, pid "CPU functions", no cat, no
//     distributedInfo; the rank is in the file name ("legacy_rank3.json").
// Header-only: used by the core tests and the explorer's parity test alike.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "plan/plan.h"
#include "sim/sim_result.h"

namespace slimpack::testing {

enum class TraceStyle { Kineto, Legacy };

// 2 stages x 2 replicas; packs whose tokens and attention pairs vary independently (so a fit can
// tell alpha from beta); every backward pack the same sequences as its forward pack.
inline Plan two_by_two_plan() {
  Plan plan;
  plan.stages = 2;
  const std::vector<std::vector<Tokens>> packs = {{8192},       {2048, 2048, 2048, 2048}, {4096},
                                                  {1024, 6144}, {512, 512, 512},          {16384}};
  for (int r = 0; r < 2; ++r) {
    ReplicaPlan rp;
    for (const auto& lengths : packs) {
      Pack p;
      for (Tokens len : lengths) {
        const auto seq = static_cast<SeqIndex>(plan.sequences.size());
        plan.sequences.push_back({"s" + std::to_string(seq), len * (r + 1)});
        p.segments.push_back({seq, 0, len * (r + 1)});
      }
      rp.forward.push_back(p);
    }
    rp.backward = rp.forward;
    plan.replicas.push_back(rp);
  }
  return plan;
}

inline std::string us_text(double seconds) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6f", seconds * 1e6);
  return buf;
}

// The events of rank (replica r, stage s). Unit times come from the simulation (seconds).
inline std::string rank_trace_text(const SimResult& sim, int replica, int stage, int world,
                                   TraceStyle style, double kernel_lead_us = 2.0) {
  const bool kineto = style == TraceStyle::Kineto;
  const int rank = replica * static_cast<int>(sim.replicas.front().stages.size()) + stage;
  const std::string pid = kineto ? std::to_string(4000 + rank) : "\"CPU functions\"";
  const std::string tid = kineto ? std::to_string(4000 + rank) : "0";
  std::vector<std::string> events;
  auto range = [&](const std::string& name, const char* cat, const std::string& p,
                   const std::string& t, double t0, double dur_s) {
    std::string e = "{\"ph\": \"X\", \"name\": \"" + name + "\", \"pid\": " + p +
                    ", \"tid\": " + t + ", \"ts\": " + us_text(t0) + ", \"dur\": " + us_text(dur_s);
    if (kineto && cat) e += std::string(", \"cat\": \"") + cat + "\"";
    events.push_back(e + "}");
  };
  if (kineto) {
    events.push_back(R"({"ph": "M", "name": "process_name", "pid": )" + pid +
                     R"(, "args": {"name": "python3"}})");
    events.push_back(R"({"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "GPU 0"}})");
  }
  const auto& ops =
      sim.replicas[static_cast<std::size_t>(replica)].stages[static_cast<std::size_t>(stage)].ops;
  double cursor = ops.empty() ? 0.0 : ops.front().start;
  int flow = 1;
  for (const TimedOp& op : ops) {
    if (op.kind != OpKind::Forward && op.kind != OpKind::Backward) continue;
    const std::string k = std::to_string(op.pack + 1);
    const char* letter = op.kind == OpKind::Forward ? "F" : "B";
    // The wait before the unit (a receive): a separately named range, never a unit.
    range(std::string("wait RECV_") + letter + k, "user_annotation", pid, tid, cursor,
          op.start - cursor);
    range(letter + k, "user_annotation", pid, tid, op.start, op.duration());
    range("aten::mm", "cpu_op", pid, tid, op.start, op.duration() / 2);
    if (kineto) {
      const double launch = op.start + 0.25e-6;
      range("cudaLaunchKernel", "cuda_runtime", pid, tid, launch, 0.5e-6);
      const double k0 = op.start + kernel_lead_us * 1e-6;
      const std::string id = std::to_string(rank * 100000 + flow++);
      events.push_back(R"({"ph": "s", "id": )" + id + R"(, "pid": )" + pid + R"(, "tid": )" + tid +
                       R"(, "ts": )" + us_text(launch) + R"(, "cat": "ac2g", "name": "ac2g"})");
      range(std::string("ampere_gemm_") + letter, "kernel", "0", "7", k0, op.end - k0);
      events.push_back(R"({"ph": "f", "id": )" + id + R"(, "pid": 0, "tid": 7, "ts": )" +
                       us_text(k0) + R"(, "cat": "ac2g", "name": "ac2g", "bp": "e"})");
      range(letter + k, "gpu_user_annotation", "0", "7", k0, op.end - k0);
    }
    cursor = op.end;
  }
  std::string body;
  for (std::size_t i = 0; i < events.size(); ++i) body += (i ? ",\n  " : "  ") + events[i];
  if (!kineto) return "[\n" + body + "\n]\n";
  return "{\"distributedInfo\": {\"rank\": " + std::to_string(rank) +
         ", \"world_size\": " + std::to_string(world) + "},\n\"traceEvents\": [\n" + body +
         "\n]}\n";
}

// Writes every rank's trace into `dir`; returns the paths, the ranks in reverse order (the loader
// must not depend on the order given). Kineto files are named "kineto-<letter>.json" (the rank
// is only in distributedInfo), legacy files "legacy_rank<r>.json".
inline std::vector<std::string> write_rank_traces(const SimResult& sim, TraceStyle style,
                                                  const std::string& dir,
                                                  double kernel_lead_us = 2.0) {
  const int replicas = static_cast<int>(sim.replicas.size());
  const int stages = static_cast<int>(sim.replicas.front().stages.size());
  std::vector<std::string> paths;
  for (int rank = replicas * stages - 1; rank >= 0; --rank) {
    const std::string name =
        style == TraceStyle::Kineto
            ? "kineto-" + std::string(1, static_cast<char>('a' + (rank * 7) % 26)) + ".json"
            : "legacy_rank" + std::to_string(rank) + ".json";
    const std::string path = dir + "/" + name;
    std::ofstream(path) << rank_trace_text(sim, rank / stages, rank % stages, replicas * stages,
                                           style, kernel_lead_us);
    paths.push_back(path);
  }
  return paths;
}

}  // namespace slimpack::testing
