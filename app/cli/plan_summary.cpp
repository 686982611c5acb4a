#include "plan_summary.h"

#include <cstdio>

#include "output.h"

namespace slimpack::cli {

nlohmann::json plan_shape_json(const Plan& plan) {
  nlohmann::json reps = nlohmann::json::array();
  for (const auto& r : plan.replicas)
    reps.push_back({{"forward_packs", r.forward.size()}, {"backward_packs", r.backward.size()}});
  return {{"strategy", plan.strategy},
          {"stages", plan.stages},
          {"dp", plan.dp()},
          {"schedule", schedule_name(plan.schedule)},
          {"warmup_extra", plan.warmup_extra},
          {"vchunks", plan.vchunks},
          {"slice_size", plan.slice_size},
          {"sequences", plan.sequences.size()},
          {"total_tokens", plan.total_tokens()},
          {"recompute_layers", plan.recompute_layers},
          {"replicas", reps}};
}

void print_sim_summary(const std::string& title, const Plan& plan, const SimResult& r) {
  const std::string& u = r.time_unit;
  std::printf("%s\n", title.c_str());
  std::printf("  plan            %s, p=%d, d=%d, %s, w=%d, S=%lld, %zu sequences, %s tokens\n",
              plan.strategy.empty() ? "(file)" : plan.strategy.c_str(), plan.stages, plan.dp(),
              schedule_name(plan.schedule), plan.warmup_extra,
              static_cast<long long>(plan.slice_size), plan.sequences.size(),
              format_count(static_cast<double>(plan.total_tokens())).c_str());
  if (!plan.replicas.empty())
    std::printf("  packs           %zu forward, %zu backward (replica 0)\n",
                plan.replicas[0].forward.size(), plan.replicas[0].backward.size());
  std::printf("  iteration time  %s\n", format_time(r.iteration_time, u).c_str());
  std::printf("  makespan        %s\n", format_time(r.makespan, u).c_str());
  std::printf("  bubble ratio    %s\n", format_percent(r.bubble_ratio).c_str());
  std::printf("  work bound      %s (busiest stage; gap %s)\n",
              format_time(r.stage_work_bound, u).c_str(), format_percent(r.gap_to_bound).c_str());
  if (u == "s") {
    std::printf("  throughput      %s tokens/s\n", format_count(r.tokens_per_second).c_str());
    std::printf("  MFU             %s\n", format_percent(r.mfu).c_str());
    std::printf("  peak memory     %s\n", format_bytes(r.peak_memory_bytes).c_str());
  }
  std::printf("  legal           %s\n", r.legal ? "yes" : r.legality_message.c_str());
  if (!r.replicas.empty()) {
    std::printf("  %-6s %14s %10s %14s %11s\n", "stage", "busy", "bubble", "peak memory",
                "recomputed");
    const auto& stages = r.replicas[0].stages;
    const std::vector<double> peaks = stage_peak_memory(r);
    for (std::size_t s = 0; s < stages.size(); ++s) {
      std::printf("  %-6zu %14s %10s %14s %11d\n", s, format_time(stages[s].busy, u).c_str(),
                  format_percent(stages[s].bubble_ratio).c_str(),
                  u == "s" ? format_bytes(peaks[s]).c_str() : "-",
                  plan.recompute_at(static_cast<int>(s)));
    }
  }
}

void print_solve_stats(const SolveStats& st) {
  std::printf("solver\n");
  std::printf("  total time      %s\n", format_time(st.total_seconds).c_str());
  for (const auto& [name, secs] : st.phase_seconds)
    std::printf("  %-15s %s\n", name.c_str(), format_time(secs).c_str());
  std::printf("  candidates      %d\n", st.candidates);
  if (st.objective > 0) {
    std::printf("  objective       %s (zF + zB)\n", format_time(st.objective).c_str());
    std::printf("  bound           %s\n", format_time(st.bound).c_str());
    std::printf("  gap             %s%s\n", format_percent(st.gap).c_str(),
                st.proven_optimal ? " (optimal)" : "");
  }
  if (!st.notes.empty()) std::printf("  notes           %s\n", st.notes.c_str());
}

nlohmann::json solve_stats_to_json(const SolveStats& st) {
  nlohmann::json phases = nlohmann::json::object();
  for (const auto& [name, secs] : st.phase_seconds) phases[name] = secs;
  return {{"total_seconds", st.total_seconds},
          {"phase_seconds", phases},
          {"candidates", st.candidates},
          {"objective", st.objective},
          {"bound", st.bound},
          {"gap", st.gap},
          {"proven_optimal", st.proven_optimal},
          {"notes", st.notes}};
}

}  // namespace slimpack::cli
