#pragma once
// Measured against simulated: the units of a mapped profiler trace (core/trace/trace_units.h) held
// against the forward and backward ops of a simulation of the same plan, unit by unit and for the
// whole makespan. Answers "how far is the model from this machine, and where".
#include <cstdint>
#include <string>
#include <vector>

#include "sim/sim_result.h"
#include "trace/trace_units.h"

namespace slimpack {

// One event a measured unit was built from: its file (MappedTrace::sources), its position in
// that file's event array and its name.
struct UnitEventRef {
  int source = 0;
  std::int32_t event = -1;
  std::string name;
  int kernels = 0;  // GPU kernels reached by flows (GpuTime::Flows), else 0
  bool operator==(const UnitEventRef&) const = default;
};

struct UnitComparison {
  int replica = 0;
  int stage = 0;
  Pass pass = Pass::Forward;
  int pack = 0;
  double simulated_us = 0.0;  // summed when a pack runs several times on a stage (virtual chunks)
  double measured_us = 0.0;
  double error = 0.0;                // (simulated - measured) / measured; 0 when both are 0
  std::vector<UnitEventRef> events;  // the measured events summed into this unit
};

struct TraceCheck {
  std::vector<UnitComparison> units;  // matched units, largest |error| first
  std::int64_t only_simulated = 0;    // simulated ops with no measured unit
  std::int64_t only_measured = 0;     // measured units with no simulated op (wrong plan or rules?)
  double mape = 0.0;                  // mean |error| over matched units
  double simulated_makespan_us = 0.0;
  double measured_makespan_us = 0.0;  // per replica: last unit end - first unit start; the max
  double makespan_error = 0.0;        // (simulated - measured) / measured
  std::vector<std::string> sources;   // the measured files, by UnitEventRef::source
};

// `us_per_unit` converts the simulation's time unit to microseconds (trace_us_per_unit()).
TraceCheck check_against_simulation(const MappedTrace& measured, const SimResult& simulated,
                                    double us_per_unit);

}  // namespace slimpack
