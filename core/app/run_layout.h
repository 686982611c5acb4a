#pragma once
// Where a measured run's files lie: its rank traces, and the file that says which rank runs which
// stage. A folder stands for
//  - its trace files (core/trace/trace_sniff.h: rank<R>.json[.gz], *.pt.trace.json, ...), or
//  - torchtitan's profiler layout: `iteration_<N>` folders, in the folder itself or under its
//    `profiling/traces` or `profile_traces`, each holding rank<R>_trace.json[.gz]: the highest N
//    is taken, and the layout says which;
// and its table: a PyTorch pipeline CSV in the folder (a .csv whose first cell is an action,
// core/schedule/torch_pp_actions.h), else a slimpack schedule file in it (its `ranks`). A .csv
// given as a file is the table too. No Qt, no threads.
#include <string>
#include <vector>

#include "common/status.h"

namespace slimpack {

struct RunLayout {
  std::vector<std::string> traces;  // one per rank, folders expanded in name order
  std::string table_file;           // empty: the run has none
  bool torch_csv = false;           // table_file is a torch CSV (else a schedule)
  bool torchtitan = false;          // the traces come from torchtitan's iteration folders
  std::string note;                 // "torchtitan layout: RUN/profiling/traces/iteration_20 ..."
};

// A file named twice is an error ("given twice: one file per rank"), and so are two tables, a
// folder without traces and an iteration folder without them.
Expected<RunLayout> run_layout(const std::vector<std::string>& given);

// Whether a folder holds trace files, directly or in torchtitan's iteration folders.
bool folder_has_traces(const std::string& folder);

// Whether `path` is a slimpack schedule (its "format" near the top) or plan file.
bool looks_like_schedule_file(const std::string& path);
bool looks_like_plan_or_schedule_file(const std::string& path);

}  // namespace slimpack
