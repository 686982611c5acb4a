#pragma once
// Opening a file the user dropped, chose or named on the command line: a length file, a plan or a
// fitted cost profile, told apart by extension and, for .json, by the "format" field. Qt-free; runs
// on a worker. Whatever fails is reported with the file, line or JSON path and the reason, before
// anything in the session changes.
#include <memory>
#include <optional>
#include <string>

#include "app/schedule_input.h"
#include "common/status.h"
#include "plan/plan.h"
#include "workload/lengths.h"

namespace slimpack {

enum class InputKind { Lengths, Plan, CostProfile, Session, Unknown };

// By extension: .slimpack = session; .csv/.txt/.jsonl = lengths; .json = lengths, plan or cost
// profile (decided when reading); anything else is unknown.
InputKind input_kind_by_name(const std::string& path);

struct LoadedInput {
  InputKind kind = InputKind::Unknown;
  std::shared_ptr<const LengthPool> pool;  // kind == Lengths
  std::shared_ptr<const Plan> plan;        // kind == Plan
  // kind == Plan from a schedule file: its setup fixes the cost model (schedule_input.h).
  std::optional<LoadedSchedule> schedule;
};

// Reads a length file, a plan or a cost profile. A plan must pass the structural and ordering
// legality rules (memory is checked later against the chosen GPU by the simulator); a cost profile
// must fit (it becomes the configuration's cost_profile_file). A Chrome/Kineto trace is refused
// with a pointer to what reads traces.
Expected<LoadedInput> load_input_file(const std::string& path, const std::string& column = {});

// The one rule for opening a plan file, in the CLI (`simulate --plan`) and the explorer alike: it
// must parse (errors name the file and JSON path) and pass the structural and ordering legality
// rules ("FILE: illegal plan: L2: ..."); memory (L4) is judged later by the simulator against the
// chosen GPU, where a violation is a result, not a refusal.
Expected<Plan> load_plan_file(const std::string& path);
// A plan file or a schedule file (docs/file-formats-schedule.md), told apart by "format": kind
// Plan, with `schedule` set for a schedule. What `simulate --plan` and the explorer's Open take.
Expected<LoadedInput> open_plan_file(const std::string& path);

}  // namespace slimpack
