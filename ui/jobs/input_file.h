#pragma once
// Opening a file the user dropped or chose: a length file or a plan, told apart by extension and,
// for .json, by the plan's "format" field. Qt-free; runs on a worker. Whatever fails is reported
// with the file, line or JSON path and the reason, before anything in the session changes.
#include <memory>
#include <string>

#include "common/status.h"
#include "plan/plan.h"
#include "workload/lengths.h"

namespace slimpack::ui {

enum class InputKind { Lengths, Plan, Session, Unknown };

// By extension: .slimpack = session; .csv/.txt/.jsonl = lengths; .json = lengths or plan (decided
// when reading); anything else is unknown.
InputKind input_kind_by_name(const std::string& path);

struct LoadedInput {
  InputKind kind = InputKind::Unknown;
  std::shared_ptr<const LengthPool> pool;  // kind == Lengths
  std::shared_ptr<const Plan> plan;        // kind == Plan
};

// Reads a length file or a plan. A plan must pass the structural and ordering legality rules
// (memory is checked later against the chosen GPU by the simulator).
Expected<LoadedInput> load_input_file(const std::string& path, const std::string& column = {});

}  // namespace slimpack::ui
