#pragma once
// The Traces tab's part of a `.slimpack` session: which trace files were open (run A, and run B
// when comparing), the unit rule set that maps them to the pipeline and whether measured vs
// simulated was shown. Stored as a "traces" object in the session JSON, which the session reader
// ignores, so older readers still open such sessions:
//   "traces": {"files": ["r0.json.gz", ...], "compare_files": [...], "rules": "slimpack",
//              "measured_vs_simulated": true}
// Rules edited in the mapping-rules dialog are kept whole: "rules" is then their name and
// "rules_set" the rules JSON object (core/trace/trace_units.h, unit_rules_to_json).
#include <string>
#include <vector>

#include "common/status.h"

namespace slimpack::ui {

struct TraceSessionPart {
  std::vector<std::string> files;          // run A, one per rank; empty: no traces open
  std::vector<std::string> compare_files;  // run B
  std::string rules = "slimpack";          // a built-in unit rule set, or the custom set's name
  std::string rules_json;                  // a custom set (unit_rules_to_json); empty: built-in
  bool measured_vs_simulated = false;
  bool operator==(const TraceSessionPart&) const = default;
};

// `session_json` with the "traces" object added (unchanged when no trace is open).
Expected<std::string> add_traces_to_session(const std::string& session_json,
                                            const TraceSessionPart& traces);
// The "traces" object of a session's JSON text (an empty part when it has none); errors name
// `source` and the field.
Expected<TraceSessionPart> traces_from_session(const std::string& session_json,
                                               const std::string& source);

}  // namespace slimpack::ui
