#pragma once
// The legality checker (docs/design.md section 4, rules L1-L6). It is independent of every strategy
// and of the cost model: memory (L4) is checked against a MemoryModel value that the cost module
// fills in.
#include <cstdint>
#include <string>
#include <vector>

#include "plan/plan.h"

namespace slimpack {

// Bytes a stage needs, in the simple additive form of docs/design.md section 3. Filled by
// CostModel::memory_model(); all fields per stage have size == plan.stages.
struct MemoryModel {
  std::vector<double> static_bytes;          // weights, grads, optimizer state, runtime reserve
  std::vector<double> activation_per_token;  // A_tok * layers of that stage (bytes per token)
  std::vector<double>
      dkdv_per_context_token;   // dK/dV accumulator bytes per prefix token (Ls*4*g*dh/min(t,g))
  double capacity_bytes = 0.0;  // the cap; 0 = unlimited
  // Bytes per token a backward op holds while it runs (a recomputed layer's rebuilt activations);
  // empty or 0 = none.
  std::vector<double> backward_working_per_token{};
};

struct LegalityOptions {
  Tokens token_cap = 0;                 // L5: max tokens per pack; 0 = unlimited
  const MemoryModel* memory = nullptr;  // L4: skipped when null
};

enum class Rule { Structure, L1, L2, L3, L4, L5, L6 };
const char* rule_name(Rule r);  // "structure", "L1", ...

struct Violation {
  Rule rule = Rule::Structure;
  int replica = 0;
  Pass pass = Pass::Forward;
  int pack = -1;        // 0-based pack index, -1 when not about one pack
  int stage = -1;       // for L4
  SeqIndex seq = -1;    // the sequence involved, -1 when none
  double needed = 0.0;  // L4: the stage's peak bytes; L5: the pack's tokens
  double cap = 0.0;     // L4: the memory cap in bytes; L5: the token cap
  std::string message;  // human readable, names rule, replica, pack and sequence id
};

struct LegalityReport {
  std::vector<Violation> violations;  // empty = legal
  bool legal() const { return violations.empty(); }
  // First violation's message, or "" when legal.
  std::string summary() const;
};

// Checks structure (segments in range, every token of every sequence exactly once in forward and
// once in backward, across replicas; DP-Merged shards complete) and rules L1-L6.
// Stops collecting after `max_violations`.
LegalityReport check_legality(const Plan& plan, const LegalityOptions& options = {},
                              std::size_t max_violations = 32);

// Peak bytes per stage when the plan runs in its schedule order (same accounting as the simulator's
// memory timeline: activations held from a slice's forward to its backward, dK/dV accumulator while
// a sliced sequence is in backward). Used by L4 and by solvers.
std::vector<double> peak_memory_per_stage(const Plan& plan, int replica, const MemoryModel& memory);

}  // namespace slimpack
