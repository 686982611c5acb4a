#pragma once
// The `.slimpack` session file: workload, configuration and view, enough to restore what the user
// was looking at. Qt-free value type; written atomically so a crash never leaves half a session.
//   { "format": "slimpack-session", "version": 1, "workload": {...}, "config": {...},
//     "plan_file": "...", "view": { "t0": 0, "t1": 1.5, "selected_sequence": -1,
//     "saved_views": [ { "name": "warm-up", "t0": 0, "t1": 0.2, "tab": "gantt",
//                        "selected_sequence": 3 } ] } }
// "tab" and "selected_sequence" of a saved view are optional (older sessions lack them).
#include <string>
#include <vector>

#include "app/scenario.h"
#include "app/search_space.h"
#include "common/status.h"

namespace slimpack {

// One step of a presentation: which tab, which time range and which highlighted sequence.
struct SavedView {
  std::string name;
  double t0 = 0.0;
  double t1 = 0.0;
  std::string tab = "gantt";   // "gantt" or "compare"
  int selected_sequence = -1;  // highlighted in every pack on every stage; -1 = none
  bool operator==(const SavedView&) const = default;
};

struct ViewState {
  double t0 = 0.0;  // visible time range of the Gantt; t1 <= t0 means "fit to window"
  double t1 = 0.0;
  int selected_sequence = -1;
  // The tab in front when saved: "gantt", "compare", "search" or "traces" (reopened on it).
  std::string tab = "gantt";
  std::vector<SavedView> saved_views;  // stepped through with the arrow keys in presentation mode
  bool operator==(const ViewState&) const = default;
};

// The Traces tab's part: which trace files were open (run A, one per rank, and run B when
// comparing), the unit rules edited in the mapping-rules dialog and whether measured vs simulated
// was shown. With the trace options (TraceSpec, from the option table) it is the session's
// "traces" object:
//   "traces": {"rules": "slimpack", "lanes": "", "align_event": "", "offsets_us": "",
//              "gpu_time": "cpu", "files": ["r0.json.gz", ...], "compare_files": [...],
//              "rules_set": {...}, "measured_vs_simulated": true}
// "rules_set" holds edited rules whole (unit_rules_to_json); "rules" is then their name.
struct TraceSessionPart {
  std::vector<std::string> files;          // run A; empty: no traces open
  std::vector<std::string> compare_files;  // run B
  std::string rules_json;                  // a custom rule set; empty: TraceSpec::rules
  bool measured_vs_simulated = false;
  bool operator==(const TraceSessionPart&) const = default;
};

// The Search tab's settings: the GPU budget and its bounds, K and the searched lists (empty =
// automatic). The session's "search" object, written when any differs from these defaults:
//   "search": {"gpus": 64, "min_gpus": 1, "gpus_per_node": 0, "batches": 8,
//              "pp": "2,4", "tp": "", "cp": "", "dp": "", "slice": "", "recompute": "full",
//              "schedule": "", "strategy": ""}
// The lists are the CLI's spelling (`--pp 2,4`), read by set_space_list.
struct SearchSessionPart {
  SearchSpace space = default_space();
  int batches = 8;
  bool operator==(const SearchSessionPart&) const = default;
  static SearchSpace default_space() {
    SearchSpace s;
    s.gpus = 64;
    return s;
  }
};

struct SessionFile {
  WorkloadSpec workload;
  ConfigSpec config;
  std::string plan_file;  // a plan opened instead of solving; empty = solve
  ViewState view;
  TraceSpec trace_options;
  TraceSessionPart traces;
  SearchSessionPart search;
  bool operator==(const SessionFile&) const = default;
};

inline constexpr const char* kSessionFormat = "slimpack-session";
inline constexpr int kSessionVersion = 1;

std::string session_to_json(const SessionFile& session);
// Errors name the JSON path and the reason; `source` (the file name) prefixes them.
Expected<SessionFile> session_from_json(const std::string& text, const std::string& source);

Status write_session_file(const std::string& path, const SessionFile& session);
Expected<SessionFile> read_session_file(const std::string& path);

}  // namespace slimpack
