#pragma once
// Measured against simulated: the units of a mapped profiler trace (core/trace/trace_units.h) held
// against the forward and backward ops of a simulation of the same plan, unit by unit and for the
// whole makespan. Answers "how far is the model from this machine, and where".
#include <cstdint>
#include <vector>

#include "sim/sim_result.h"
#include "trace/trace_units.h"

namespace slimpack {

struct UnitComparison {
  int replica = 0;
  int stage = 0;
  Pass pass = Pass::Forward;
  int pack = 0;
  double simulated_us = 0.0;  // summed when a pack runs several times on a stage (virtual chunks)
  double measured_us = 0.0;
  double error = 0.0;  // (simulated - measured) / measured; 0 when both are 0
};

struct TraceCheck {
  std::vector<UnitComparison> units;  // matched units, largest |error| first
  std::int64_t only_simulated = 0;    // simulated ops with no measured unit
  std::int64_t only_measured = 0;     // measured units with no simulated op (wrong plan or rules?)
  double mape = 0.0;                  // mean |error| over matched units
  double simulated_makespan_us = 0.0;
  double measured_makespan_us = 0.0;  // per replica: last unit end - first unit start; the max
  double makespan_error = 0.0;        // (simulated - measured) / measured
};

// `us_per_unit` converts the simulation's time unit to microseconds (trace_us_per_unit()).
TraceCheck check_against_simulation(const MappedTrace& measured, const SimResult& simulated,
                                    double us_per_unit);

}  // namespace slimpack
