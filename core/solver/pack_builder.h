#pragma once
// Helpers shared by every strategy (internal to the solver module), one concern per header:
// time estimates (time_lines.h), memory-derived limits and pack counts (limits.h), replica
// assignment and greedy bins (assignment.h), the symmetric backward order of sliced plans
// (symmetric_backward.h), the plan skeleton and legality gate (plan_gate.h), and the reported
// objective (objective.h).
#include "solver/assignment.h"
#include "solver/limits.h"
#include "solver/objective.h"
#include "solver/plan_gate.h"
#include "solver/symmetric_backward.h"
#include "solver/time_lines.h"
