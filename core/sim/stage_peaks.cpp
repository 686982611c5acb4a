#include <algorithm>

#include "sim/sim_result.h"

namespace slimpack {

std::vector<double> stage_peak_memory(const SimResult& result) {
  std::vector<double> peaks;
  if (result.replicas.empty()) return peaks;
  peaks.assign(result.replicas.front().stages.size(), 0.0);
  for (const ReplicaResult& rep : result.replicas)
    for (std::size_t s = 0; s < peaks.size() && s < rep.stages.size(); ++s)
      peaks[s] = std::max(peaks[s], rep.stages[s].peak_memory_bytes);
  return peaks;
}

}  // namespace slimpack
