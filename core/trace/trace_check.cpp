#include "trace/trace_check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace slimpack {
namespace {

using UnitKey = std::tuple<int, int, int, int>;  // replica, stage, pass, pack

UnitKey key_of(int replica, int stage, Pass pass, int pack) {
  return {replica, stage, static_cast<int>(pass), pack};
}

double relative_error(double simulated, double measured) {
  if (measured == 0.0) return simulated == 0.0 ? 0.0 : 1.0;
  return (simulated - measured) / measured;
}

}  // namespace

TraceCheck check_against_simulation(const MappedTrace& measured, const SimResult& simulated,
                                    double us_per_unit) {
  std::map<UnitKey, double> sim_us, meas_us;
  std::map<UnitKey, std::vector<UnitEventRef>> meas_events;
  for (std::size_t r = 0; r < simulated.replicas.size(); ++r) {
    const auto& stages = simulated.replicas[r].stages;
    for (std::size_t s = 0; s < stages.size(); ++s)
      for (const TimedOp& op : stages[s].ops) {
        if (op.kind != OpKind::Forward && op.kind != OpKind::Backward) continue;
        const Pass pass = op.kind == OpKind::Forward ? Pass::Forward : Pass::Backward;
        sim_us[key_of(static_cast<int>(r), static_cast<int>(s), pass, op.pack)] +=
            op.duration() * us_per_unit;
      }
  }
  std::map<int, std::pair<double, double>> replica_extent;  // first start, last end
  for (const MeasuredUnit& u : measured.units) {
    meas_us[key_of(u.replica, u.stage, u.pass, u.pack)] += u.dur_us;
    meas_events[key_of(u.replica, u.stage, u.pass, u.pack)].push_back(
        {u.source, u.event, measured.names.empty() ? std::string() : measured.name_of(u),
         u.kernels});
    auto [it, fresh] = replica_extent.try_emplace(u.replica, u.start_us, u.start_us + u.dur_us);
    if (!fresh) {
      it->second.first = std::min(it->second.first, u.start_us);
      it->second.second = std::max(it->second.second, u.start_us + u.dur_us);
    }
  }

  TraceCheck out;
  out.sources = measured.sources;
  double abs_error_sum = 0.0;
  for (const auto& [key, sim] : sim_us) {
    const auto it = meas_us.find(key);
    if (it == meas_us.end()) {
      ++out.only_simulated;
      continue;
    }
    UnitComparison c;
    c.replica = std::get<0>(key);
    c.stage = std::get<1>(key);
    c.pass = static_cast<Pass>(std::get<2>(key));
    c.pack = std::get<3>(key);
    c.simulated_us = sim;
    c.measured_us = it->second;
    c.error = relative_error(sim, it->second);
    c.events = meas_events[key];
    abs_error_sum += std::abs(c.error);
    out.units.push_back(c);
  }
  for (const auto& [key, meas] : meas_us)
    if (sim_us.find(key) == sim_us.end()) ++out.only_measured;
  if (!out.units.empty()) out.mape = abs_error_sum / static_cast<double>(out.units.size());
  std::stable_sort(out.units.begin(), out.units.end(),
                   [](const UnitComparison& a, const UnitComparison& b) {
                     return std::abs(a.error) > std::abs(b.error);
                   });
  for (const auto& [replica, extent] : replica_extent)
    out.measured_makespan_us = std::max(out.measured_makespan_us, extent.second - extent.first);
  out.simulated_makespan_us = simulated.makespan * us_per_unit;
  out.makespan_error = relative_error(out.simulated_makespan_us, out.measured_makespan_us);
  return out;
}

}  // namespace slimpack
