#pragma once
// Which pipeline stage (and replica) each lane of an imported trace stands for, so a measured
// trace can be laid next to a simulated schedule.
#include <map>
#include <string>

#include "common/status.h"
#include "trace/trace_import.h"

namespace slimpack {

struct LaneMapping {
  std::map<std::string, int> stage_of_lane;    // key: lane_key(pid, tid)
  std::map<std::string, int> replica_of_lane;  // same keys; absent = replica 0
};

// "pid/tid", with pid and tid as TraceLane holds them (numbers printed as text).
std::string lane_key(const std::string& pid, const std::string& tid);

// Stage of a lane, or -1 when the mapping does not name it.
int stage_of(const LaneMapping& mapping, const TraceLane& lane);
int replica_of(const LaneMapping& mapping, const TraceLane& lane);

// A user mapping file: {"lanes": [{"pid": "0", "tid": "1", "stage": 1, "replica": 0}, ...]}.
// pid and tid may be strings or integers; "replica" is optional. Errors name the file and the
// JSON path.
Expected<LaneMapping> read_lane_mapping(const std::string& path);
Expected<LaneMapping> parse_lane_mapping(const std::string& json_text, const std::string& source);

// Without a user mapping. Our own exports label threads "stage s" / "stage s p2p" in processes
// "replica r": those lanes map to stage s of replica r (compute and p2p lanes alike). Any other
// trace: each process is taken as one pipeline rank, so every lane of the k-th pid (in lane order)
// maps to stage k, replica 0.
LaneMapping default_lane_mapping(const ImportedTrace& trace);

// Only our own exports' names ("stage s" threads in "replica r" processes); empty otherwise.
LaneMapping export_lane_mapping(const ImportedTrace& trace);
// Every lane of the trace (CPU threads, GPU streams) to one stage of one replica: the trace of one
// rank of a multi-rank run.
LaneMapping rank_lane_mapping(const ImportedTrace& trace, int replica, int stage);

}  // namespace slimpack
