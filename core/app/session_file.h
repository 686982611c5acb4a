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
  std::vector<SavedView> saved_views;  // stepped through with the arrow keys in presentation mode
  bool operator==(const ViewState&) const = default;
};

struct SessionFile {
  WorkloadSpec workload;
  ConfigSpec config;
  std::string plan_file;  // a plan opened instead of solving; empty = solve
  ViewState view;
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
